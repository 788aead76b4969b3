/* Generated from schemas/entities/product_import.json by `npm run gen`. Do not edit. */

export interface ProductImport {
  /**
   * Import date
   */
  importDate: string;
  /**
   * Import ID
   */
  importID: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Country of origin
   */
  originCountry?: string | number | {};
  /**
   * Supplier
   */
  supplier?: string | number | {};
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
   * Total quantity
   */
  totalQuantity?: number;
  /**
   * Status
   */
  status?: ('Draft' | 'Imported' | 'Cancelled') & string;
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
