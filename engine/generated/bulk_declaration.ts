/* Generated from schemas/entities/bulk_declaration.json by `npm run gen`. Do not edit. */

export interface BulkDeclaration {
  /**
   * Declaration date
   */
  declarationDate: string;
  /**
   * Bulk declaration ID
   */
  bulkDeclarationId: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Recipe
   */
  recipe?: string | number | {};
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
  /**
   * Active ingredients consumed
   *
   * @maxItems 1000
   */
  consumption?: {
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
     * Consumption status
     */
    consumptionStatus?: ('Draft' | 'Failed' | 'Consumed') & string;
  }[];
  /**
   * Status
   */
  status?: ('Draft' | 'Declared' | 'Cancelled') & string;
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
