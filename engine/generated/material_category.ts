/* Generated from schemas/entities/material_category.json by `npm run gen`. Do not edit. */

export interface MaterialCategory {
  /**
   * Category name
   */
  category_name: string;
  /**
   * Color
   */
  category_color?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
