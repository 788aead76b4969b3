/* Generated from schemas/entities/scrapping.json by `npm run gen`. Do not edit. */

export interface Scrapping {
  /**
   * Scrap date
   */
  scrapDate: string;
  /**
   * Scrap ID
   */
  scrapID: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Reason
   */
  reason: ('expired' | 'damaged' | 'quality' | 'theft' | 'shrinkage' | 'other') & string;
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
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom?: string | number | {};
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
    }[]
  ];
  /**
   * Total quantity
   */
  totalQuantity?: number;
  /**
   * Status
   */
  status?: ('Draft' | 'Scrapped' | 'Cancelled') & string;
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
