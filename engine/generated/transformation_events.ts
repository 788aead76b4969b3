/* Generated from schemas/entities/transformation_events.json by `npm run gen`. Do not edit. */

export interface TransformationEvents {
  /**
   * Event time
   */
  event_time: string;
  /**
   * Business step
   */
  biz_step?: string;
  /**
   * Company SGLN
   */
  company_sgln?: string;
  /**
   * Read point
   */
  read_point?: string;
  /**
   * Business location
   */
  business_location?: string;
  /**
   * Disposition
   */
  disposition?: string;
  /**
   * Persistent disposition
   */
  persistent_disposition?: string;
  /**
   * Input EPCs
   *
   * @maxItems 1000
   */
  inputEPCList?: string[];
  /**
   * Input quantities
   *
   * @maxItems 1000
   */
  inputQuantityList?: {
    /**
     * EPC class
     */
    epcClass?: string;
    /**
     * Quantity
     */
    quantity?: number;
    /**
     * UN/CEFACT unit code, e.g. KGM.
     */
    uom?: string;
  }[];
  /**
   * Output EPCs
   *
   * @maxItems 1000
   */
  outputEPCList?: string[];
  /**
   * Output quantities
   *
   * @maxItems 1000
   */
  outputQuantityList?: {
    /**
     * EPC class
     */
    epcClass?: string;
    /**
     * Quantity
     */
    quantity?: number;
    /**
     * UN/CEFACT unit code, e.g. KGM.
     */
    uom?: string;
  }[];
  /**
   * Sources
   *
   * @maxItems 1000
   */
  sourceList?: {
    /**
     * Type
     */
    type?: string;
    /**
     * Source
     */
    source?: string;
  }[];
  /**
   * Destinations
   *
   * @maxItems 1000
   */
  destinationList?: {
    /**
     * Type
     */
    type?: string;
    /**
     * Destination
     */
    destination?: string;
  }[];
  /**
   * Business transaction
   */
  business_transaction?: {
    /**
     * Transaction ID
     */
    id?: string;
    /**
     * Transaction type
     */
    type?: string;
  };
  /**
   * Lot master data (ILMD)
   */
  ilmd?: {
    /**
     * Lot number
     */
    lot_number?: string;
    /**
     * Production date
     */
    production_date?: string;
    /**
     * Expiration date
     */
    expiration_date?: string;
    /**
     * Best before date
     */
    best_before_date?: string;
    /**
     * Country of origin
     */
    country_of_origin?: string;
  };
  /**
   * ID
   */
  id?: string;
}
