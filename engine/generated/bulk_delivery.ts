/* Generated from schemas/entities/bulk_delivery.json by `npm run gen`. Do not edit. */

export interface BulkDelivery {
  /**
   * Send date
   */
  sendDate: string;
  /**
   * Remito no.
   */
  shipmentID: string;
  /**
   * Sales order no.
   */
  salesOrderNo?: string;
  /**
   * Sender deposit
   */
  deposit: string | number | {};
  /**
   * Receiver deposit
   */
  receiverDeposit: string | number | {};
  /**
   * Receiver
   */
  receiver?: string | number | {};
  /**
   * Bulk material
   */
  material: string | number | {};
  /**
   * Batch
   */
  batchId: string;
  /**
   * Quantity
   */
  quantity: number;
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
  /**
   * Truck mapping
   */
  truckMapping: {
    /**
     * Truck no.
     */
    truckNo: string;
    /**
     * ISO tank licence
     */
    isoTankLicense: string;
  };
  /**
   * Delivery status
   */
  deliveryStatus?: ('Draft' | 'In-Progress' | 'Received' | 'Rejected' | 'Rejection Accepted' | 'Cancelled') & string;
  /**
   * Received on
   */
  receivedDate?: string;
  /**
   * Comments
   */
  comments?: string;
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
