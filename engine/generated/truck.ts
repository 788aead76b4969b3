/* Generated from schemas/entities/truck.json by `npm run gen`. Do not edit. */

export interface Truck {
  /**
   * Truck no.
   */
  truckNo: string;
  /**
   * Licence plate
   */
  plate?: string;
  /**
   * Carrier
   */
  carrier?: string | number | {};
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
