/**
 * Compiles the validated filter subset and sorts to SQLite SQL over JSON documents.
 *
 * Every path is read through one "key" expression whose SQLite ordering equals MongoDB's BSON
 * ordering for the values JSON can hold: missing/null -> SQL NULL, numbers -> INTEGER/REAL,
 * strings -> TEXT (byte order, as MongoDB's default collation), objects -> BLOB 0x02.., arrays ->
 * BLOB 0x03.., false/true -> BLOB 0x10/0x11. SQLite orders NULL < numbers < TEXT < BLOB, so one
 * column serves equality, typed ranges (MongoDB only compares like with like) and sorting, and
 * an index on it serves all three. The same expression backs the generated columns.
 *
 * Arrays change MongoDB's meaning of a path (an element match, or a path descending through
 * array elements). SQL for that would be large and slow, so a field whose path has ever held an
 * array in the collection (tracked on every write) is evaluated by mingo inside SQLite through
 * a user function: still in the WHERE clause, so LIMIT/OFFSET and counts stay exact.
 */
import type { Filter, SortSpec } from './types.js';
import type { Scalar } from './validate.js';

export interface CompileEnv {
  /** Paths (array positions dropped) that have held an array in this collection. */
  arrayPaths: ReadonlySet<string>;
  /** Paths with a generated column, mapped to the quoted column name. */
  columns: ReadonlyMap<string, string>;
}

export interface Compiled {
  sql: string;
  params: unknown[];
}

/** `$."a"."b"`: segments are validated to [A-Za-z0-9_-], so quoting them is all that is needed. */
export function jsonPath(path: string): string {
  return '$' + path.split('.').map((s) => `."${s}"`).join('');
}

/** The key expression for a path over the `doc` column (see the header comment). */
export function keyExpr(path: string): string {
  const p = `'${jsonPath(path)}'`;
  return `(CASE json_type(doc, ${p}) WHEN 'true' THEN x'11' WHEN 'false' THEN x'10' ` +
    `WHEN 'object' THEN CAST(x'02' || json_extract(doc, ${p}) AS BLOB) ` +
    `WHEN 'array' THEN CAST(x'03' || json_extract(doc, ${p}) AS BLOB) ` +
    `ELSE json_extract(doc, ${p}) END)`;
}

export function columnName(path: string): string {
  return `"k:${path}"`;
}

const TRUE = "x'11'";
const FALSE = "x'10'";

/** Whether a path must be read by mingo (it has held an array in the collection), not from its key column. */
export function needsJs(env: CompileEnv, path: string): boolean {
  if (path === 'id') return false;
  const segs = path.split('.');
  for (let i = 1; i <= segs.length; i++) if (env.arrayPaths.has(segs.slice(0, i).join('.'))) return true;
  return false;
}

/** SQL boolean expressions may be NULL; negation must treat NULL as false first. */
function not(sql: string): string {
  return `(NOT ifnull(${sql}, 0))`;
}

class Compiler {
  readonly params: unknown[] = [];
  /** noIndex: read indexed columns as `+col`, which keeps SQLite from using their indexes. */
  constructor(private readonly env: CompileEnv, private readonly noIndex = false) {}

  private bind(v: unknown): string {
    this.params.push(v);
    return '?';
  }

