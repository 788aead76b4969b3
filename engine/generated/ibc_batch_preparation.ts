/* Generated from schemas/entities/ibc_batch_preparation.json by `npm run gen`. Do not edit. */

export interface IbcBatchPreparation {
  /**
   * Batch preparation no.
   */
  batchNumber: string;
  /**
   * Prepared date
   */
  preparedDate: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Production plant
   */
  productionPlant?: string | number | {};
  /**
   * The product or bulk material the IBCs are filled from.
   */
  sourceMaterial: string | number | {};
  /**
   * Source batch
   */
  sourceBatch: string;
  /**
   * The same as the source for a plain fill.
   */
  material: string | number | {};
  /**
   * Batch in the IBCs
   */
  batchId: string;
  /**
   * The active-ingredient variant of the preparation, when there is one.
   */
  activeIngredient?: string;
  /**
   * Unit of measure
   */
  uom: string | number | {};
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
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Top seal
       */
      topSeal: string;
      /**
       * Bottom seal
       */
      bottomSeal: string;
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
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Top seal
       */
      topSeal: string;
      /**
       * Bottom seal
       */
      bottomSeal: string;
    }[]
  ];
  /**
   * Number of IBCs
   */
  noOfItems?: number;
  /**
   * Total quantity
   */
  totalQuantity?: number;
  /**
   * Status
   */
  ibcStatus?: ('Draft' | 'Prepared' | 'Cancelled') & string;
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
