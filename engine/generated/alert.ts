/* Generated from schemas/entities/alert.json by `npm run gen`. Do not edit. */

export interface Alert {
  /**
   * Title
   */
  title: {
    /**
     * English
     */
    en: string;
    /**
     * Spanish
     */
    es: string;
    /**
     * French
     */
    fr: string;
  };
  /**
   * Description
   */
  description: {
    /**
     * English
     */
    en: string;
    /**
     * Spanish
     */
    es: string;
    /**
     * French
     */
    fr: string;
  };
  /**
   * Severity
   */
  severity: ('info' | 'warning' | 'error') & string;
  /**
   * Operation
   */
  operation?: {
    /**
     * Workflow
     */
    workflow?: string;
    /**
     * Record
     */
    id?: string;
    /**
     * Transition
     */
    transition?: string;
  };
  /**
   * Deposit
   */
  deposit?: string | number | {};
  /**
   * Time
   */
  timestamp: string;
  /**
   * Read
   */
  read?: boolean;
  /**
   * ID
   */
  id?: string;
}
