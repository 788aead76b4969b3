/* Generated from schemas/entities/bulk_fractionation.json by `npm run gen`. Do not edit. */

export interface BulkFractionation {
  /**
   * Fractionation date
   */
  fractionationDate: string;
  /**
   * Fractionation ID
   */
  fractionationId: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Bulk material
   */
  material: string | number | {};
  /**
   * Bulk batch
   */
  batchId: string;
  /**
   * Bulk quantity used
   */
  quantity: number;
  /**
   * Unit of measure
   */
  uom?: string | number | {};
  /**
   * IBC batches
   *
   * @minItems 1
   * @maxItems 1000
   */
  ibcBatches: [
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
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom?: string | number | {};
      /**
       * IBC
       */
      ibc?: string | number | {};
      /**
       * Elaboration date
       */
      elaborationDate?: string;
      /**
       * Expiration date
       */
      expirationDate?: string;
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
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom?: string | number | {};
      /**
       * IBC
       */
      ibc?: string | number | {};
      /**
       * Elaboration date
       */
      elaborationDate?: string;
      /**
       * Expiration date
       */
      expirationDate?: string;
    }[]
  ];
  /**
   * Status
   */
  status?: ('Draft' | 'Fractionated' | 'Cancelled') & string;
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
