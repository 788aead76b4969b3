/* Generated from schemas/entities/inbound_message.json by `npm run gen`. Do not edit. */

export interface InboundMessage {
  /**
   * Received at
   */
  at: string;
  /**
   * Source
   */
  source: string;
  /**
   * Kind
   */
  kind: string;
  /**
   * Reference
   */
  reference?: string;
  /**
   * Summary
   */
  summary?: string;
  /**
   * Status
   */
  status: ('received' | 'processed' | 'failed') & string;
  /**
   * Error
   */
  error?: string;
  /**
   * ID
   */
  id?: string;
}
