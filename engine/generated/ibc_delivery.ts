/* Generated from schemas/entities/ibc_delivery.json by `npm run gen`. Do not edit. */

export interface IbcDelivery {
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
  receiver: string | number | {};
  /**
   * Receiver company type
   */
  receiverCompanyType?: ('internal' | 'distributor' | 'customer' | 'carrier') & string;
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
   * IBCs
   *
   * @minItems 1
   * @maxItems 1000
   */
  containers: [
    {
      /**
       * IBC
       */
      ibc?: string | number | {};
      /**
       * The serial number (or scan the NFC tag): the IBC is found from it.
       */
      ibcNumber?: string;
    },
    ...{
      /**
       * IBC
       */
      ibc?: string | number | {};
      /**
       * The serial number (or scan the NFC tag): the IBC is found from it.
       */
      ibcNumber?: string;
    }[]
  ];
  /**
   * Number of IBCs
   */
  noOfItems?: number;
  /**
   * Delivery status
   */
  deliveryStatus?: ('Draft' | 'In-Progress' | 'Received' | 'Cancelled') & string;
  /**
   * Received on
   */
  receivedDate?: string;
  /**
   * Set by the mobile app when the operation was captured without a connection and sent later.
   */
  offline?: boolean;
  /**
   * Comments
   */
  comments?: string;
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
