/**
 * Deferred search indexing for bulk inserts. Indexing a material document's search text costs
 * about 9 µs of the 28 its write takes; an import writes its rows in one long burst, so a bulk
 * insert of DEFER_ROWS or more leaves its rows' text to be indexed after it, instead of in its
 * transaction. The rows not yet indexed are one rowid range per collection, kept in a table of
 * the database and written in the same transaction as the rows (a crash loses nothing). From
 * then on every insert into the collection joins the range, until it is caught up:
 *
 * - before any search of the collection, in full: a search never misses a row (a slice per
 *   turn of the event loop, so other requests are served meanwhile; SqliteStore.withSearch
 *   finishes whatever a synchronous caller left);
 * - in the background once the collection has been quiet for a moment (QUIET_MS,
 *   SearchCatchUp), a slice per turn of the event loop, so a burst of writes is not slowed by it.
 *
 * A row of the range that is replaced or deleted meanwhile needs nothing: the catch-up indexes
 * whatever the range holds when it runs.
 */
import type Database from 'better-sqlite3';

export const SEARCH_PENDING = '__store_search_pending';
/** Bulk inserts of at least this many rows defer their indexing; smaller writes index at once. */
export const DEFER_ROWS = 200;
/** Rows indexed per step, in the background or before a search (about 50 ms for material documents). */
export const SLICE_ROWS = 5000;
/**
 * How long a collection must go without writes before the background catch-up starts: long
 * enough to tell the end of an import from its writer waiting for validation to stage more
 * rows (gaps of well under a second). With 300 ms the catch-up ran in those gaps, on the
 * thread the import writes from: a 1M-row import took 48-54 s instead of 34-37 s, for the
 * same total (indexing a million rows takes 11-13 s wherever it runs).
 */
const QUIET_MS = 2000;

export interface RowRange {
  first: number;
  last: number;
}

export function ensurePendingTable(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${SEARCH_PENDING} (coll TEXT PRIMARY KEY NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL) WITHOUT ROWID`);
}

/**
 * One collection's waiting rows, on a writing connection. Read from the table each time, never
 * cached: another process writing the database (a seed script) may have deferred rows too.
 */
export class PendingRows {
  private readonly read: Database.Statement;
  private readonly write: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, private readonly coll: string) {
    ensurePendingTable(db);
    this.read = db.prepare(`SELECT first, last FROM ${SEARCH_PENDING} WHERE coll = ?`);
    this.write = db.prepare(`INSERT INTO ${SEARCH_PENDING} (coll, first, last) VALUES (?, ?, ?) ON CONFLICT (coll) DO UPDATE SET first = excluded.first, last = excluded.last`);
    this.clear = db.prepare(`DELETE FROM ${SEARCH_PENDING} WHERE coll = ?`);
  }

  get(): RowRange | undefined {
    return this.read.get(this.coll) as RowRange | undefined;
  }

  set(range: RowRange | undefined): void {
    if (range) this.write.run(this.coll, range.first, range.last);
    else this.clear.run(this.coll);
  }
}

/** The table exists once a writing connection needed it: readers must not assume it. */
const hasPendingTable = (db: Database.Database) => db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(SEARCH_PENDING) !== undefined;

/** Forgets a collection's waiting rows (its index was rebuilt from every row). */
export function clearPending(db: Database.Database, coll: string): void {
  if (hasPendingTable(db)) db.prepare(`DELETE FROM ${SEARCH_PENDING} WHERE coll = ?`).run(coll);
}

/** Collections with rows still to index (caught up in the background when a store opens). */
export function pendingCollections(db: Database.Database): string[] {
  return hasPendingTable(db) ? (db.prepare(`SELECT coll FROM ${SEARCH_PENDING}`).pluck().all() as string[]) : [];
}

/** The background catch-up: a slice at a time, through the store's queue, once the collection is quiet. */
export class SearchCatchUp {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  /**
   * `step` indexes up to n rows of the collection and says how many are left; `writes` is the
   * collection's write count (unchanged over QUIET_MS: quiet); `done` runs once it is caught up.
   */
  constructor(
    private readonly queue: <T>(f: () => T) => Promise<T>,
    private readonly step: (coll: string, n: number) => number,
    private readonly writes: (coll: string) => number,
    private readonly done: (coll: string) => void,
  ) {}

  schedule(coll: string): void {
    if (this.stopped || this.timers.has(coll)) return;
    const seen = this.writes(coll);
    const t = setTimeout(() => {
      this.timers.delete(coll);
      if (this.writes(coll) !== seen) return this.schedule(coll); // still being written: later
      void this.run(coll);
    }, QUIET_MS);
    t.unref();
    this.timers.set(coll, t);
  }

  private async run(coll: string): Promise<void> {
    try {
      for (;;) {
        const seen = this.writes(coll);
        const left = await this.queue(() => this.step(coll, SLICE_ROWS));
        if (left === 0) return this.done(coll);
        if (this.stopped) return;
        await new Promise((r) => setImmediate(r));
        if (this.writes(coll) !== seen) return this.schedule(coll); // written meanwhile: wait for quiet again
      }
    } catch {
      // The store closed meanwhile, or a step failed: the range stays in the database, for the
      // next open or the next search (which reports an error it meets to its caller).
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
