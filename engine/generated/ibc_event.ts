/* Generated from schemas/entities/ibc_event.json by `npm run gen`. Do not edit. */

export interface IbcEvent {
  /**
   * IBC
   */
  record: string | number | {};
  /**
   * Serial number
   */
  serial?: string;
  /**
   * Transition
   */
  transition: string;
  /**
   * From
   */
  from?: string;
  /**
   * To
   */
  to?: string;
  /**
   * When
   */
  at: string;
  /**
   * In the previous state since
   */
  since?: string;
  /**
   * By
   */
  by?: string | number | {};
  /**
   * Deposit
   */
  deposit?: string | number | {};
  /**
   * Customer
   */
  customer?: string | number | {};
  /**
   * At the customer since
   */
  customerSince?: string;
  /**
   * Fill count
   */
  uses?: number;
  /**
   * Operation
   */
  operation?: {
    /**
     * Workflow
     */
    workflow?: string;
    /**
     * Record
     */
    id?: string;
    /**
     * Transition
     */
    transition?: string;
  };
  /**
   * ID
   */
  id?: string;
}
