/**
 * Pipelines whose stages after the SQL head depend on a few join keys of each document, not on
 * the rest of it: keyed `$lookup`s, `$unwind`s and `$match`es of what the joins wrote. How many
 * rows such stages make of a document is a function of its keys' values alone, so they can run
 * once per distinct key instead of once per document:
 *
 * - a **count** (`… $count`) is the key columns grouped in SQL (sqlite-group.ts: an index read,
 *   no document parsed), each group's key run through the stages as a document holding only
 *   that key, its rows weighted by the group's size. A stock report's total counted 67,767
 *   batch documents, each parsed and joined to its material, to keep 37,291: now 41 keys.
 * - an **export or page** keeps its rows, but a document whose key makes no row (the material
 *   is raw and the report keeps the others) is left out in SQL, never read or parsed
 *   (`keysMakingNoRows`).
 *
 * The stages themselves still run (compiled or in mingo) on the key documents, so their
 * semantics stay mingo's: a missing key joins as null does, the only difference a key document
 * has from the stored one.
 */
import type { Filter, Pipeline } from './types.js';

type Rec = Record<string, unknown>;

export interface KeyedStages {
  /** The source paths the stages read: each a keyed `$lookup`'s localField. */
  keys: string[];
  /** How many leading stages of the rest read only those keys and what the joins wrote. */
  length: number;
}

const head = (path: string) => path.split('.')[0];
const isName = (k: string) => k !== '' && !k.startsWith('$');

/** The field paths a `$match` filter reads, or undefined when it reads anything else ($expr, $where…). */
function filterReads(filter: unknown): string[] | undefined {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return undefined;
  const out: string[] = [];
  for (const [k, v] of Object.entries(filter as Rec)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (!Array.isArray(v)) return undefined;
      for (const f of v) {
        const inner = filterReads(f);
        if (!inner) return undefined;
        out.push(...inner);
      }
    } else if (isName(k)) {
      out.push(k);
    } else {
      return undefined;
    }
  }
  return out;
}

/**
 * The leading stages of `rest` (what follows the SQL head) that depend on join keys alone:
 * keyed `$lookup`s (their localField is a key unless a join before wrote it), `$unwind`s and
 * `$match`es of fields joins wrote. Stops at the first other stage; undefined when no stage
 * qualifies or no key is read.
 */
export function keyedStages(rest: Pipeline): KeyedStages | undefined {
  const written = new Set<string>();
  const keys: string[] = [];
  let length = 0;
  for (const stage of rest) {
    const [op, ...more] = Object.keys(stage);
    if (more.length > 0) break;
    const arg = stage[op] as Rec | string;
    if (op === '$lookup') {
      const l = arg as Rec;
      const plain = l.pipeline === undefined && l.let === undefined && typeof l.localField === 'string' && typeof l.foreignField === 'string' && typeof l.from === 'string' && typeof l.as === 'string';
      if (!plain || (l.as as string).includes('.') || !isName(l.as as string)) break;
      const local = l.localField as string;
      if (!written.has(head(local))) {
        // A key read as a whole path; another key under the same field would need both in one document.
        if (keys.some((k) => k !== local && head(k) === head(local))) break;
        if (!keys.includes(local)) keys.push(local);
      }
      written.add(l.as as string);
    } else if (op === '$unwind') {
      const spec = typeof arg === 'string' ? { path: arg } : arg;
      if (typeof spec.path !== 'string' || !spec.path.startsWith('$') || !Object.keys(spec).every((k) => k === 'path' || k === 'preserveNullAndEmptyArrays')) break;
      if (!written.has(head(spec.path.slice(1)))) break;
    } else if (op === '$match') {
      const reads = filterReads(arg);
      if (!reads || !reads.every((p) => written.has(head(p)))) break;
    } else {
      break;
    }
    length++;
  }
  if (length === 0 || keys.length === 0) return undefined;
  return { keys, length };
}

/** A field name none of `taken` uses, for the weight a key document carries. */
function freeName(taken: Set<string>): string {
  let name = 'n';
  while (taken.has(name)) name = `_${name}`;
  return name;
}

/** Sets `path` (a.b.c) in `doc` to `value`, making the objects on the way. */
function setPath(doc: Rec, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = doc;
  for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Rec;
  at[parts[parts.length - 1]] = value;
}

/** Stages run once per distinct key: the keys' group in SQL, and a document per group for the stages. */
interface KeyRun {
  /** The group (after the head, in SQL) of the documents by their keys, with its size under `tag`. */
  group: Rec;
  /** The field of a key document no stage reads or writes: a weight, or which group it stands for. */
  tag: string;
  /** A group's key document: each key at its path (missing when the group's key left it out), and `tag` set to `value`. */
  keyDoc(group: Rec, value: unknown): Rec;
}

