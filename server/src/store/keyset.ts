/**
 * Keyset paging (FindOptions.after): "the documents that sort after this one", as a list of
 * filters in the validated subset, disjoint and in sort order, so both adapters answer it with
 * what they already compile. Unlike `skip`, a page costs the same wherever it lies: each term
 * starts at the cursor in the sort key's index instead of walking every earlier row.
 *
 * Values of a sorted path are compared in MongoDB's order across types (missing and null,
 * numbers, strings, booleans), which both stores sort by; the store's range operators only
 * compare like with like, so each type after the cursor's own is a term of its own.
 */
import { StoreError, type Doc, type Filter, type FindOptions, type JsonValue, type SortSpec } from './types.js';

type Scalar = string | number | boolean | null;
type Kind = 'null' | 'number' | 'string' | 'boolean';
const KINDS: readonly Kind[] = ['null', 'number', 'string', 'boolean'];

/** A condition selecting every value of one kind (ranges are bracketed to their operand's type). */
const ALL_OF: Record<Kind, unknown> = {
  null: null,
  number: { $gte: -Infinity },
  string: { $gte: '' },
  boolean: { $in: [false, true] },
};

function kindOf(v: Scalar): Kind {
  return v === null ? 'null' : (typeof v as Kind);
}

function valueAt(doc: Doc, path: string): Scalar {
  let v: JsonValue | undefined = doc;
  for (const seg of path.split('.')) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[seg] : undefined;
  if (v === undefined) return null;
  if (v !== null && typeof v === 'object') throw new StoreError('INVALID_ARGUMENT', `after: ${path} holds an array or object; keyset paging needs scalars in sorted fields`);
  return v;
}

/** The values strictly after `v` in direction `dir`, as disjoint conditions in sort order. */
function beyond(v: Scalar, dir: 1 | -1): unknown[] {
  const kind = kindOf(v);
  const same = v === null ? [] : [{ [dir === 1 ? '$gt' : '$lt']: v }];
  const at = KINDS.indexOf(kind);
  const others = dir === 1 ? KINDS.slice(at + 1) : KINDS.slice(0, at).reverse();
  return [...same, ...others.map((k) => ALL_OF[k])];
}

/**
 * The filters that together select what sorts after `after` under `sort` (ties by id
 * ascending, as every find orders), each disjoint from the others and listed in sort order:
 * reading them one after another in that sort gives the next page.
 */
export function keysetTerms(sort: SortSpec | undefined, after: Doc): Filter[] {
  if (typeof after !== 'object' || after === null || typeof after.id !== 'string') throw new StoreError('INVALID_ARGUMENT', 'after must be a document with its id');
  const keys = Object.entries(sort ?? {}) as [string, 1 | -1][];
  const idAt = keys.findIndex(([k]) => k === 'id');
  // Keys after id never decide anything: id is unique.
  const order = idAt >= 0 ? keys.slice(0, idAt + 1) : [...keys, ['id', 1] as [string, 1 | -1]];
  const values = order.map(([k]) => valueAt(after, k));
  const terms: Filter[] = [];
  for (let i = order.length - 1; i >= 0; i--) {
    const prefix: Filter = {};
    for (let j = 0; j < i; j++) prefix[order[j][0]] = values[j];
    for (const cond of beyond(values[i], order[i][1])) terms.push({ ...prefix, [order[i][0]]: cond });
  }
  return terms;
}

/** The keyset terms of a find, or null without `after`; `after` and a skip do not mix. */
export function afterTerms(o: FindOptions): Filter[] | null {
  if (o.after === undefined) return null;
  if (o.skip) throw new StoreError('INVALID_ARGUMENT', 'after and skip cannot be combined');
  return keysetTerms(o.sort, o.after);
}
