/**
 * Substring search for the embedded store: an FTS5 table with the trigram tokenizer per
 * collection, kept in step with the documents by triggers (so every write path, transactions
 * included, maintains it without adapter code). A search of three or more characters is a
 * trigram phrase query answered from the index; a shorter one scans the search text only.
 *
 * The FTS rows are keyed by the document table's implicit rowid, which SQLite keeps stable
 * for a row's life as long as the database is never VACUUMed (this store never does).
 */
import type Database from 'better-sqlite3';
import { jsonPath } from './sqlite-sql.js';

export const SEARCH_META = '__store_search';

export function ftsTable(coll: string): string {
  return `"s:${coll}"`;
}

function textExpr(paths: string[], row: 'new' | 'src'): string {
  return `concat_ws(' ', ${paths.map((p) => `json_extract(${row}.doc, '${jsonPath(p)}')`).join(', ')})`;
}

/** Creates or rebuilds the search index when the searched paths changed. */
export function ensureSearch(db: Database.Database, coll: string, table: string, paths: string[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${SEARCH_META} (coll TEXT PRIMARY KEY NOT NULL, paths TEXT NOT NULL) WITHOUT ROWID`);
  const wanted = JSON.stringify([...paths].sort());
  const current = db.prepare(`SELECT paths FROM ${SEARCH_META} WHERE coll = ?`).pluck().get(coll) as string | undefined;
  if (current === wanted) return;
  const fts = ftsTable(coll);
  for (const t of ['ai', 'au', 'ad']) db.exec(`DROP TRIGGER IF EXISTS "s:${coll}:${t}"`);
  db.exec(`DROP TABLE IF EXISTS ${fts}`);
  if (paths.length > 0) {
    db.exec(`CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'trigram case_sensitive 0')`);
    db.exec(`INSERT INTO ${fts} (rowid, text) SELECT src.rowid, ${textExpr(paths, 'src')} FROM ${table} AS src`);
    db.exec(`CREATE TRIGGER "s:${coll}:ai" AFTER INSERT ON ${table} BEGIN INSERT INTO ${fts} (rowid, text) VALUES (new.rowid, ${textExpr(paths, 'new')}); END`);
    db.exec(`CREATE TRIGGER "s:${coll}:au" AFTER UPDATE OF doc ON ${table} BEGIN UPDATE ${fts} SET text = ${textExpr(paths, 'new')} WHERE rowid = old.rowid; END`);
    db.exec(`CREATE TRIGGER "s:${coll}:ad" AFTER DELETE ON ${table} BEGIN DELETE FROM ${fts} WHERE rowid = old.rowid; END`);
  }
  db.prepare(`INSERT INTO ${SEARCH_META} (coll, paths) VALUES (?, ?) ON CONFLICT (coll) DO UPDATE SET paths = excluded.paths`).run(coll, wanted);
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
