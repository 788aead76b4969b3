/* Generated from schemas/entities/chain_anchor.json by `npm run gen`. Do not edit. */

export interface ChainAnchor {
  /**
   * Time
   */
  at: string;
  /**
   * Account
   */
  account: string;
  /**
   * Events
   */
  kind: ('ibc' | 'trueBulk') & string;
  /**
   * Environment
   */
  environment: ('production' | 'test') & string;
  /**
   * Network
   */
  network: string;
  /**
   * From entry
   */
  fromSeq: number;
  /**
   * To entry
   */
  toSeq: number;
  /**
   * Entries
   */
  entries: number;
  /**
   * Merkle root
   */
  root: string;
  /**
   * Status
   */
  status: ('anchored' | 'failed') & string;
  /**
   * Trigger
   */
  trigger?: ('schedule' | 'demand') & string;
  /**
   * Transaction
   */
  txHash?: string;
  /**
   * Block
   */
  blockNumber?: number;
  /**
   * Error
   */
  error?: string;
  /**
   * Duration (ms)
   */
  durationMs?: number;
  /**
   * ID
   */
  id?: string;
}
