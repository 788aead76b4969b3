/* Generated from schemas/entities/country.json by `npm run gen`. Do not edit. */

export interface Country {
  /**
   * Country name
   */
  country_name?: string;
  /**
   * SENASA country ID
   */
  senasa_country_id?: string;
  /**
   * SAP country ID
   */
  sap_country_id?: string;
  /**
   * SAP country description
   */
  sap_country_description?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
