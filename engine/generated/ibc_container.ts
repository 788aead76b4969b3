/* Generated from schemas/entities/ibc_container.json by `npm run gen`. Do not edit. */

export interface IbcContainer {
  /**
   * Serial number
   */
  serial_number?: string;
  /**
   * Company
   */
  company_id?: string | number | {};
  /**
   * Manufacture date
   */
  manufactured_date?: string;
  /**
   * Rigid plastic and composite IBCs may be used for 5 years from manufacture (ADR 4.1.1.15).
   */
  material_type: ('rigid_plastic' | 'composite' | 'metal' | 'flexible') & string;
  /**
   * Capacity
   */
  capacity?: number;
  /**
   * The last periodic inspection (every 2.5 years, ADR 6.5.4.4); a QC that records an inspection updates it.
   */
  lastInspectionDate?: string;
  /**
   * Deposit
   */
  deposit_id: string | number | {};
  /**
   * Purchase order number
   */
  po_number?: string;
  /**
   * Product
   */
  product_code_id?: string | number | {};
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Status
   */
  status?: (
    | 'in_stock_empty'
    | 'prepared'
    | 'in_transit'
    | 'at_customer'
    | 'return_requested'
    | 'returned'
    | 'in_qc'
    | 'quarantine'
    | 'blocked'
    | 'disposed'
  ) &
    string;
  /**
   * Fill count
   */
  numberOfUses?: number;
  /**
   * NFC tag
   */
  nfcTagNumber?: string;
  /**
   * Top seal
   */
  topSeal?: string;
  /**
   * Bottom seal
   */
  bottomSeal?: string;
  /**
   * Prepared date
   */
  preparedDate?: string;
  /**
   * Production plant
   */
  productionPlant?: string | number | {};
  /**
   * Content
   */
  content?: {
    /**
     * Material
     */
    material?: string | number | {};
    /**
     * Batch
     */
    batch?: string;
    /**
     * Quantity
     */
    quantity?: number;
    /**
     * Unit of measure
     */
    uom?: string | number | {};
  };
  /**
   * Who holds the IBC while it is at a customer.
   */
  customer?: string | number | {};
  /**
   * At the customer since
   */
  customerSince?: string;
  /**
   * Last customer
   */
  lastCustomer?: string | number | {};
  /**
   * In transit to
   */
  inTransitTo?: string | number | {};
  /**
   * Delivery
   */
  deliveryId?: string;
  /**
   * Return request
   */
  returnRequestId?: string;
  /**
   * Returned
   */
  returnState?: ('empty' | 'full') & string;
  /**
   * Returned on
   */
  returnedAt?: string;
  /**
   * QC date
   */
  qcDate?: string;
  /**
   * QC status
   */
  qcStatus?: ('passed' | 'quarantine' | 'blocked') & string;
  /**
   * QC result
   */
  qcResult?: string;
  /**
   * Performed by
   */
  performedBy?: string;
  /**
   * The QC included the periodic inspection: its date becomes the last inspection date.
   */
  inspection?: boolean;
  /**
   * QC lead time
   */
  qcLeadTime?: number;
  /**
   * Next inspection date
   */
  nextInspectionDate?: string;
  /**
   * End of life
   */
  endOfLife?: string;
  /**
   * Map marker of the place.
   */
  location?: {
    /**
     * Latitude
     */
    lat?: number;
    /**
     * Longitude
     */
    lng?: number;
  };
  /**
   * Set by the mobile app when the operation was captured without a connection and sent later.
   */
  offline?: boolean;
  /**
   * When the last action captured offline was done on the device.
   */
  offlineAt?: string;
  /**
   * The device that captured the last action offline.
   */
  offlineDevice?: string;
  /**
   * History
   *
   * @maxItems 1000
   */
  history?: {
    /**
     * Transition
     */
    transition?: string;
    /**
     * From
     */
    from?: string;
    /**
     * To
     */
    to?: string;
    /**
     * By
     */
    by?: string | number | {};
    /**
     * By (name)
     */
    byName?: string;
    /**
     * When
     */
    at?: string;
    /**
     * Comment
     */
    comment?: string;
  }[];
  /**
   * ID
   */
  id?: string;
}
