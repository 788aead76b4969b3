/* Generated from schemas/entities/delivery.json by `npm run gen`. Do not edit. */

export interface Delivery {
  /**
   * Send date
   */
  sendDate: string;
  /**
   * Remito no.
   */
  shipmentID: string;
  /**
   * Operation ID
   */
  operationId?: string;
  /**
   * Sales order no.
   */
  salesOrderNo?: string;
  /**
   * SAP record ID
   */
  sapRecordId?: string;
  /**
   * Sender deposit
   */
  deposit: string | number | {};
  /**
   * Receiver deposit
   */
  receiverDeposit: string | number | {};
  /**
   * Receiver company type
   */
  receiverCompanyType: ('internal' | 'distributor' | 'customer' | 'carrier') & string;
  /**
   * Shipment type
   */
  shipmentType?: ('internal' | 'external') & string;
  /**
   * Truck mapping
   */
  truckMapping?: {
    /**
     * Truck no.
     */
    truckNo?: string;
    /**
     * ISO tank licence
     */
    isoTankLicense?: string;
  };
  /**
   * Products
   *
   * @minItems 1
   * @maxItems 1000
   */
  productData: [
    {
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Batch
       */
      batchId: string;
      /**
       * Amount
       */
      amount: number;
      /**
       * Unit of measure
       */
      uom?: string | number | {};
      /**
       * Rejected
       */
      rejected?: number;
      /**
       * Accepted
       */
      accepted?: number;
    },
    ...{
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Batch
       */
      batchId: string;
      /**
       * Amount
       */
      amount: number;
      /**
       * Unit of measure
       */
      uom?: string | number | {};
      /**
       * Rejected
       */
      rejected?: number;
      /**
       * Accepted
       */
      accepted?: number;
    }[]
  ];
  /**
   * Number of items
   */
  noOfItems?: number;
  /**
   * Total quantity
   */
  totalQuantity?: number;
  /**
   * Delivery status
   */
  deliveryStatus?: (
    'Draft' | 'In-Progress' | 'Accepted' | 'Partial Reject' | 'Total Reject' | 'Rejection Accepted' | 'Cancelled'
  ) &
    string;
  /**
   * Delivered on
   */
  deliveredOn?: string;
  /**
   * Received on
   */
  receivedDate?: string;
  /**
   * Comments
   */
  comments?: string;
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
