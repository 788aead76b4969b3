/**
 * Keyed joins of the embedded store's pipelines: a `$lookup` on a local and a foreign field reads
 * only the foreign documents its input rows name, a batch of rows at a time, and remembers them
 * for the next batches (sqlite-aggregate.ts chains them; sqlite-lines.ts joins a record's lines).
 */
import { Aggregator } from 'mingo';
import { pathGetter } from './sqlite-compile.js';
import { fieldSetter, rowCopy } from './sqlite-objects.js';
import type { Doc } from './types.js';

export interface Pull {
  next(): { done: boolean; value?: unknown };
  /**
   * Whether each row it hands out is an object of its own, referenced by nothing else (a fresh
   * parse, copy or build): a join may then set its field on it instead of copying it.
   */
  readonly own?: boolean;
}

/**
 * Where a pipeline's `$lookup`s read the collections they join: `matching` the documents whose
 * `field` equals one of `keys` (MongoDB's equality: null also matches a missing field), `all`
 * the whole collection (a join mingo runs itself).
 */
export interface ForeignReader {
  matching(name: string, field: string, keys: unknown[]): Doc[];
  all(name: string): Doc[];
}

/** A `$lookup` on a local and a foreign field, nothing more: it can read only the documents its input names. */
export interface KeyedLookup { from: string; localField: string; foreignField: string; as: string }

export function keyedLookup(stage: Record<string, unknown>): KeyedLookup | undefined {
  const l = stage.$lookup as Record<string, unknown> | undefined;
  if (!l || l.pipeline !== undefined || l.let !== undefined) return undefined;
  return [l.from, l.localField, l.foreignField, l.as].every((v) => typeof v === 'string') ? (l as unknown as KeyedLookup) : undefined;
}

/**
 * The foreign keys a join remembers the documents of, across its batches: the few master records
 * a report joins to every row (deposits, materials, companies) are read once. Not more: a join on
 * a large collection (return requests by id) held its 20,000 last documents, 30 MB of the
 * export thread's memory, for keys that seldom come back.
 */
export const CACHED_KEYS = 2_000;

/**
 * The first batch is small (a page needs a few rows), the next ones double up to this. Not more:
 * each join of a chain holds its batch of rows in flight, and a report thread's young generation
 * is small (16 MB for the reader, 32 for an export); at 1000 rows a join, four joins' rows outlived their first collection and
 * were copied, and collecting took twice as long in an export.
 */
const LOOKUP_BATCH = 128;

/** Whether `stage` unwinds the array a lookup wrote to `as`, and keeps documents without a match when it does. */
export function unwindOf(stage: Record<string, unknown> | undefined, as: string): { preserve: boolean } | undefined {
  const u = stage?.$unwind;
  if (u === `$${as}`) return { preserve: false };
  const spec = u as Record<string, unknown> | undefined;
  if (!spec || typeof spec !== 'object' || spec.path !== `$${as}` || spec.includeArrayIndex !== undefined) return undefined;
  return Object.keys(spec).every((k) => k === 'path' || k === 'preserveNullAndEmptyArrays') ? { preserve: spec.preserveNullAndEmptyArrays === true } : undefined;
}

type Rec = Record<string, unknown>;
const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v ?? null]);

/**
 * A keyed `$lookup` over a batch of input documents at a time: the foreign documents the batch's
 * local values name are read (an index or the primary key finds them) and joined as MongoDB
 * does (a local array matches each of its values, null matches null and missing, a foreign
 * array each of its elements). A large collection joined this way (lots by number, return
 * requests by id) is never held whole. An `$unwind` of the joined array right after is done in
 * the same pass. Keys that are documents or arrays go to mingo's join, on the whole collection.
 */
export function joined(source: Pull, l: KeyedLookup, unwind: { preserve: boolean } | undefined, foreign: ForeignReader, options: object): Pull {
  let size = 16;
  let out: unknown[] = [];
  let at = 0;
  let ended = false;
  const local = pathGetter(l.localField);
  const foreignKey = pathGetter(l.foreignField);
  const byKey = new Map<unknown, Doc[]>();
  const set = fieldSetter(l.as);
  // A copy of the row with the joined field (rowCopy: the copies share their hidden classes).
  const withField = (d: Rec, v: unknown): Rec => {
    if (l.as === '__proto__') return { ...d, [l.as]: v };
    const o = rowCopy(d);
    set(o, v);
    return o;
  };
  const join = (batch: Rec[]): unknown[] => {
    const locals = batch.map((d) => local(d) ?? null);
    const keys = new Set<unknown>();
    for (const v of locals) {
      if (Array.isArray(v)) for (const x of v) keys.add(x);
      else keys.add(v);
    }
    let hitsOf: (i: number) => unknown[];
    if ([...keys].every((k) => k === null || typeof k !== 'object')) {
      // Keys already read for earlier batches are not read again (a report joins the same few
      // deposits and materials to every row); past CACHED_KEYS the memory starts afresh.
      let missing = [...keys].filter((k) => !byKey.has(k));
      // Starting afresh forgets this batch's own keys too: they are all read again.
      if (byKey.size + missing.length > CACHED_KEYS) {
        byKey.clear();
        missing = [...keys];
      }
      if (missing.length > 0) {
        const fresh = new Map(missing.map((k) => [k, [] as Doc[]]));
        // A foreign array names other keys too: those read before already list this document.
        for (const f of foreign.matching(l.from, l.foreignField, missing)) {
          for (const v of values(foreignKey(f))) fresh.get(v ?? null)?.push(f);
        }
        for (const [k, docs] of fresh) byKey.set(k, docs);
      }
      hitsOf = (i) => {
        const local = locals[i];
        return Array.isArray(local) ? [...new Set(local.flatMap((v) => byKey.get(v) ?? []))] : byKey.get(local) ?? [];
      };
    } else {
      const docs = foreign.all(l.from);
      const looked = new Aggregator([{ $lookup: l }], { ...options, collectionResolver: () => docs }).run(batch) as Rec[];
      // mingo lists an unmatched value of a local array as undefined; MongoDB lists the matches only.
      hitsOf = (i) => (looked[i][l.as] as unknown[]).filter((h) => h !== undefined);
    }
    const result: unknown[] = [];
    const own = source.own === true;
    batch.forEach((d, i) => {
      const hits = hitsOf(i);
      if (!unwind) {
        // The list is the row's own (the remembered one is shared by every row with that key).
        const list = [...hits];
        result.push(own ? (set(d, list), d) : withField(d, list));
      } else if (hits.length > 0) {
        // Copies for the second and later matches, taken before the row itself gets the first.
        const more = hits.slice(1).map((h) => withField(d, h));
        result.push(own ? (set(d, hits[0]), d) : withField(d, hits[0]), ...more);
      } else if (unwind.preserve) {
        const { [l.as]: _gone, ...rest } = d;
        result.push(rest);
      }
    });
    return result;
  };
  return {
    next: () => {
      while (at >= out.length) {
        if (ended) return { done: true };
        const batch: Rec[] = [];
        while (batch.length < size) {
          const r = source.next();
          if (r.done) { ended = true; break; }
          batch.push(r.value as Rec);
        }
        size = Math.min(size * 2, LOOKUP_BATCH);
        out = batch.length ? join(batch) : [];
        at = 0;
      }
      return { done: false, value: out[at++] };
    },
    own: true,
  };
}

