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
   */
  inputEPCList?: string[];
  /**
   * Input quantities
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
   */
  outputEPCList?: string[];
  /**
   * Output quantities
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
