/* Generated from schemas/entities/company_division.json by `npm run gen`. Do not edit. */

export interface CompanyDivision {
  /**
   * Division name
   */
  division_name: string;
  /**
   * Division type
   */
  division_type: ('plant' | 'deposit') & string;
  /**
   * SENASA ID type
   */
  senasa_id_type: ('plantID' | 'depositID') & string;
  /**
   * ERP ID
   */
  erp_id: string;
  /**
   * Company
   */
  company_id: string | number | {};
  /**
   * Country
   */
  country: string | number | {};
  /**
   * SENASA division name
   */
  senasa_division_name?: string;
  /**
   * SENASA division ID
   */
  senasa_division_id?: string;
  /**
   * The plant division this deposit belongs to.
   */
  deposit_plant_id?: string | number | {};
  /**
   * Deposit class
   */
  deposit_class?: ('internal' | '3pl') & string;
  /**
   * GS1 Global Location Number.
   */
  gln?: string;
  /**
   * Serial
   */
  serial?: string;
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Plant type
   */
  plant_type?: ('National' | 'Alien') & string;
  /**
   * Draft deposit
   */
  draft_deposit?: boolean;
  /**
   * Address
   */
  address?: {
    /**
     * Province
     */
    province?: string;
    /**
     * District (partido)
     */
    party?: string;
    /**
     * Locality
     */
    locality?: string;
    /**
     * Street
     */
    street?: string;
    /**
     * Number
     */
    number?: string;
    /**
     * Altitude
     */
    altitude?: string;
    /**
     * Post code
     */
    post_code?: string;
  };
  /**
   * ID
   */
  id?: string;
}
