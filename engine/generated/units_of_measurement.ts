/* Generated from schemas/entities/units_of_measurement.json by `npm run gen`. Do not edit. */

export interface UnitsOfMeasurement {
  /**
   * Unit name
   */
  unit_name?: string;
  /**
   * SENASA unit ID
   */
  senasa_unit_id?: string;
  /**
   * SAP unit ID
   */
  sap_unit_id?: string;
  /**
   * SAP unit name
   */
  sap_unit_name?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