  filter(f: Filter): string {
    const parts: string[] = [];
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and') parts.push(this.join((value as Filter[]).map((x) => this.filter(x)), 'AND'));
      else if (key === '$or') parts.push(this.join((value as Filter[]).map((x) => this.filter(x)), 'OR'));
      else if (key === '$nor') parts.push(not(this.join((value as Filter[]).map((x) => this.filter(x)), 'OR')));
      else parts.push(this.field(key, value));
    }
    return this.join(parts, 'AND');
  }

  private join(parts: string[], op: 'AND' | 'OR'): string {
    if (parts.length === 0) return op === 'AND' ? '1' : '0';
    return parts.length === 1 ? parts[0] : `(${parts.join(` ${op} `)})`;
  }

  private field(path: string, cond: unknown): string {
    if (needsJs(this.env, path)) return `mq_match(doc, ${this.bind(JSON.stringify({ [path]: cond }))})`;
    if (typeof cond !== 'object' || cond === null) return this.eq(path, cond as Scalar);
    return this.ops(path, cond as Record<string, unknown>);
  }

  private ops(path: string, ops: Record<string, unknown>): string {
    const parts: string[] = [];
    const bounded = boundedRange(ops);
    for (const [op, v] of Object.entries(ops)) {
      switch (op) {
        case '$eq': parts.push(this.eq(path, v as Scalar)); break;
        case '$ne': parts.push(not(this.eq(path, v as Scalar))); break;
        case '$in': parts.push(this.in(path, v as Scalar[])); break;
        case '$nin': parts.push(not(this.in(path, v as Scalar[]))); break;
        case '$gt': case '$gte': case '$lt': case '$lte':
          parts.push(this.range(path, op, v as string | number | boolean, bounded)); break;
        case '$exists': parts.push(this.exists(path, v as boolean)); break;
        case '$regex': parts.push(`mq_regex(${this.key(path)}, ${this.bind(v)}, ${this.bind(String(ops.$options ?? ''))})`); break;
        case '$options': break; // read with $regex
        case '$not': parts.push(not(this.ops(path, v as Record<string, unknown>))); break;
        default: throw new Error(`unvalidated operator ${op}`); // validateFilter runs first
      }
    }
    return this.join(parts, 'AND');
  }

  private key(path: string): string {
    const col = path === 'id' ? 'id' : this.env.columns.get(path);
    if (col) return this.noIndex ? `+${col}` : col;
    return keyExpr(path);
  }

  /** The literal for a scalar in key space (booleans are blobs, see header). */
  private literal(v: Scalar): string {
    if (v === true) return TRUE;
    if (v === false) return FALSE;
    return this.bind(v);
  }

  private eq(path: string, v: Scalar): string {
    // `id` is a TEXT-affinity column: SQLite would coerce a number to text before comparing.
    if (path === 'id' && typeof v !== 'string') return '0';
    if (v === null) return `${this.key(path)} IS NULL`;
    return `${this.key(path)} = ${this.literal(v)}`;
  }

  private in(path: string, values: Scalar[]): string {
    const usable = path === 'id' ? values.filter((v) => typeof v === 'string') : values;
    const plain = [...new Set(usable.filter((v) => v !== null))];
    const parts: string[] = [];
    if (plain.length > 0) parts.push(`${this.key(path)} IN (${plain.map((v) => this.literal(v)).join(', ')})`);
    if (usable.includes(null)) parts.push(`${this.key(path)} IS NULL`);
    return this.join(parts, 'OR');
  }

  private range(path: string, op: string, v: string | number | boolean, bounded = false): string {
    const sym = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
    if (path === 'id' && typeof v !== 'string') return '0';
    const k = this.key(path);
    const cmp = `${k} ${sym} ${this.literal(v)}`;
    // Both ends of one type already keep the key inside that type's bracket. Bracketing each end
    // as well gives SQLite two upper (or lower) bounds on one index, and it may walk the index
    // from the right lower bound to the end of the type's bracket instead of stopping at the
    // range's own end: a range lookup of a few rows read to the end of the index.
    if (bounded) return cmp;
    const upward = op === '$gt' || op === '$gte';
    // Bracket to the operand's own type: numbers sit below '', strings between '' and x'',
    // booleans between x'10' and x'11'. NULL never satisfies a comparison.
    if (typeof v === 'number') return upward ? `(${cmp} AND ${k} < '')` : cmp;
    if (typeof v === 'string') return upward ? `(${cmp} AND ${k} < x'')` : `(${cmp} AND ${k} >= '')`;
    return upward ? `(${cmp} AND ${k} <= ${TRUE})` : `(${cmp} AND ${k} >= ${FALSE})`;
  }

  private exists(path: string, want: boolean): string {
    if (path === 'id') return want ? '1' : '0';
    // json_type tells a JSON null (exists) from a missing field (SQL NULL); the key cannot.
    return `json_type(doc, '${jsonPath(path)}') IS ${want ? 'NOT ' : ''}NULL`;
  }

  sort(sort: SortSpec | undefined): string {
    const terms = Object.entries(sort ?? {}).map(([p, d]) => `${this.key(p)} ${d === 1 ? 'ASC' : 'DESC'}`);
    if (!sort || !('id' in sort)) terms.push('id ASC');
    return terms.join(', ');
  }
}

/** Whether a field's operators bound it from below and from above with operands of one type. */
function boundedRange(ops: Record<string, unknown>): boolean {
  const lower = [ops.$gt, ops.$gte].filter((v) => v !== undefined);
  const upper = [ops.$lt, ops.$lte].filter((v) => v !== undefined);
  if (lower.length === 0 || upper.length === 0) return false;
  const types = new Set([...lower, ...upper].map((v) => typeof v));
  return types.size === 1 && ['string', 'number', 'boolean'].includes([...types][0]);
}

export function compileFilter(env: CompileEnv, filter: Filter | undefined, options: { noIndex?: boolean } = {}): Compiled {
  const c = new Compiler(env, options.noIndex);
  const sql = c.filter(filter ?? {});
  return { sql, params: c.params };
}

export function compileSort(env: CompileEnv, sort: SortSpec | undefined): string {
  return new Compiler(env).sort(sort);
}

/** Whether SQLite could answer part of the filter from an index (a top-level condition on an indexed path). */
export function usesIndex(env: CompileEnv, filter: Filter | undefined): boolean {
  return Object.entries(filter ?? {}).some(([k, v]) =>
    k === '$and' ? (v as Filter[]).some((f) => usesIndex(env, f)) : (k === 'id' || env.columns.has(k)) && !needsJs(env, k));
}

/** Whether the first sort key can be read in order from an index. */
export function sortIndexed(env: CompileEnv, sort: SortSpec | undefined): boolean {
  const first = Object.keys(sort ?? {})[0] ?? 'id';
  return first === 'id' || (env.columns.has(first) && !needsJs(env, first));
}
