/**
 * Searched reads of the embedded store: a page and a count of a search share one computation of
 * the sorted matches (SearchCache), computed by a search reader thread when there are any
 * (SearchPool) or on the calling thread, and the index is compacted after writes (SearchCompactor).
 * Counts without a search go through the same cache: a list asks for its total on every page.
 */
import type Database from 'better-sqlite3';
import { MAX_ROWS, SearchCache } from './sqlite-search-cache.js';
import { SearchCompactor } from './sqlite-search-compact.js';
import { SearchPool } from './sqlite-search-pool.js';
import type { FindOptions, StoredDoc } from './types.js';

export interface SearchTarget {
  name: string;
  table: string;
  /** Writes of this connection to the collection, rolled-back ones included. */
  writes: number;
}

/** A searched find: its cache keys, the generation it is valid for, and the query for all sorted matches. */
export interface SearchPlan {
  countKey: string;
  order: string;
  gen: string;
  sql: string;
  params: unknown[];
}

type Where = { sql: string; params: unknown[] };

/** Matches asked of a query: one more than the cache keeps tells whether that was all of them. */
const MAX_SORTED = MAX_ROWS + 1;

export class SearchReads {
  /** Remembered searches (the cache manager lists and clears it). */
  readonly cache = new SearchCache();
  private readonly inflight = new Map<string, Promise<number[]>>();
  readonly compactor: SearchCompactor;
  private readonly pool: SearchPool | null;

  constructor(
    private readonly db: Database.Database,
    private readonly stmt: (sql: string) => Database.Statement,
    queue: <T>(f: () => T) => Promise<T>,
    options: { file: string; readers: number },
  ) {
    this.compactor = new SearchCompactor(db, queue);
    this.pool = options.readers > 0 ? new SearchPool(options.file, options.readers) : null;
  }

  /** Whether searched finds should go to a reader thread. */
  get threaded(): boolean {
    return this.pool !== null && !this.pool.dead;
  }

  /** The cache generation of a collection, or null inside a transaction (its reads may be rolled back). */
  generation(c: SearchTarget): string | null {
    if (this.db.inTransaction) return null;
    return `${c.writes}:${this.stmt('PRAGMA data_version').pluck().get() as number}`;
  }

  plan(c: SearchTarget, w: Where, order: string): SearchPlan | null {
    const gen = this.generation(c);
    if (gen === null) return null;
    return { countKey: key(c, w), order, gen, sql: `SELECT rowid FROM ${c.table} WHERE ${w.sql} ORDER BY ${order} LIMIT ?`, params: w.params };
  }

  count(c: SearchTarget, w: Where, run: () => number): number {
    const gen = this.generation(c);
    return gen === null ? run() : this.cache.count(key(c, w), gen, run);
  }

  /** A page computed on this thread; null when it lies beyond the matches the cache keeps. */
  pageSync(c: SearchTarget, p: SearchPlan, o: FindOptions): StoredDoc[] | null {
    const m = this.cache.peek(p.countKey, p.order, p.gen) ?? this.cache.put(p.countKey, p.order, p.gen, this.matches(c, p));
    return this.slice(c, m, o);
  }

  /**
   * A page whose matches come from a reader thread. `free` resolves once no transaction holds the
   * connection, since the documents are read on it after the wait. Null: compute it on this thread.
   */
  async pageThreaded(c: SearchTarget, p: SearchPlan, o: FindOptions, free: () => Promise<void>): Promise<StoredDoc[] | null> {
    let m = this.cache.peek(p.countKey, p.order, p.gen);
    if (!m) {
      const k = `${p.countKey}\u0000${p.order}\u0000${p.gen}`;
      let rows = this.inflight.get(k);
      if (!rows) {
        this.compactor.schedule(c.name);
        rows = this.pool!.query(p.sql, [...p.params, MAX_SORTED]).finally(() => this.inflight.delete(k));
        this.inflight.set(k, rows);
      }
      try {
        // Kept under the generation read before the query: if a write came in meanwhile, the
        // entry is simply never used again.
        m = this.cache.put(p.countKey, p.order, p.gen, await rows);
      } catch {
        return null; // a reader stopped: the calling thread answers instead
      }
      await free();
    }
    return this.slice(c, m, o);
  }

  private matches(c: SearchTarget, p: SearchPlan): number[] {
    // A search that had to be computed may follow writes: merge the index once they settle.
    this.compactor.schedule(c.name);
    return this.stmt(p.sql).pluck().all(...p.params, MAX_SORTED) as number[];
  }

  private slice(c: SearchTarget, m: { rowids: number[]; complete: boolean }, o: FindOptions): StoredDoc[] | null {
    const skip = o.skip ?? 0;
    const end = o.limit === undefined ? Infinity : skip + o.limit;
    if (!m.complete && end > m.rowids.length) return null;
    const byRowid = this.stmt(`SELECT doc FROM ${c.table} WHERE rowid = ?`).pluck();
    const out: StoredDoc[] = [];
    // A row deleted since a reader thread listed it is gone from the page, as it would be a moment later.
    for (const r of m.rowids.slice(skip, end)) {
      const text = byRowid.get(r) as string | undefined;
      if (text !== undefined) out.push(JSON.parse(text) as StoredDoc);
    }
    return out;
  }

  async close(): Promise<void> {
    this.compactor.stop();
    await this.pool?.close();
  }
}

function key(c: SearchTarget, w: Where): string {
  return `${c.name}\u0000${w.sql}\u0000${JSON.stringify(w.params)}`;
}
