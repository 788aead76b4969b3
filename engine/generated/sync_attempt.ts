/* Generated from schemas/entities/sync_attempt.json by `npm run gen`. Do not edit. */

export interface SyncAttempt {
  /**
   * Time
   */
  at: string;
  /**
   * Operation
   */
  workflow: string;
  /**
   * Record
   */
  recordId: string;
  /**
   * Idempotency key
   */
  key: string;
  /**
   * Kind
   */
  kind: ('declare' | 'confirm' | 'reject') & string;
  /**
   * Attempt
   */
  attempt: number;
  /**
   * Outcome
   */
  outcome: ('ok' | 'retry' | 'refused' | 'sending') & string;
  /**
   * Sent
   */
  request?: {
    /**
     * Operation
     */
    operation?: string;
    /**
     * Remito no.
     */
    remito?: string;
    /**
     * Operation date
     */
    eventDate?: string;
    /**
     * Sender's transaction
     */
    transactionId?: string;
    /**
     * Reason
     */
    reason?: string;
  };
  /**
   * Answer
   */
  answer?: {
    /**
     * Authority transaction
     */
    transactionId?: string;
    /**
     * Sent before
     */
    duplicate?: boolean;
    /**
     * Code
     */
    code?: string;
    /**
     * Reason
     */
    reason?: string;
    /**
     * Error
     */
    error?: string;
  };
  /**
   * Duration (ms)
   */
  durationMs?: number;
  /**
   * Server instance
   */
  instance?: string;
  /**
   * ID
   */
  id?: string;
}
