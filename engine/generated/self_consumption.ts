/* Generated from schemas/entities/self_consumption.json by `npm run gen`. Do not edit. */

export interface SelfConsumption {
  /**
   * Consumption date
   */
  consumptionDate: string;
  /**
   * Consumption ID
   */
  consumptionID: string;
  /**
   * Deposit
   */
  deposit: string | number | {};
  /**
   * Purpose
   */
  purpose?: string;
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
  status?: ('Draft' | 'Consumed' | 'Cancelled') & string;
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
