/* Generated from schemas/entities/return_request.json by `npm run gen`. Do not edit. */

export interface ReturnRequest {
  /**
   * Request no.
   */
  requestNumber: string;
  /**
   * Request date
   */
  requestDate: string;
  /**
   * Customer
   */
  customer: string | number | {};
  /**
   * Where the IBCs are now.
   */
  deposit: string | number | {};
  /**
   * Our deposit the IBCs come back to.
   */
  returnTo: string | number | {};
  /**
   * Returned
   */
  returnState: ('empty' | 'full') & string;
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
   * Status
   */
  status?: ('Draft' | 'Requested' | 'Returned' | 'Cancelled') & string;
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
