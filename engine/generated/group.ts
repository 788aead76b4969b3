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
   */
  access: [string, ...string[]];
  /**
   * Warehouses
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
