import { collectionSpec, type Registry } from '../../../engine/src/index';
import { encodeTime } from '../store/ids';
import { isStoreError, type CollectionSpec, type Doc, type Store, type StoredDoc } from '../store/types';

/** The IBC life-cycle log (the `ibc` workflow's `log`): one row per transition of an IBC. */
export const IBC_EVENT = 'ibc_event';
/** Where the folded log is kept between restarts (one document). */
export const SUMMARY_COLLECTION = 'ibc_summary';
const SUMMARY_ID = 'events';

/**
 * The indexes the IBC routes read through, whatever the definitions declare: events by IBC and
 * by transition, IBCs by the fields the look-up, list filters and measures count on. Merged into
 * the definitions' own spec of each (unique keys, search paths), which ensureCollection would
 * otherwise replace.
 */
export function ibcCollections(reg: Registry): CollectionSpec[] {
  const extra: Record<string, string[]> = {
    [SUMMARY_COLLECTION]: [],
    [IBC_EVENT]: ['record', 'transition'],
    ibc_container: ['nfcTagNumber', 'status', 'customer', 'numberOfUses', 'customerSince', 'nextInspectionDate', 'endOfLife', 'manufactured_date'],
  };
  return Object.entries(extra).map(([name, indexes]) => {
    const own = reg.entities[name] ? collectionSpec(reg, name) : { name, uniqueKeys: [], indexes: [], searchPaths: [] };
    return { ...own, indexes: [...new Set([...own.indexes, ...indexes])] };
  });
}

/** A customer's tally: IBCs received, returned, and the time the timed returns stayed. */
export interface CustomerTally {
  taken: number;
  returned: number;
  /** Sum over returns with a known customerSince of (return − customerSince), ms. */
  returnMs: number;
  timedReturns: number;
}

/** Everything holdings and the fleet measures need from the log, folded row by row. */
export interface EventSummary {
  /** Id of the last row folded ('' for none): ids are time-ordered (ULIDs). */
  last: string;
  rows: number;
  customers: Record<string, CustomerTally>;
  /** Fills per UTC day (turns a year count the last 365). */
  fillsByDay: Record<string, number>;
  /** Sum and count of the times between consecutive fills of one IBC, ms. */
  fillGapMs: number;
  fillGaps: number;
}

export function emptySummary(): EventSummary {
  return { last: '', rows: 0, customers: {}, fillsByDay: {}, fillGapMs: 0, fillGaps: 0 };
}

/** The states an IBC is at a customer in: a `return` from them ends a holding. */
const HOLDING = new Set(['at_customer', 'return_requested']);
const ROW = { record: 1, transition: 1, from: 1, at: 1, customer: 1, customerSince: 1 } as const;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Counts one log row into its customer's tally: a `receive` is an IBC taken, a `return` from a
 * holding state one returned (timed from customerSince when known). Whether the row was one of
 * those. Order does not matter: a tally is sums, so it may be kept as rows are written (tally.ts).
 */
export function tallyRow(customers: Record<string, CustomerTally>, r: Readonly<Record<string, unknown>>): boolean {
  const customer = text(r.customer);
  if (!customer) return false;
  const tally = () => (customers[customer] ??= { taken: 0, returned: 0, returnMs: 0, timedReturns: 0 });
  if (r.transition === 'receive') {
    tally().taken++;
    return true;
  }
  if (r.transition !== 'return' || !HOLDING.has(text(r.from))) return false;
  const t = tally();
  t.returned++;
  const at = Date.parse(text(r.at));
  const since = Date.parse(text(r.customerSince));
  if (Number.isFinite(since) && Number.isFinite(at) && at >= since) {
    t.returnMs += at - since;
    t.timedReturns++;
  }
  return true;
}

/**
 * Folds log rows (in id order) into a summary. `lastFill`: each IBC's latest fill time so far
 * (ms), which the gap to its next fill is measured from; updated as fills go by.
 */
export function foldEvents(s: EventSummary, rows: readonly Record<string, unknown>[], lastFill: Map<string, number>): void {
  for (const r of rows) {
    s.rows++;
    s.last = text(r.id);
    const at = Date.parse(text(r.at));
    if (tallyRow(s.customers, r)) continue;
    if (r.transition === 'fill' && Number.isFinite(at)) {
      const day = new Date(at).toISOString().slice(0, 10);
      s.fillsByDay[day] = (s.fillsByDay[day] ?? 0) + 1;
      const record = text(r.record);
      const prev = lastFill.get(record);
      if (prev !== undefined && at > prev) {
        s.fillGapMs += at - prev;
        s.fillGaps++;
      }
      if (prev === undefined || at > prev) lastFill.set(record, at);
    }
  }
}

