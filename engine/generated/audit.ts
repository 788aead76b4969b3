/* Generated from schemas/entities/audit.json by `npm run gen`. Do not edit. */

export interface Audit {
  /**
   * Audit ID
   */
  audit_id?: string;
  /**
   * Timestamp
   */
  timestamp?: string;
  /**
   * Instance
   */
  instance?: string;
  /**
   * Location
   */
  location?: string;
  /**
   * Overall result
   */
  overall_result?: {
    /**
     * Success
     */
    success?: boolean;
    /**
     * Details
     */
    details?: string;
    /**
     * Links
     *
     * @maxItems 1000
     */
    links?: string[];
  };
  /**
   * Metrics
   *
   * @maxItems 1000
   */
  metrics?: {
    /**
     * Metric
     */
    metric_id?: string | number | {};
    /**
     * Names
     */
    names?: string;
    /**
     * Descriptions
     */
    descriptions?: string;
    /**
     * Score
     */
    score?: number;
    /**
     * Required score
     */
    required_score?: number;
    /**
     * Score unit
     */
    score_uom?: string;
  }[];
  /**
   * ID
   */
  id?: string;
}
