/**
 * What the fake authority refuses, as a real one would: a transaction it could not record or
 * trace. Formats only for GTIN and GLN (the demo data's codes carry no GS1 check digit); the
 * CUIT's modulo-11 check digit is checked, as AFIP's registry would.
 */
import type { AuthorityLine, AuthorityTransaction } from './types';

export interface Refusal {
  status: number;
  code: string;
  reason: string;
}

const refuse = (code: string, reason: string, status = 422): Refusal => ({ status, code, reason });

/** An event may be stamped a little ahead of the authority's clock, not more. */
const CLOCK_SKEW_MS = 10 * 60_000;
const MAX_KEY_LENGTH = 200;
const MAX_LINES = 1000;

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const optionalText = (v: unknown) => v === undefined || typeof v === 'string';

/** A CUIT: 11 digits, the last a modulo-11 check digit over the first ten. */
export function validCuit(value: string): boolean {
  const digits = value.replace(/-/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(digits[10]);
}

function validDate(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

function checkLine(line: unknown, n: number): Refusal | undefined {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return refuse('bad_line', `line ${n} is not an object`, 400);
  const l = line as AuthorityLine;
  if (typeof l.quantity !== 'number' || !Number.isFinite(l.quantity) || l.quantity <= 0) {
    return refuse('bad_quantity', `line ${n}: the quantity must be a number greater than 0, got ${JSON.stringify(l.quantity ?? null)}`);
  }
  for (const f of ['gtin', 'lot', 'serial', 'authorityCode', 'productionDate', 'expiryDate'] as const) {
    if (!optionalText(l[f])) return refuse('bad_line', `line ${n}: ${f} must be text`, 400);
  }
  if (!isText(l.gtin) && !isText(l.authorityCode)) return refuse('no_product', `line ${n} names no product (a GTIN or the authority's product code)`);
  if (l.gtin !== undefined && !/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(l.gtin)) return refuse('bad_gtin', `line ${n}: "${l.gtin}" is not a GTIN (8, 12, 13 or 14 digits)`);
  if (!isText(l.lot) && !isText(l.serial)) return refuse('no_lot_or_serial', `line ${n} names neither a lot nor a serial number, so it cannot be traced`);
  for (const f of ['productionDate', 'expiryDate'] as const) {
    if (l[f] !== undefined && !validDate(l[f])) return refuse('bad_date', `line ${n}: ${f} "${l[f]}" is not an ISO date`);
  }
  if (l.productionDate && l.expiryDate && Date.parse(l.expiryDate) < Date.parse(l.productionDate)) {
    return refuse('bad_dates', `line ${n}: expires (${l.expiryDate}) before it was produced (${l.productionDate})`);
  }
  return undefined;
}

/** The idempotency key a call was sent under: the header, which must match the body's key when both are given. */
export function checkKey(header: string | undefined, body: { key?: unknown }): Refusal | string {
  const key = header?.trim();
  if (!key) return refuse('missing_idempotency_key', 'the Idempotency-Key header is required', 400);
  if (key.length > MAX_KEY_LENGTH) return refuse('bad_idempotency_key', `the Idempotency-Key is longer than ${MAX_KEY_LENGTH} characters`, 400);
  if (body.key !== undefined && body.key !== key) return refuse('idempotency_key_mismatch', 'the Idempotency-Key header and the body\'s key differ', 400);
  return key;
}

/** A declaration (saveTransacciones): whom, what, when and how much. */
export function checkDeclaration(tx: Partial<AuthorityTransaction>, now: number): Refusal | undefined {
  for (const f of ['operation', 'recordId', 'eventDate'] as const) {
    if (!isText(tx[f])) return refuse('missing_field', `${f} is required`, 400);
  }
  for (const f of ['cuit', 'originGln', 'destinationGln', 'remito'] as const) {
    if (!optionalText(tx[f])) return refuse('missing_field', `${f} must be text`, 400);
  }
  if (!validDate(tx.eventDate)) return refuse('bad_date', `eventDate "${tx.eventDate}" is not an ISO date-time`);
  if (Date.parse(tx.eventDate) > now + CLOCK_SKEW_MS) return refuse('event_in_future', `eventDate ${tx.eventDate} is in the future`);
  if (tx.cuit !== undefined && !validCuit(tx.cuit)) return refuse('bad_cuit', `"${tx.cuit}" is not a valid CUIT (11 digits with its check digit)`);
  for (const f of ['originGln', 'destinationGln'] as const) {
    const gln = tx[f];
    if (gln !== undefined && !/^\d{13}$/.test(gln)) return refuse('bad_gln', `${f} "${gln}" is not a GLN (13 digits)`);
  }
  if (tx.originGln && tx.originGln === tx.destinationGln) return refuse('same_origin_and_destination', 'the origin and the destination are the same location');
  if (!Array.isArray(tx.lines) || tx.lines.length === 0) return refuse('no_lines', 'a transaction needs at least one line');
  if (tx.lines.length > MAX_LINES) return refuse('too_many_lines', `a transaction has at most ${MAX_LINES} lines`);
  for (let i = 0; i < tx.lines.length; i++) {
    const refusal = checkLine(tx.lines[i], i + 1);
    if (refusal) return refusal;
  }
  return undefined;
}

/** A receiver's answer to a move (sendConfirmaTransacc, sendAlertaTransacc): lines are optional, a rejection says why. */
export function checkSettlement(kind: 'confirm' | 'reject', tx: Partial<AuthorityTransaction>, now: number): Refusal | undefined {
  if (!isText(tx.recordId)) return refuse('missing_field', 'recordId is required', 400);
  if (tx.eventDate !== undefined) {
    if (!validDate(tx.eventDate)) return refuse('bad_date', `eventDate "${tx.eventDate}" is not an ISO date-time`);
    if (Date.parse(tx.eventDate) > now + CLOCK_SKEW_MS) return refuse('event_in_future', `eventDate ${tx.eventDate} is in the future`);
  }
  if (kind === 'reject' && !isText(tx.reason)) return refuse('reason_required', 'a rejection must say why (reason)');
  if (tx.partial !== undefined && typeof tx.partial !== 'boolean') return refuse('bad_partial', 'partial must be true or false', 400);
  if (kind === 'reject' && tx.partial && (!Array.isArray(tx.lines) || tx.lines.length === 0)) {
    return refuse('no_lines', 'a partial rejection names the lines (and quantities) it rejects');
  }
  if (tx.lines !== undefined) {
    if (!Array.isArray(tx.lines)) return refuse('bad_line', 'lines must be a list', 400);
    for (let i = 0; i < tx.lines.length; i++) {
      const refusal = checkLine(tx.lines[i], i + 1);
      if (refusal) return refusal;
    }
  }
  return undefined;
}
