/**
 * A `$group` straight after a pipeline's SQL head (its leading `$match`, no sort or page),
 * answered by SQL's GROUP BY when it reads only paths with a key column (generated, indexed):
 * the documents are then never parsed, and a compound index holding those columns is read alone
 * (stock per deposit and unit over every balance, shipments per day). Anything else — a path
 * without a column or one that has held an array, an accumulator other than these — returns
 * undefined and the group runs as before (sqlite-aggregate.ts).
 *
 * The key columns hold what sqlite-sql.ts's keyExpr makes (NULL, numbers, text, BLOBs for
 * booleans, objects and arrays), so SQL groups values MongoDB holds equal together (1 and 1.0;
 * null and missing under a path key, not inside a key document), and `decode` gives the JSON value back.
 */
import type Database from 'better-sqlite3';
import type { SqlHead } from './sqlite-aggregate.js';
import type { Coll } from './sqlite-collections.js';
import { compileFilter, jsonPath, needsJs, type CompileEnv } from './sqlite-sql.js';
import type { Doc } from './types.js';

export interface SqlGroup {
  /** The statement: its `SELECT` list and the clauses after `WHERE`. */
  select: string;
  tail: string;
  /** The paths grouped by, and the paths read: an index starting with the first and holding all is the one to read (indexFor). */
  keyPaths: string[];
  paths: string[];
  /**
   * Inside a key document a missing path is left out and a null one kept (two groups), but a
   * key column holds NULL for both. When the statement answers a group with a NULL there, those
   * rows are grouped again (this condition ANDed to the filter) with their documents read.
   */
  refine?: { select: string; where: string; tail: string; needed(rows: unknown[][]): boolean; keep(rows: unknown[][]): unknown[][] };
  /** The groups from the raw rows (one array of values each, in `select` order). */
  docs(rows: unknown[][]): Doc[];
}

type Rec = Record<string, unknown>;

/** A key column's value as the document held it. */
function decode(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const b = v as Buffer;
  if (b[0] === 0x10) return false;
  if (b[0] === 0x11) return true;
  return JSON.parse(b.subarray(1).toString('utf8')) as unknown;
}

const NUMERIC = (col: string) => `(CASE WHEN typeof(${col}) IN ('integer', 'real') THEN ${col} END)`;

/**
 * The groups of a pipeline whose head is followed by a `$group` SQL answers, read now (a
 * statement left open would block writes); undefined when SQL does not answer it, and the
 * pipeline runs as before. `stmt` prepares (and caches) a statement on the store's connection.
 */
