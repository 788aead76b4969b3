/* Generated from schemas/entities/group.json by `npm run gen`. Do not edit. */

export interface Group {
  /**
   * Name
   */
  name: string;
  /**
   * Description
   */
  description?: string;
  /**
   * Access
   *
   * @minItems 1
   * @maxItems 1000
   */
  access: [string, ...string[]];
  /**
   * Warehouses
   *
   * @maxItems 1000
   */
  warehouses?: (string | number | {})[];
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
