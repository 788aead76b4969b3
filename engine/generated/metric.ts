/* Generated from schemas/entities/metric.json by `npm run gen`. Do not edit. */

export interface Metric {
  /**
   * Name
   */
  name: string;
  /**
   * Unit the metric is expressed in, e.g. %, kWh/kg.
   */
  uom?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