export function groupedInSql(stmt: (sql: string) => Database.Statement, c: Coll, head: SqlHead, limit?: number): Doc[] | undefined {
  const stage = head.sort === undefined && head.skip === 0 && head.limit === undefined ? head.rest[0]?.$group : undefined;
  const group = stage ? compileSqlGroup(c.env, stage as Rec) : undefined;
  if (!group) return undefined;
  const w = compileFilter(c.env, head.filter);
  const indexes = stmt(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?`).pluck().all(c.name) as string[];
  const index = indexFor(indexes, c.name, group, filterPaths(head.filter));
  const from = index ? `${c.table} INDEXED BY "${index}"` : c.table;
  // A limit (the caller wants to know whether there are more groups than that) ends the read early; it is not for a refined group.
  const cut = limit !== undefined && !group.refine ? ` LIMIT ${Math.floor(limit)}` : '';
  let rows = stmt(`SELECT ${group.select} FROM ${from} WHERE ${w.sql}${group.tail}${cut}`).raw().all(...w.params) as unknown[][];
  const r = group.refine;
  if (r?.needed(rows)) rows = [...r.keep(rows), ...(stmt(`SELECT ${r.select} FROM ${c.table} WHERE (${w.sql}) AND ${r.where}${r.tail}`).raw().all(...w.params) as unknown[][])];
  return group.docs(rows);
}

export function compileSqlGroup(env: CompileEnv, group: Rec): SqlGroup | undefined {
  const column = (ref: unknown): string | undefined => {
    if (typeof ref !== 'string' || !ref.startsWith('$') || ref.startsWith('$$')) return undefined;
    const path = ref.slice(1);
    paths.add(path);
    if (path === 'id') return 'id';
    return needsJs(env, path) ? undefined : env.columns.get(path);
  };
  const select: string[] = [];
  const at = (sql: string) => select.push(sql) - 1;
  const paths = new Set<string>();
  const keyPaths: string[] = [];
  // Key columns that may be NULL inside a key document, with where their presence is selected.
  const nullable: { col: string; at: number; present: number }[] = [];
  // The key: null (one group of everything), a path, or an object of paths.
  const id = group._id;
  let key: (row: unknown[]) => unknown;
  const keyCols = new Map<string, number>();
  if (id === null) {
    key = () => null;
  } else if (typeof id === 'string') {
    const col = column(id);
    if (!col) return undefined;
    const i = at(col);
    keyCols.set(id, i);
    keyPaths.push(id.slice(1));
    key = (row) => decode(row[i]);
  } else if (id && typeof id === 'object' && !Array.isArray(id) && Object.keys(id).length > 0) {
    const parts: [string, number, number | undefined][] = [];
    for (const [name, ref] of Object.entries(id as Rec)) {
      const col = column(ref);
      if (!col) return undefined;
      const i = at(col);
      keyCols.set(ref as string, i);
      keyPaths.push((ref as string).slice(1));
      // Whether the path is present, where its column is NULL (SqlGroup.refine).
      const path = (ref as string).slice(1);
      const present = path === 'id' ? undefined : at(`json_type(doc, '${jsonPath(path)}')`);
      if (present !== undefined) nullable.push({ col, at: i, present });
      parts.push([name, i, present]);
    }
    key = (row) => Object.fromEntries(parts.filter(([, i, present]) => row[i] !== null || present === undefined || row[present] !== null).map(([name, i]) => [name, decode(row[i])]));
  } else {
    return undefined;
  }
  const groupBy = select.length;
  const fields: [string, (row: unknown[]) => unknown][] = [];
  for (const [name, spec] of Object.entries(group)) {
    if (name === '_id') continue;
    if (!spec || typeof spec !== 'object' || Array.isArray(spec) || Object.keys(spec).length !== 1) return undefined;
    const [op, arg] = Object.entries(spec as Rec)[0];
    const constant = arg === null || typeof arg === 'number' || typeof arg === 'boolean' || (typeof arg === 'string' && !arg.startsWith('$'));
    if (op === '$sum' && typeof arg === 'number') {
      const i = at(`count(*) * ${Number(arg)}`);
      fields.push([name, (row) => row[i]]);
    } else if (op === '$sum' && column(arg)) {
      // MongoDB adds the numbers and skips the rest; total() is 0 for none, as $sum is.
      const i = at(`total(${NUMERIC(column(arg)!)})`);
      fields.push([name, (row) => row[i]]);
    } else if ((op === '$first' || op === '$last') && constant) {
      fields.push([name, () => arg]);
    } else if ((op === '$first' || op === '$last') && keyCols.has(arg as string)) {
      // A path the group is keyed by holds the key's value in every row of the group.
      const i = keyCols.get(arg as string)!;
      fields.push([name, (row) => decode(row[i])]);
    } else {
      return undefined;
    }
  }
  // An aggregate without GROUP BY answers one row even over nothing; MongoDB answers no group.
  const count = at('count(*)');
  const presence = new Set(nullable.map((n) => n.present));
  const by = select.slice(0, groupBy);
  // Grouped by the key columns alone, in their order: a compound index starting with them is
  // read in order, alone, and no row's document is read.
  const main = select.map((sql, i) => (presence.has(i) ? 'NULL' : sql));
  const hasNull = (row: unknown[]) => nullable.some((n) => row[n.at] === null);
  return {
    select: main.join(', '),
    keyPaths,
    paths: [...paths],
    tail: `${by.length ? ` GROUP BY ${by.filter((_, i) => !presence.has(i)).join(', ')}` : ''} HAVING count(*) > 0`,
    ...(nullable.length ? {
      refine: {
        select: select.join(', '),
        where: `(${nullable.map((n) => `${n.col} IS NULL`).join(' OR ')})`,
        tail: ` GROUP BY ${by.join(', ')} HAVING count(*) > 0`,
        needed: (rows: unknown[][]) => rows.some(hasNull),
        keep: (rows: unknown[][]) => rows.filter((row) => !hasNull(row)),
      },
    } : {}),
    docs: (rows) => rows.filter((row) => Number(row[count]) > 0).map((row) => ({ _id: key(row), ...Object.fromEntries(fields.map(([name, value]) => [name, value(row)])) }) as Doc),
  };
}

/**
 * Of a collection's compound indexes (named `i:<coll>:<path>+<path>…`, sqlite-collections.ts), one
 * whose leading paths are the group's keys and which holds every path it reads, filter's
 * included: read in its order it groups without sorting and without a document read. SQLite
 * keeps no statistics here and would rather take a filter's range index, reading each row.
 */
export function indexFor(names: readonly string[], coll: string, group: Pick<SqlGroup, 'keyPaths' | 'paths'>, filterPaths: readonly string[]): string | undefined {
  const prefix = `i:${coll}:`;
  const wanted = new Set([...group.paths, ...filterPaths].filter((p) => p !== 'id'));
  return names.find((name) => {
    if (!name.startsWith(prefix) || !name.includes('+')) return false;
    const cols = name.slice(prefix.length).split('+');
    const lead = new Set(cols.slice(0, group.keyPaths.length));
    return group.keyPaths.length > 0 && group.keyPaths.every((k) => lead.has(k)) && [...wanted].every((p) => cols.includes(p));
  });
}

/** The paths a filter reads (field names at any depth of $and, $or, $nor). */
export function filterPaths(filter: unknown): string[] {
  if (!filter || typeof filter !== 'object') return [];
  return Object.entries(filter as Rec).flatMap(([k, v]) => (k.startsWith('$') ? (Array.isArray(v) ? v.flatMap(filterPaths) : []) : [k]));
}
