/**
 * Remembers the outcome of recent searches for the embedded store: for a (collection, search,
 * filter, sort) the matching rowids in sort order, and for a (collection, search, filter) the
 * count. A trigram search over a large collection costs milliseconds in FTS5 for a common
 * term, and a list screen asks for the same search again and again (its count and page together,
 * then the next page, then again after a debounce); everything after the first is a slice.
 *
 * An entry is valid only for the generation it was computed at: the collection's own write
 * counter (every write of this connection bumps it, rolled-back ones included) and SQLite's
 * data_version (which changes when another connection, such as a seed or import script, commits).
 */

/** Sorted matches kept per entry; a search matching more keeps its first MAX_ROWS for paging. */
export const MAX_ROWS = 5000;
const MAX_ENTRIES = 256;

interface Matches {
  gen: string;
  /** Matching rowids in sort order: all of them when `complete`, else the first MAX_ROWS. */
  rowids: number[];
  complete: boolean;
}

/** A bounded map that forgets the least recently used entry first (Map keeps insertion order). */
class Lru<V> {
  private readonly m = new Map<string, V>();
  get(key: string): V | undefined {
    const v = this.m.get(key);
    if (v !== undefined) {
      this.m.delete(key);
      this.m.set(key, v);
    }
    return v;
  }
  get size(): number {
    return this.m.size;
  }
  clear(): void {
    this.m.clear();
  }
  set(key: string, v: V): void {
    this.m.delete(key);
    if (this.m.size >= MAX_ENTRIES) this.m.delete(this.m.keys().next().value as string);
    this.m.set(key, v);
  }
}

export class SearchCache {
  private readonly matches = new Lru<Matches>();
  private readonly counts = new Lru<{ gen: string; n: number }>();

  /** Searches and counts kept (the cache manager). */
  get size(): number {
    return this.matches.size + this.counts.size;
  }

  /** Forgets every search: the next ones ask FTS5 again. */
  clear(): void {
    this.matches.clear();
    this.counts.clear();
  }

  peek(countKey: string, sortKey: string, gen: string): Matches | undefined {
    const hit = this.matches.get(`${countKey}\u0000${sortKey}`);
    return hit && hit.gen === gen ? hit : undefined;
  }

  /** Keeps the result of a query for MAX_ROWS + 1 sorted matches (one more tells whether that was all). */
  put(countKey: string, sortKey: string, gen: string, rows: number[]): Matches {
    const complete = rows.length <= MAX_ROWS;
    const m: Matches = { gen, rowids: complete ? rows : rows.slice(0, MAX_ROWS), complete };
    this.matches.set(`${countKey}\u0000${sortKey}`, m);
    if (complete) this.counts.set(countKey, { gen, n: rows.length });
    return m;
  }

  count(countKey: string, gen: string, compute: () => number): number {
    const hit = this.counts.get(countKey);
    if (hit && hit.gen === gen) return hit.n;
    const n = compute();
    this.counts.set(countKey, { gen, n });
    return n;
  }
}
