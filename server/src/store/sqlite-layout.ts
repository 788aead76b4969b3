/**
 * The indexes of the embedded store's collection tables, and the migration of a database an
 * older version wrote (run when the store opens it).
 *
 * Each unique key has a UNIQUE index over its generated columns; each indexed (sorted or
 * searched) path a (key, id) index, so "ORDER BY key, id LIMIT n" reads it in order and stops
 * early. A path that is a unique key on its own gets no second index: its unique index serves
 * equality and sorting alike (SQLite sorts the ties by id as it walks it, and only documents
 * without the key can tie). Every index costs each insert a B-tree write; material, with four
 * unique keys among ten indexed paths, used to maintain four redundant ones.
 */
import type Database from 'better-sqlite3';
import { upgradeSearch } from './sqlite-search.js';

export function uniqueIndexName(coll: string, key: readonly string[]): string {
  return `"u:${coll}:${key.join('+')}"`;
}

export function sortIndexName(coll: string, path: string): string {
  return `"i:${coll}:${path}"`;
}

/** The indexed paths that get a (key, id) index: not id, not a single-path unique key. */
export function sortIndexPaths(indexes: readonly string[], uniqueKeys: readonly (readonly string[])[]): string[] {
  const unique = new Set(uniqueKeys.filter((k) => k.length === 1).map((k) => k[0]));
  return indexes.filter((p) => p !== 'id' && !unique.has(p));
}

/** Drops every (key, id) index that doubles a single-path unique index (written before layout 2). */
function dropRedundantIndexes(db: Database.Database): void {
  const names = db.prepare(
    `SELECT i.name FROM sqlite_schema AS i JOIN sqlite_schema AS u ON u.type = 'index' AND u.name = 'u:' || substr(i.name, 3)
     WHERE i.type = 'index' AND i.name LIKE 'i:%'`,
  ).pluck().all() as string[];
  for (const n of names) db.exec(`DROP INDEX IF EXISTS "${n}"`);
}

/** Brings a database to the current layout: idempotent, cheap when there is nothing to do. */
export function upgradeLayout(db: Database.Database): void {
  db.transaction(() => {
    dropRedundantIndexes(db);
    upgradeSearch(db);
  })();
}
