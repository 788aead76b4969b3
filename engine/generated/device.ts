/* Generated from schemas/entities/device.json by `npm run gen`. Do not edit. */

export interface Device {
  /**
   * Plant
   */
  plant: string | number | {};
  /**
   * Name
   */
  name: string;
  /**
   * GS1 location identifier used as EPCIS read point.
   */
  read_point_id?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