/**
 * Rows committed later than this are not folded for good yet: two transitions may commit in
 * the other order than their ids were made, so the newest rows are refolded on every read.
 */
const SETTLE_MS = 60_000;
const PAGE = 20_000;

/**
 * The folded log, kept current on read: rows settled since the last read are folded into the
 * stored summary, the newest are folded into a copy for this answer. The count of rows checks
 * the fold: a row that committed after newer rows were folded (a crash recovery's replay) makes
 * it differ, and the summary is folded again from the start. Reads are serialised.
 */
export class EventSummaries {
  private cached: EventSummary | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: Store, private readonly clock: () => Date = () => new Date()) {}

  current(): Promise<EventSummary> {
    return this.serial(() => this.refresh());
  }

  /** Folds the whole log again, as after a failed check; what the bench times as the cold start. */
  rebuild(): Promise<EventSummary> {
    return this.serial(() => {
      this.cached = emptySummary();
      return this.refresh();
    });
  }

  /** Whether a folded summary is kept in memory (the cache manager). */
  get kept(): boolean {
    return this.cached !== undefined;
  }

  /** Drops the summary kept in memory: the next read loads the stored one and folds on from it. */
  forget(): Promise<void> {
    return this.serial(async () => { this.cached = undefined; });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async refresh(): Promise<EventSummary> {
    for (let attempt = 0; ; attempt++) {
      const s = (this.cached ??= await this.load());
      const settled = encodeTime(this.clock().getTime() - SETTLE_MS);
      if (s.last < settled && (await this.fold(s, { $gt: s.last, $lt: settled })) > 0) await this.save(s);
      const answer = structuredClone(s);
      await this.fold(answer, { $gt: s.last });
      if (answer.rows === (await this.store.count(IBC_EVENT)) || attempt === 1) return answer;
      this.cached = emptySummary();
    }
  }

  /** Folds the rows whose ids are in `range`, a page at a time; returns how many. */
  private async fold(s: EventSummary, range: Record<string, string>): Promise<number> {
    const lastFill = new Map<string, number>();
    const foldedBefore = s.last;
    let after: Doc | undefined;
    let n = 0;
    for (;;) {
      const page = await this.store.find(IBC_EVENT, { filter: { id: range }, sort: { id: 1 }, limit: PAGE, projection: ROW, ...(after ? { after } : {}) });
      if (page.length === 0) return n;
      if (foldedBefore) await this.priorFills(page, lastFill, foldedBefore);
      foldEvents(s, page, lastFill);
      n += page.length;
      if (page.length < PAGE) return n;
      after = { id: page[page.length - 1].id };
    }
  }

  /** The latest fill, among rows folded already, of each IBC filled in `page` and not yet known. */
  private async priorFills(page: StoredDoc[], lastFill: Map<string, number>, foldedThrough: string): Promise<void> {
    const records = [...new Set(page.filter((r) => r.transition === 'fill').map((r) => text(r.record)))].filter((r) => r && !lastFill.has(r));
    if (records.length === 0) return;
    const fills = await this.store.find(IBC_EVENT, { filter: { record: { $in: records }, transition: 'fill', id: { $lte: foldedThrough } }, projection: { record: 1, at: 1 } });
    for (const f of fills) {
      const at = Date.parse(text(f.at));
      const prev = lastFill.get(text(f.record));
      if (Number.isFinite(at) && (prev === undefined || at > prev)) lastFill.set(text(f.record), at);
    }
  }

  private async load(): Promise<EventSummary> {
    const doc = await this.store.get(SUMMARY_COLLECTION, SUMMARY_ID);
    return doc ? { ...emptySummary(), ...(doc.summary as unknown as EventSummary) } : emptySummary();
  }

  private async save(s: EventSummary): Promise<void> {
    const doc = { id: SUMMARY_ID, summary: s as unknown as Doc };
    try {
      await this.store.update(SUMMARY_COLLECTION, SUMMARY_ID, doc);
    } catch (e) {
      if (!isStoreError(e, 'NOT_FOUND')) throw e;
      await this.store.insert(SUMMARY_COLLECTION, doc);
    }
  }
}
