/* Generated from schemas/entities/plant.json by `npm run gen`. Do not edit. */

export interface Plant {
  /**
   * Name
   */
  name: string;
  /**
   * Company
   */
  company: string | number | {};
  /**
   * GS1 location identifier (SGLN) used as EPCIS business location.
   */
  biz_location_id?: string;
  /**
   * Address
   */
  address?: {
    /**
     * Display name
     */
    display_name?: string;
    /**
     * Street address
     */
    address?: string;
    /**
     * Map marker of the place.
     */
    location?: {
      /**
       * Latitude
       */
      lat?: number;
      /**
       * Longitude
       */
      lng?: number;
    };
    /**
     * City
     */
    city?: string;
    /**
     * Post code
     */
    post_code?: string;
    /**
     * State or province
     */
    state_province?: string;
    /**
     * Country
     */
    country?: string;
    /**
     * ISO 3166-1 alpha-2 code, e.g. AR.
     */
    country_code?: string;
  };
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
