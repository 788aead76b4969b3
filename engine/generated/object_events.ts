/* Generated from schemas/entities/object_events.json by `npm run gen`. Do not edit. */

export interface ObjectEvents {
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
   * EPCIS action of an object event.
   */
  action?: ('ADD' | 'OBSERVE' | 'DELETE') & string;
  /**
   * EPCs
   *
   * @maxItems 1000
   */
  epcList?: string[];
  /**
   * Quantities
   *
   * @maxItems 1000
   */
  quantityList?: {
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
