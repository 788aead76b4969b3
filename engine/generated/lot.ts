/* Generated from schemas/entities/lot.json by `npm run gen`. Do not edit. */

export interface Lot {
  /**
   * Lot number
   */
  number: string;
  /**
   * Material
   */
  material?: string | number | {};
  /**
   * GS1 location of the lot.
   */
  sgln?: string;
  /**
   * GTIN
   */
  gtin?: string;
  /**
   * Quantity
   */
  quantity?: number;
  /**
   * Unit of measure
   */
  uom?: string | number | {};
  /**
   * Elaboration date
   */
  elaborationDate?: string;
  /**
   * Expiration date
   */
  expirationDate?: string;
  /**
   * ID
   */
  id?: string;
}
