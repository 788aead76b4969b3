/**
 * Substring search for the embedded store: an FTS5 table with the trigram tokenizer per
 * collection. A search of three or more characters is a trigram phrase query answered from the
 * index; a shorter one scans the search text only.
 *
 * The FTS rows are keyed by the document table's implicit rowid, which SQLite keeps stable
 * for a row's life as long as the database is never VACUUMed (this store never does).
 *
 * The adapter keeps the index in step itself (SearchSync), in the transaction of every write
 * method, rather than triggers: a trigger on the document table, even one that does nothing,
 * makes every INSERT a multi-table write that SQLite guards with a statement journal, spilled
 * to a temporary file (about 40 µs a row, most of it in the kernel). And a bulk insert indexes
 * its rows with one INSERT … SELECT after them: FTS5 flushes its pending terms to a new segment
 * at every savepoint and multi-row statement, so indexing row by row writes and later merges a
 * segment per row (about 40 µs more a row).
 */
import type Database from 'better-sqlite3';
import { jsonPath } from './sqlite-sql.js';
import { clearPending, DEFER_ROWS, PendingRows } from './sqlite-search-defer.js';

export const SEARCH_META = '__store_search';
/**
 * The layout of a collection's search index, kept in SEARCH_META. 1: maintained by triggers,
 * `paths` sorted (the text followed the order of the definitions, which the meta did not keep).
 * 2: maintained by the adapter (SearchSync), `paths` in the order the text joins them.
 * upgradeSearch brings a database an older version wrote to the current layout when the store
 * opens it, without reindexing: the text stays the same.
 */
export const SEARCH_LAYOUT = 2;
const TRIGGERS = ['ai', 'au', 'ad'];

export function ftsTable(coll: string): string {
  return `"s:${coll}"`;
}

function textExpr(paths: string[], row: string): string {
  return `concat_ws(' ', ${paths.map((p) => `json_extract(${row}.doc, '${jsonPath(p)}')`).join(', ')})`;
}

const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** The meta table, created or brought up to date (layout 1 had no layout column). */
function ensureMeta(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${SEARCH_META} (coll TEXT PRIMARY KEY NOT NULL, paths TEXT NOT NULL, layout INTEGER NOT NULL DEFAULT 1) WITHOUT ROWID`);
  const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(SEARCH_META) as string[];
  if (!columns.includes('layout')) db.exec(`ALTER TABLE ${SEARCH_META} ADD COLUMN layout INTEGER NOT NULL DEFAULT 1`);
}

function dropTriggers(db: Database.Database, coll: string): void {
  for (const t of TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS "s:${coll}:${t}"`);
}

function saveMeta(db: Database.Database, coll: string, paths: string[]): void {
  db.prepare(`INSERT INTO ${SEARCH_META} (coll, paths, layout) VALUES (?, ?, ?) ON CONFLICT (coll) DO UPDATE SET paths = excluded.paths, layout = excluded.layout`)
    .run(coll, JSON.stringify(paths), SEARCH_LAYOUT);
}

/** (Re)creates the index of every document, joining the paths in the given order. */
function rebuild(db: Database.Database, coll: string, table: string, paths: string[]): void {
  dropTriggers(db, coll);
  clearPending(db, coll); // every row is indexed below
  db.exec(`DROP TABLE IF EXISTS ${ftsTable(coll)}`);
  if (paths.length > 0) {
    db.exec(`CREATE VIRTUAL TABLE ${ftsTable(coll)} USING fts5(text, tokenize = 'trigram case_sensitive 0')`);
    db.exec(`INSERT INTO ${ftsTable(coll)} (rowid, text) SELECT src.rowid, ${textExpr(paths, 'src')} FROM ${table} AS src`);
  }
  saveMeta(db, coll, paths);
}

/** Creates or rebuilds the search index when the set of searched paths changed. */
export function ensureSearch(db: Database.Database, coll: string, table: string, paths: string[]): void {
  ensureMeta(db);
  const current = db.prepare(`SELECT paths, layout FROM ${SEARCH_META} WHERE coll = ?`).get(coll) as { paths: string; layout: number } | undefined;
  if (current && sameSet(JSON.parse(current.paths) as string[], paths)) {
    if (current.layout !== SEARCH_LAYOUT) upgradeOne(db, coll, table, JSON.parse(current.paths) as string[]);
    return;
  }
  rebuild(db, coll, table, paths);
}

