/* Generated from schemas/entities/iso_tank.json by `npm run gen`. Do not edit. */

export interface IsoTank {
  /**
   * ISO tank licence
   */
  isoTankLicense: string;
  /**
   * Capacity
   */
  capacity?: number;
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
