/* Generated from schemas/entities/ibc_container.json by `npm run gen`. Do not edit. */

export interface IbcContainer {
  /**
   * Serial number
   */
  serial_number?: string;
  /**
   * Company
   */
  company_id?: string | number | {};
  /**
   * Manufacture date
   */
  manufactured_date?: string;
  /**
   * Deposit
   */
  deposit_id: string | number | {};
  /**
   * Purchase order number
   */
  po_number?: string;
  /**
   * Product
   */
  product_code_id?: string | number | {};
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}
