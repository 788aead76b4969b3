/* Generated from schemas/entities/supply.json by `npm run gen`. Do not edit. */

export interface Supply {
  /**
   * Seller
   */
  source: string | number | {};
  /**
   * Purchaser
   */
  target: string | number | {};
  /**
   * Material
   */
  material: string | number | {};
  /**
   * Supplier SKU
   */
  supplier_sku: string;
  /**
   * GTIN
   */
  gtin?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Extensions
   */
  extensions?: {
    /**
     * Contract
     */
    contract?: {
      /**
       * Contract reference
       */
      contract_ref: string;
      /**
       * Expiration date
       */
      expiration?: string;
    };
    /**
     * Supplier parameters
     */
    supplierParameters?: {
      /**
       * Non-returnable
       */
      non_returnable?: boolean;
      /**
       * Non-cancellable
       */
      non_cancellable?: boolean;
      /**
       * Lead time
       */
      lead_time?: number;
      /**
       * Safety lead time
       */
      safety_lead_time?: number;
      /**
       * Units that can be transported per day.
       */
      transport_capacity?: number;
      /**
       * Transport cost
       */
      transport_cost?: number;
      /**
       * Purchase price
       */
      purchase_price?: number;
      /**
       * Order volume above which a warning is given.
       */
      volume_pricing?: number;
      /**
       * Quantities in which the item is packed; enter one or more.
       *
       * @maxItems 1000
       */
      bulk_item?: number[];
      /**
       * Minimum order quantity
       */
      min_order_qty?: number;
    };
  };
  /**
   * ID
   */
  id?: string;
}
