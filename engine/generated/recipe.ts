/* Generated from schemas/entities/recipe.json by `npm run gen`. Do not edit. */

export interface Recipe {
  /**
   * Name
   */
  name: string;
  /**
   * Company
   */
  company: string | number | {};
  /**
   * Input materials
   *
   * @minItems 1
   * @maxItems 1000
   */
  input_materials: [
    {
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom: string | number | {};
    },
    ...{
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom: string | number | {};
    }[]
  ];
  /**
   * Output materials
   *
   * @minItems 1
   * @maxItems 1000
   */
  output_materials: [
    {
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom: string | number | {};
    },
    ...{
      /**
       * Material
       */
      material: string | number | {};
      /**
       * Quantity
       */
      quantity: number;
      /**
       * Unit of measure
       */
      uom: string | number | {};
    }[]
  ];
  /**
   * Description
   */
  description?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Extensions
   */
  extensions?: {
    /**
     * By-products
     */
    recipeByProduct?: {
      /**
       * By-product materials
       *
       * @maxItems 1000
       */
      by_product_materials?: {
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
     * Process parameters
     */
    recipeProcessParameters?: {
      /**
       * Maximum units produced per day; must exceed the units of one bill of materials.
       */
      daily_production?: number;
      /**
       * Production cost
       */
      production_cost?: number;
      /**
       * Lead time
       */
      lead_time?: number;
      /**
       * Starting inventory
       */
      starting_inventory?: number;
    };
  };
  /**
   * ID
   */
  id?: string;
}