function keyRun(stages: Pipeline, keys: string[]): KeyRun {
  const taken = new Set<string>(keys.map(head));
  for (const s of stages) if (s.$lookup) taken.add((s.$lookup as Rec).as as string);
  const tag = freeName(taken);
  const single = keys.length === 1;
  const id = single ? `$${keys[0]}` : Object.fromEntries(keys.map((k, i) => [`k${i}`, `$${k}`]));
  return {
    group: { $group: { _id: id, [tag]: { $sum: 1 } } },
    tag,
    keyDoc: (g, value) => {
      const doc: Rec = { [tag]: value };
      // A single key's group holds null for null and missing alike; a join reads both as null.
      if (single) setPath(doc, keys[0], g._id);
      else keys.forEach((k, i) => { if (Object.hasOwn(g._id as Rec, `k${i}`)) setPath(doc, k, (g._id as Rec)[`k${i}`]); });
      return doc;
    },
  };
}

export interface KeyedCount {
  group: Rec;
  /** A group's key document, weighted by the group's size. */
  keyDoc(group: Rec): Rec;
  /** What runs over the key documents: the keyed stages, then the weights summed as the `$count` would count. */
  rest: Pipeline;
}

/**
 * A `$count` whose stages before it all depend on join keys alone (keyedStages), as a group of
 * the keys and a weighted count over one document per key; undefined for any other pipeline.
 */
export function keyedCount(rest: Pipeline): KeyedCount | undefined {
  const last = rest[rest.length - 1];
  if (!last || typeof last.$count !== 'string' || Object.keys(last).length !== 1) return undefined;
  const stages = rest.slice(0, -1);
  const keyed = keyedStages(stages);
  if (!keyed || keyed.length !== stages.length) return undefined;
  const run = keyRun(stages, keyed.keys);
  return {
    group: run.group,
    keyDoc: (g) => run.keyDoc(g, g[run.tag]),
    // MongoDB's $count is this $group and $project (no row: no result), over weighted documents.
    rest: [...stages, { $group: { _id: null, [last.$count]: { $sum: `$${run.tag}` } } }, { $project: { _id: 0 } }],
  };
}

/** Whether a stage can drop a row: a `$match`, an `$unwind` that does not keep a row without items. */
function drops(stage: Rec): boolean {
  if (stage.$match) return true;
  const u = stage.$unwind as Rec | string | undefined;
  return u !== undefined && (typeof u === 'string' || u.preserveNullAndEmptyArrays !== true);
}

const MAX_KEYS = 1000;

export interface KeyedDrop {
  group: Rec;
  /** The stages up to the last that may drop rows, to run over `keyDocs`; each row out carries its group's index under `tag`. */
  stages: Pipeline;
  keyDocs(groups: Rec[]): Rec[] | undefined;
  /** Past this many distinct keys, running the stages once per key costs about what it saves: keyDocs answers undefined. */
  maxKeys: number;
  tag: string;
  /** The condition, ANDed to the head's filter, that leaves out the documents of the groups that made no row. */
  filter(groups: Rec[], kept: ReadonlySet<unknown>): Filter | undefined;
}

/**
 * For a pipeline read whole (no page cut in SQL), whose leading stages after the head are
 * keyed (keyedStages) on one key and may drop rows: which documents make no row is known from
 * their key alone, so SQL leaves them out. Their absence changes nothing downstream (they made
 * no row for it); undefined when the stages drop nothing or depend on more than one key.
 */
export function keyedDrop(rest: Pipeline): KeyedDrop | undefined {
  const keyed = keyedStages(rest);
  if (!keyed) return undefined;
  let end = keyed.length;
  while (end > 0 && !drops(rest[end - 1])) end--;
  const stages = rest.slice(0, end);
  const lead = keyedStages(stages);
  if (!lead || lead.keys.length !== 1) return undefined;
  const key = lead.keys[0];
  const run = keyRun(stages, lead.keys);
  return {
    group: run.group,
    stages,
    tag: run.tag,
    keyDocs: (groups) => (groups.length > MAX_KEYS ? undefined : groups.map((g, i) => run.keyDoc(g, i))),
    maxKeys: MAX_KEYS,
    filter: (groups, kept) => {
      const none = groups.filter((_, i) => !kept.has(i)).map((g) => g._id);
      // Values SQL and MongoDB hold equal alike (a document key is left to the stages).
      if (none.length === 0 || !none.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return undefined;
      return { [key]: { $nin: none } } as Filter;
    },
  };
}
