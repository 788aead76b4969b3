/**
 * The embedded store's collections: one table each (id, doc), generated columns and indexes
 * for the definitions' unique keys and searched or sorted paths, the paths where arrays occur,
 * and the search index upkeep; what SqliteStore knows of a collection, cached per connection.
 */
import type Database from 'better-sqlite3';
import { arrayPaths } from './docs.js';
import { columnName, keyExpr, type CompileEnv } from './sqlite-sql.js';
import { ensureSearch, hasSearch, searchSync, type SearchSync } from './sqlite-search.js';
import { sortIndexName, sortIndexPaths, uniqueIndexName } from './sqlite-layout.js';
import { StoreError, type CollectionSpec, type StoredDoc } from './types.js';
import { validateCollectionName, validateCollectionSpec } from './validate.js';

export interface Coll {
  name: string;
  table: string;
  /** True when the collection has a search index (searchPaths were given). */
  searchable?: boolean;
  /** Keeps the search index in step on writes (null: none); loaded on the first write. */
  search?: SearchSync | null;
  env: { arrayPaths: Set<string>; columns: Map<string, string> } & CompileEnv;
  /** Writes since this process opened the collection; ages the planner's decisions. */
  writes: number;
}

/** Where each collection has held arrays. */
export const ARRAYS_META = '__store_arrays';

export function createArraysMeta(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${ARRAYS_META} (coll TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (coll, path)) WITHOUT ROWID`);
}

/** A failed write as the Store interface reports it: a unique index names its fields. */
export function translateWriteError(c: Coll, e: unknown): never {
  const err = e as { code?: string; message?: string };
  if (err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new StoreError('DUPLICATE_KEY', `duplicate id in ${c.name}`, ['id'], { cause: e });
  // SQLite names the columns of the violated index: "UNIQUE constraint failed: t.k:a, t.k:b".
  const m = /UNIQUE constraint failed: (.*)$/.exec(err.message ?? '');
  if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' && m) {
    const fields = m[1].split(', ').map((col) => col.slice(col.indexOf('.') + 1).replace(/^k:/, ''));
    const what = fields.length === 1 && fields[0] === 'id' ? 'id' : `value for ${fields.join(' + ')}`;
    throw new StoreError('DUPLICATE_KEY', `duplicate ${what} in ${c.name}`, fields, { cause: e });
  }
  throw e;
}

/** Runs one write to a collection: counted (the planner ages its decisions by it), its errors translated. */
export function writeTo(c: Coll, f: () => void): void {
  c.writes++;
  try {
    f();
  } catch (e) {
    translateWriteError(c, e);
  }
}

export class Collections {
  private readonly colls = new Map<string, Coll>();

  constructor(private readonly db: Database.Database, private readonly stmt: (sql: string) => Database.Statement) {}

  /** The collection's state; creates the table when `create` (writes), else null when absent. */
  get(name: string, create: boolean): Coll | null {
    const known = this.colls.get(name);
    if (known) return known;
    validateCollectionName(name);
    const table = `"${name}"`;
    const exists = this.db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(name);
    if (!exists) {
      if (!create) return null;
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    }
    const columns = new Map<string, string>();
    for (const c of this.db.prepare(`SELECT name FROM pragma_table_xinfo(?)`).all(name) as { name: string }[]) {
      if (c.name.startsWith('k:')) columns.set(c.name.slice(2), `"${c.name}"`);
    }
    const paths = this.db.prepare(`SELECT path FROM ${ARRAYS_META} WHERE coll = ?`).pluck().all(name) as string[];
    const coll: Coll = { name, table, searchable: hasSearch(this.db, name), env: { arrayPaths: new Set(paths), columns }, writes: 0 };
    this.colls.set(name, coll);
    return coll;
  }

  /** Write counts by collection name (0 for one not opened yet). */
  writes(name: string): number {
    return this.colls.get(name)?.writes ?? 0;
  }

  /** Creates what a spec declares (columns, unique and sort indexes, search index), in one transaction. */
  ensure(spec: CollectionSpec): void {
    validateCollectionName(spec.name);
    const paths = validateCollectionSpec(spec);
    try {
      this.ensureTx(spec, paths);
    } catch (e) {
      this.colls.delete(spec.name); // the rollback undid columns the cached state already lists
      throw e;
    }
  }

  private ensureTx(spec: CollectionSpec, paths: Set<string>): void {
    this.db.transaction(() => {
      const c = this.get(spec.name, true)!;
      for (const p of paths) {
        if (p === 'id' || c.env.columns.has(p)) continue;
        this.db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${columnName(p)} GENERATED ALWAYS AS ${keyExpr(p)} VIRTUAL`);
        c.env.columns.set(p, columnName(p));
      }
      const col = (p: string) => (p === 'id' ? 'id' : c.env.columns.get(p)!);
      for (const key of spec.uniqueKeys) {
        // SQL NULL (missing or null) never collides in a UNIQUE index: documents without the
        // key are not constrained, which the MongoDB adapter reproduces with a sparse field.
        writeTo(c, () => this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ${uniqueIndexName(spec.name, key)} ON ${c.table} (${key.map(col).join(', ')})`));
      }
      // (key, id) lets "ORDER BY key, id LIMIT n" read the index in order and stop early (sqlite-layout.ts).
      for (const p of sortIndexPaths(spec.indexes, spec.uniqueKeys)) this.db.exec(`CREATE INDEX IF NOT EXISTS ${sortIndexName(spec.name, p)} ON ${c.table} (${col(p)}, id)`);
      for (const key of spec.compoundIndexes ?? []) this.db.exec(`CREATE INDEX IF NOT EXISTS ${sortIndexName(spec.name, key.join('+'))} ON ${c.table} (${key.map(col).join(', ')}, id)`);
      ensureSearch(this.db, spec.name, c.table, spec.searchPaths ?? []);
      c.search = undefined;
      c.searchable = (spec.searchPaths ?? []).length > 0;
    })();
  }

  /** Remembers where arrays occur, so later filters on those paths take the exact (mingo) route. */
  noteArrays(c: Coll, doc: StoredDoc): void {
    this.notePaths(c, arrayPaths(doc));
  }

  /** Remembers that documents hold arrays at these paths (filters on them then match elements). */
  notePaths(c: Coll, paths: Iterable<string>): void {
    for (const p of paths) {
      if (c.env.arrayPaths.has(p)) continue;
      this.stmt(`INSERT OR IGNORE INTO ${ARRAYS_META} (coll, path) VALUES (?, ?)`).run(c.name, p);
      c.env.arrayPaths.add(p);
    }
  }

  /** The collection's search upkeep: every write method tells it which rows it wrote. */
  searchOf(c: Coll): SearchSync | null {
    if (c.search === undefined) c.search = searchSync(this.db, c.name, c.table);
    return c.search;
  }
}
