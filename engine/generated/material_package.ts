/* Generated from schemas/entities/material_package.json by `npm run gen`. Do not edit. */

export interface MaterialPackage {
  /**
   * Package name
   */
  package_name?: string;
  /**
   * SENASA package ID
   */
  senasa_package_id?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
