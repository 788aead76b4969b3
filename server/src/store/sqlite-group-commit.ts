/**
 * Group commit for the embedded store's single-document writes. Every commit appends the pages it
 * dirtied to the WAL: for one company that is the table leaf, a leaf of each index and a fresh
 * search-index segment, about half a millisecond, while the insert itself costs a third of that.
 * Writes that arrive together (concurrent requests) are therefore run in one transaction, each in
 * its own savepoint: a write that fails (a duplicate key) is rolled back alone and rejected, the
 * others commit, and every caller is answered only after the commit that holds its write.
 */
import type Database from 'better-sqlite3';

interface Pending {
  op: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private pending: Pending[] = [];

  /**
   * `queue` runs a function once the connection is free (no transaction() in progress) and
   * rejects when the store is closed.
   */
  constructor(private readonly db: Database.Database, private readonly queue: <T>(f: () => T) => Promise<T>) {}

  /** Runs a synchronous write in the next group; resolves with its result once committed. */
  add<T>(op: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, resolve: resolve as (v: unknown) => void, reject });
      // Writes issued in the same turn of the event loop join one group.
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const group = this.pending;
    this.pending = [];
    let outcomes: ({ ok: true; v: unknown } | { ok: false; e: unknown })[];
    try {
      outcomes = await this.queue(() => {
        if (group.length === 1) return [run(group[0].op)];
        return this.db.transaction(() => group.map((p) => run(this.db.transaction(p.op))))();
      });
    } catch (e) {
      for (const p of group) p.reject(e); // the store closed, or the commit itself failed
      return;
    }
    group.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.v);
      else p.reject(o.e);
    });
  }
}

function run(op: () => unknown): { ok: true; v: unknown } | { ok: false; e: unknown } {
  try {
    return { ok: true, v: op() };
  } catch (e) {
    return { ok: false, e };
  }
}