/** The paths a layout-1 trigger joined, in its order (read back from the SQL this module wrote). */
function triggerPaths(db: Database.Database, coll: string): string[] | null {
  const sql = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`).pluck().get(`s:${coll}:au`) as string | undefined;
  if (!sql) return null;
  return [...sql.matchAll(/json_extract\(new\.doc, '\$((?:\."[A-Za-z0-9_-]+")+)'\)/g)].map((m) => [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]).join('.'));
}

/** Brings one collection to the current layout; its index is kept when its text stays the same. */
function upgradeOne(db: Database.Database, coll: string, table: string, paths: string[]): void {
  const order = triggerPaths(db, coll);
  if (paths.length === 0) {
    dropTriggers(db, coll);
    saveMeta(db, coll, paths);
  } else if (order && hasSearch(db, coll) && sameSet(order, paths)) {
    dropTriggers(db, coll);
    saveMeta(db, coll, order);
  } else {
    rebuild(db, coll, table, paths); // not as this module left it: start over
  }
}

/** Migrates every collection written with an older search layout (the store runs this on open). */
export function upgradeSearch(db: Database.Database): void {
  ensureMeta(db);
  const old = db.prepare(`SELECT coll, paths FROM ${SEARCH_META} WHERE layout <> ?`).all(SEARCH_LAYOUT) as { coll: string; paths: string }[];
  for (const o of old) upgradeOne(db, o.coll, `"${o.coll}"`, JSON.parse(o.paths) as string[]);
}

/**
 * Keeps one collection's search index in step with its table: the adapter calls it from every
 * write method, inside the writing transaction, with the rowids it wrote.
 */
export class SearchSync {
  private readonly add: Database.Statement;
  private readonly drop: Database.Statement;
  private readonly pending: PendingRows;

  constructor(db: Database.Database, coll: string, table: string, paths: string[]) {
    const fts = ftsTable(coll);
    this.add = db.prepare(`INSERT INTO ${fts} (rowid, text) SELECT src.rowid, ${textExpr(paths, 'src')} FROM ${table} AS src WHERE src.rowid BETWEEN ? AND ?`);
    this.drop = db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`);
    this.pending = new PendingRows(db, coll);
  }

  /**
   * Indexes the rows just inserted, rowids first to last: one statement for a whole bulk insert,
   * or, for a large one or while rows wait already, later (sqlite-search-defer.ts). True when deferred.
   */
  added(first: number, last: number): boolean {
    const waiting = this.pending.get();
    if (!waiting && last - first + 1 < DEFER_ROWS) {
      this.add.run(first, last);
      return false;
    }
    this.pending.set({ first: Math.min(waiting?.first ?? first, first), last: Math.max(waiting?.last ?? last, last) });
    return true;
  }

  /** Indexes a row whose document was replaced (a row waiting to be indexed is indexed as it is then). */
  changed(rowid: number): void {
    if (this.waits(rowid)) return;
    this.drop.run(rowid);
    this.add.run(rowid, rowid);
  }

  removed(rowid: number): void {
    if (!this.waits(rowid)) this.drop.run(rowid);
  }

  /** True when rows of this collection wait to be indexed. */
  waiting(): boolean {
    return this.pending.get() !== undefined;
  }

  private waits(rowid: number): boolean {
    const r = this.pending.get();
    return r !== undefined && rowid >= r.first && rowid <= r.last;
  }

  /** Indexes up to n of the rows waiting, oldest first; returns how many still wait. The caller runs it in a transaction. */
  catchUp(n: number): number {
    const r = this.pending.get();
    if (!r) return 0;
    const to = Math.min(r.last, r.first + n - 1);
    this.add.run(r.first, to);
    this.pending.set(to >= r.last ? undefined : { first: to + 1, last: r.last });
    return to >= r.last ? 0 : r.last - to;
  }
}

/** The collection's SearchSync, or null when it has no search index. */
export function searchSync(db: Database.Database, coll: string, table: string): SearchSync | null {
  if (!hasSearch(db, coll)) return null;
  const meta = db.prepare(`SELECT paths FROM ${SEARCH_META} WHERE coll = ?`).pluck().get(coll) as string | undefined;
  const paths = meta ? (JSON.parse(meta) as string[]) : [];
  return paths.length > 0 ? new SearchSync(db, coll, table, paths) : null;
}

export function hasSearch(db: Database.Database, coll: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(`s:${coll}`) !== undefined;
}

/** The SQL condition (over the document table) for a search, with its parameter. */
export function searchCondition(coll: string, search: string): { sql: string; param: string } {
  const fts = ftsTable(coll);
  if ([...search].length >= 3) return { sql: `rowid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, param: `"${search.replace(/"/g, '""')}"` };
  return { sql: `rowid IN (SELECT rowid FROM ${fts} WHERE instr(lower(text), ?) > 0)`, param: search.toLowerCase() };
}
