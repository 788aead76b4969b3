/* Generated from schemas/entities/material.json by `npm run gen`. Do not edit. */

export interface Material {
  /**
   * Name
   */
  name: string;
  /**
   * Unit of measure
   */
  uom?: string | number | {};
  /**
   * Traceable
   */
  is_traceable?: boolean;
  /**
   * Raw material
   */
  raw?: boolean;
  /**
   * Recycled
   */
  recycled?: boolean;
  /**
   * Serialized
   */
  serialized?: boolean;
  /**
   * Critical
   */
  critical?: boolean;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Extensions
   */
  extensions?: {
    /**
     * Agrochemical product
     */
    agrochemicalMaterial?: {
      /**
       * Product ID
       */
      product_id: string;
      /**
       * Product code
       */
      product_code_id?: string;
      /**
       * SENASA name
       */
      senasa_name?: string;
      /**
       * Registration number
       */
      reg_num: string;
      /**
       * ERP ID
       */
      erp_id: string;
      /**
       * Company
       */
      company_id: string | number | {};
      /**
       * Material type
       */
      material_type: ('active_ingredient' | 'formulated_product') & string;
      /**
       * GTIN
       */
      gtin?: string;
      /**
       * Country of origin
       */
      country_origin?: string | number | {};
      /**
       * Plant of origin
       *
       * @minItems 1
       * @maxItems 1000
       */
      plant_origin: [string | number | {}, ...(string | number | {})[]];
      /**
       * Active ingredients
       *
       * @minItems 1
       * @maxItems 1000
       */
      active_ingredients: [
        {
          /**
           * Active ingredient
           */
          ai_product_id: string | number | {};
          /**
           * Percentage, as text (for example 48%).
           */
          concentration: string;
        },
        ...{
          /**
           * Active ingredient
           */
          ai_product_id: string | number | {};
          /**
           * Percentage, as text (for example 48%).
           */
          concentration: string;
        }[]
      ];
    };
    /**
     * Container information
     */
    containerInfo?: {
      /**
       * Container type
       */
      container_type_id?: string | number | {};
      /**
       * Container category
       */
      container_category?: string;
      /**
       * Container material ID
       */
      container_material_id?: string;
      /**
       * Container material
       */
      container_material?: string;
      /**
       * Capacity
       */
      capacity?: number;
    };
    /**
     * Material categorization
     */
    materialCategorization?: {
      /**
       * Category
       */
      category_id?: string | number | {};
    };
    /**
     * GS1 identification
     */
    materialGs1?: {
      /**
       * Global Trade Item Number: 8, 12, 13 or 14 digits.
       */
      gtin?: string;
    };
    /**
     * Internal information
     */
    materialInternalInfo?: {
      /**
       * Internal SKU
       */
      internal_sku: string;
      /**
       * Inventory
       */
      inventory?: number;
      /**
       * Safety stock
       */
      safety_stock?: number;
      /**
       * Cost to hold one unit in inventory for one day.
       */
      cost_inventory?: number;
      /**
       * Cost of goods in inventory
       */
      cost_of_goods_inventory?: number;
      /**
       * Baseline purchase price
       */
      purchase_price_baseline?: number;
      /**
       * Selling price
       */
      selling_price?: number;
      /**
       * Reusable
       */
      is_reusable?: boolean;
      /**
       * Reorder logic
       */
      reorder_logic_type?: ('fixedQty' | 'none') & string;
      /**
       * Applies if the reorder logic is Fixed Qty.
       */
      reorder_point?: number;
      /**
       * Applies if the reorder logic is Fixed Qty.
       */
      reorder_quantity?: number;
      /**
       * Alternate materials
       *
       * @maxItems 1000
       */
      alternate_materials?: {
        /**
         * Material
         */
        material: string | number | {};
        /**
         * Quantity
         */
        quantity?: number;
        /**
         * Unit of measure
         */
        uom?: string | number | {};
      }[];
      /**
       * Fit-form-function (FFF) materials: materials that can be used instead of this one without changing the bill of materials or the process.
       *
       * @maxItems 1000
       */
      fff_materials?: {
        /**
         * Material
         */
        material: string | number | {};
        /**
         * Quantity
         */
        quantity?: number;
        /**
         * Unit of measure
         */
        uom?: string | number | {};
      }[];
    };
    /**
     * Product image
     */
    productImage?: {
      /**
       * Image
       */
      image?: {
        id?: string;
        name?: string;
        size?: number;
        contentType?: string;
      };
    };
  };
  /**
   * ID
   */
  id?: string;
}
