/**
 * The agricultural authority, as the sync worker sees it. Modelled on SENASA's public 2013
 * service (saveTransacciones, sendConfirmaTransacc, sendAlertaTransacc, getTransacciones): no
 * field-level description of the current one is public, so the real API plugs in behind this
 * interface (DOMAIN.md, "The authority").
 */

/** One line of a transaction: a product (GTIN, the authority's code) by lot or serial. */
export interface AuthorityLine {
  gtin?: string;
  lot?: string;
  serial?: string;
  quantity: number;
  productionDate?: string;
  expiryDate?: string;
  authorityCode?: string;
}

export interface AuthorityTransaction {
  /**
   * Idempotency key, one per record and kind (`${workflow}:${recordId}:declare`): the authority
   * keeps the first commit under a key and answers a resend with the same transaction id.
   */
  key: string;
  kind: 'declare' | 'confirm' | 'reject';
  /** The operation type: import, export, synthesis, fractionation, delivery, reception, scrapping… */
  operation: string;
  recordId: string;
  cuit?: string;
  originGln?: string;
  destinationGln?: string;
  /** The delivery note (remito) number. */
  remito?: string;
  /** ISO date-time of the operation. */
  eventDate: string;
  lines: AuthorityLine[];
  /** Confirm and reject: the authority's transaction id of the sender's declaration. */
  transactionId?: string;
  /** Reject: why. */
  reason?: string;
  /** Reject in part (some lines or quantities) rather than in full. */
  partial?: boolean;
}

/** What the authority answered to one call that reached it. */
export type AuthorityAnswer =
  /** Committed; `duplicate` when the key had been committed before (the same id comes back). */
  | { ok: true; transactionId: string; duplicate: boolean }
  /** Refused for good (the authority's validation): sending it again would not help. */
  | { ok: false; reason: string; code: string };

/** Anything worth retrying: no connection, a timeout, a 5xx, a 429 (with its wait when told). */
export class AuthorityUnavailable extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
    this.name = 'AuthorityUnavailable';
  }
}

export interface AuthorityQuery {
  /** The delivery note (remito) number: a move's declaration, to confirm or reject it. */
  remito?: string;
  gtin?: string;
  lot?: string;
  serial?: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

/** How the receiver answered a declaration (its confirm or reject, committed under its own id). */
export interface AuthoritySettlement {
  kind: 'confirm' | 'reject';
  transactionId: string;
  committedAt: string;
  reason?: string;
  partial?: boolean;
}

/** A declaration as the authority holds it; `settlement` once the receiver confirmed or rejected it. */
export type CommittedTransaction = AuthorityTransaction & { transactionId: string; committedAt: string; settlement?: AuthoritySettlement };

export interface AuthorityAdapter {
  declare(tx: AuthorityTransaction): Promise<AuthorityAnswer>;
  confirm(tx: AuthorityTransaction): Promise<AuthorityAnswer>;
  reject(tx: AuthorityTransaction): Promise<AuthorityAnswer>;
  query(q: AuthorityQuery): Promise<{ transactions: CommittedTransaction[]; total: number }>;
}
