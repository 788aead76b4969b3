/**
 * The fake authority's book of transactions: the first commit under an idempotency key is
 * kept and a resend gets its id back; declarations are settled (confirmed or rejected) once.
 * In memory, optionally journaled to a JSON-lines file so a restarted fake remembers.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AuthorityLine, AuthorityQuery, AuthorityTransaction, CommittedTransaction } from './types';
import type { Refusal } from './fakeRules';

export type Kind = AuthorityTransaction['kind'];

/** One commit as the book keeps it: declarations carry their settlement once the receiver answered. */
export interface Entry extends CommittedTransaction {
  /** For confirm and reject: the declaration it settles (the body's transactionId is this entry's own id). */
  settles?: string;
}

export type CommitResult =
  | { ok: true; transactionId: string; duplicate: boolean; committedAt: string }
  | { ok: false; refusal: Refusal };

export const MAX_PAGE_SIZE = 500;

const FIELDS = ['operation', 'recordId', 'cuit', 'originGln', 'destinationGln', 'remito', 'eventDate', 'lines', 'reason', 'partial'] as const;
const LINE_FIELDS = ['gtin', 'lot', 'serial', 'quantity', 'productionDate', 'expiryDate', 'authorityCode'] as const;

/** What the authority records of a call: its known fields, nothing else the body carried. */
function pick(tx: Partial<AuthorityTransaction>): AuthorityTransaction {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) if (tx[f] !== undefined) out[f] = tx[f];
  out.lines = (tx.lines ?? []).map((l) => Object.fromEntries(LINE_FIELDS.filter((f) => l[f] !== undefined).map((f) => [f, l[f]])));
  return out as unknown as AuthorityTransaction;
}
export const DEFAULT_PAGE_SIZE = 50;

const lineKey = (l: Pick<AuthorityLine, 'gtin' | 'authorityCode' | 'lot' | 'serial'>) => `${l.gtin ?? l.authorityCode ?? ''}|${l.lot ?? ''}|${l.serial ?? ''}`;

export class FakeBook {
  private readonly entries: Entry[] = [];
  private readonly byKey = new Map<string, Entry>();
  private readonly byId = new Map<string, Entry>();
  /** Declaration id → the confirm or reject that settled it. */
  private readonly settlements = new Map<string, Entry>();
  readonly commitsPerKey: Record<string, number> = {};
  readonly commitsPerRecord: Record<string, number> = {};
  private seq = 0;

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) this.remember(JSON.parse(line) as Entry);
    }
  }

  get committed(): number {
    return this.entries.length;
  }

  /** The entry committed under a key, if any. */
  byIdempotencyKey(key: string): Entry | undefined {
    return this.byKey.get(key);
  }

  /**
   * Commits `tx` under `key` unless the key was committed before (same id back, duplicate).
   * Synchronous from look-up to write, so two resends racing each other cannot both commit.
   */
  commit(key: string, kind: Kind, tx: Partial<AuthorityTransaction>, settles?: string): CommitResult {
    const prior = this.byKey.get(key);
    if (prior) {
      if (prior.kind !== kind || prior.settles !== settles) {
        return { ok: false, refusal: { status: 409, code: 'idempotency_key_reused', reason: `the key "${key}" was used for another ${prior.kind} (${prior.transactionId})` } };
      }
      return { ok: true, transactionId: prior.transactionId, duplicate: true, committedAt: prior.committedAt };
    }
    if (settles !== undefined) {
      const refusal = this.checkSettles(kind, settles, tx);
      if (refusal) return { ok: false, refusal };
    }
    const entry: Entry = {
      ...pick(tx),
      key,
      kind,
      transactionId: `TX-${String(++this.seq).padStart(8, '0')}`,
      committedAt: new Date().toISOString(),
      ...(settles !== undefined ? { settles } : {}),
    };
    this.remember(entry);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
    return { ok: true, transactionId: entry.transactionId, duplicate: false, committedAt: entry.committedAt };
  }

  private checkSettles(kind: Kind, id: string, tx: Partial<AuthorityTransaction>): Refusal | undefined {
    const declaration = this.byId.get(id);
    if (!declaration || declaration.kind !== 'declare') return { status: 422, code: 'unknown_transaction', reason: `no declaration ${id}` };
    const earlier = this.settlements.get(id);
    if (earlier) return { status: 409, code: 'already_settled', reason: `${id} was already ${earlier.kind === 'confirm' ? 'confirmed' : 'rejected'} (${earlier.transactionId})` };
    if (kind === 'reject' && tx.partial) {
      const declared = new Map(declaration.lines.map((l) => [lineKey(l), l.quantity]));
      for (const [i, line] of (tx.lines ?? []).entries()) {
        const quantity = declared.get(lineKey(line));
        if (quantity === undefined) return { status: 422, code: 'line_not_declared', reason: `line ${i + 1} is not in declaration ${id}` };
        if (line.quantity > quantity) return { status: 422, code: 'quantity_exceeds_declared', reason: `line ${i + 1} rejects ${line.quantity}, more than the ${quantity} declared` };
      }
    }
    return undefined;
  }

  private remember(entry: Entry): void {
    this.entries.push(entry);
    this.byKey.set(entry.key, entry);
    this.byId.set(entry.transactionId, entry);
    if (entry.settles !== undefined) this.settlements.set(entry.settles, entry);
    this.commitsPerKey[entry.key] = (this.commitsPerKey[entry.key] ?? 0) + 1;
    const record = `${entry.kind}:${entry.recordId}`;
    this.commitsPerRecord[record] = (this.commitsPerRecord[record] ?? 0) + 1;
    this.seq = Math.max(this.seq, Number(entry.transactionId.slice(3)) || 0);
  }

  /** getTransacciones: declarations matching every filter given, in commit order, with their settlement. */
  query(q: AuthorityQuery): { transactions: CommittedTransaction[]; total: number } {
    const from = q.from ? Date.parse(q.from) : -Infinity;
    const to = q.to ? Date.parse(q.to) : Infinity;
    const matches = this.entries.filter((e) => {
      if (e.kind !== 'declare' || (q.remito && e.remito !== q.remito)) return false;
      const at = Date.parse(e.eventDate);
      if (at < from || at > to) return false;
      return !(q.gtin || q.lot || q.serial) || e.lines.some((l) => (!q.gtin || l.gtin === q.gtin) && (!q.lot || l.lot === q.lot) && (!q.serial || l.serial === q.serial));
    });
    const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
    const start = ((q.page ?? 1) - 1) * pageSize;
    const transactions = matches.slice(start, start + pageSize).map((e) => {
      const s = this.settlements.get(e.transactionId);
      return s ? { ...e, settlement: { kind: s.kind as 'confirm' | 'reject', transactionId: s.transactionId, committedAt: s.committedAt, reason: s.reason, partial: s.partial } } : { ...e };
    });
    return { transactions, total: matches.length };
  }

  /** Forgets everything (the control's reset), the journal too. */
  clear(): void {
    this.entries.length = 0;
    this.byKey.clear();
    this.byId.clear();
    this.settlements.clear();
    for (const k of Object.keys(this.commitsPerKey)) delete this.commitsPerKey[k];
    for (const k of Object.keys(this.commitsPerRecord)) delete this.commitsPerRecord[k];
    this.seq = 0;
    if (this.file) writeFileSync(this.file, '');
  }
}
