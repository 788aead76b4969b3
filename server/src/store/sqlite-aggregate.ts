/**
 * The embedded store's aggregation: the head of a pipeline that SQL answers (leading $match
 * stages, then a $sort, then $skip/$limit stages) and the rest run lazily over the documents an
 * iterating statement hands out: keyed joins and groups here, the per-row stages compiled
 * (sqlite-compile.ts), anything else by mingo. Nothing is read before it is asked for: a
 * `$limit` after `$unwind` stops the statement early, and a cursor holds one batch at a time.
 */
import { Aggregator } from 'mingo';
import { compileGroup, compileRowStage, groupKey, pathGetter, type CompiledGroup, type RowStage } from './sqlite-compile.js';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import { fieldSetter, rowCopy } from './sqlite-objects.js';
import type { Doc, Filter, Pipeline, SortSpec } from './types.js';

export interface SqlHead {
  /** The leading $match stages, ANDed; undefined when there is none. */
  filter: Filter | undefined;
  sort: SortSpec | undefined;
  skip: number;
  /** undefined: no limit. */
  limit: number | undefined;
  /** What mingo runs after the rows SQL returns. */
  rest: Pipeline;
}

/**
 * Splits a validated pipeline into what SQL answers and the rest. A $sort is taken only right
 * after the leading matches, and $skip/$limit only right after those (any run of them folds
 * into one OFFSET and LIMIT); past the first other stage the order of the stages matters.
 */
export function splitSqlHead(pipeline: Pipeline): SqlHead {
  let i = 0;
  const filters: Filter[] = [];
  while (i < pipeline.length && '$match' in pipeline[i]) filters.push(pipeline[i++].$match as Filter);
  const sort = i < pipeline.length && '$sort' in pipeline[i] ? (pipeline[i++].$sort as SortSpec) : undefined;
  let skip = 0;
  let limit: number | undefined;
  for (; i < pipeline.length; i++) {
    const stage = pipeline[i];
    if ('$skip' in stage) {
      const n = stage.$skip as number;
      skip += n;
      if (limit !== undefined) limit = Math.max(0, limit - n);
    } else if ('$limit' in stage) {
      limit = Math.min(limit ?? Infinity, stage.$limit as number);
    } else {
      break;
    }
  }
  const filter = filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { $and: filters };
  return { filter, sort, skip, limit, rest: pipeline.slice(i) };
}

/**
 * mingo's $count yields {n: 0} for no input where MongoDB yields nothing; MongoDB documents
 * $count as this $group + $project, which mingo runs the MongoDB way.
 */
function mongoCount(pipeline: Pipeline): Pipeline {
  return pipeline.flatMap((stage): Pipeline => {
    if (typeof stage.$count === 'string') return [{ $group: { _id: null, [stage.$count]: { $sum: 1 } } }, { $project: { _id: 0 } }];
    const facet = stage.$facet as Record<string, Pipeline> | undefined;
    if (facet) return [{ $facet: Object.fromEntries(Object.entries(facet).map(([k, p]) => [k, mongoCount(p)])) }];
    return [stage];
  });
}

interface Pull {
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
interface KeyedLookup { from: string; localField: string; foreignField: string; as: string }

function keyedLookup(stage: Record<string, unknown>): KeyedLookup | undefined {
  const l = stage.$lookup as Record<string, unknown> | undefined;
  if (!l || l.pipeline !== undefined || l.let !== undefined) return undefined;
  return [l.from, l.localField, l.foreignField, l.as].every((v) => typeof v === 'string') ? (l as unknown as KeyedLookup) : undefined;
}

/** The foreign keys a join remembers the documents of, across its batches. */
const CACHED_KEYS = 20_000;

/**
 * The first batch is small (a page needs a few rows), the next ones double up to this. Not more:
 * each join of a chain holds its batch of rows in flight, and a report thread's young generation
 * is small (16 MB); at 1000 rows a join, four joins' rows outlived their first collection and
 * were copied, and collecting took twice as long in an export.
 */
const LOOKUP_BATCH = 128;

/** Whether `stage` unwinds the array a lookup wrote to `as`, and keeps documents without a match when it does. */
function unwindOf(stage: Record<string, unknown> | undefined, as: string): { preserve: boolean } | undefined {
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
function joined(source: Pull, l: KeyedLookup, unwind: { preserve: boolean } | undefined, foreign: ForeignReader, options: object): Pull {
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
      const missing = [...keys].filter((k) => !byKey.has(k));
      if (byKey.size + missing.length > CACHED_KEYS) byKey.clear();
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

/** Whether no stage before `i` reorders rows or rewrites `id`: the rows made from one stored document then arrive one after another. */
function idRunsKept(stages: Pipeline, i: number): boolean {
  return stages.slice(0, i).every((stage) => {
    const [op] = Object.keys(stage);
    const arg = stage[op] as Rec | string | string[];
    switch (op) {
      case '$match': return true;
      case '$unwind': return (typeof arg === 'string' ? arg : (arg as Rec).path) !== '$id' && (typeof arg === 'string' || (arg as Rec).includeArrayIndex !== 'id');
      case '$lookup': return (arg as Rec).as !== 'id';
      case '$addFields': case '$set': return !Object.hasOwn(arg as Rec, 'id');
      case '$project': return !Object.hasOwn(arg as Rec, 'id') || (arg as Rec).id === 1 || (arg as Rec).id === true;
      case '$unset': return !(Array.isArray(arg) ? arg : [arg]).includes('id');
      default: return false;
    }
  });
}

const sameKey = (a: unknown, b: unknown) => a === b || ((a ?? null) === null && (b ?? null) === null) || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/**
 * A `$group` by `$id` over rows that come a stored document's at a time (its lines unwound and
 * looked up): each run of one id is grouped when the next id shows, so a regrouping holds one
 * record's rows at most, not the whole result, and emits in the order its input came — mingo's
 * own $group order (first seen first), so the results are the same.
 */
function groupedById(source: Pull, stage: Record<string, unknown>, options: object, compiled: CompiledGroup | undefined): Pull {
  if (compiled) return streamedRuns(source, compiled);
  const agg = new Aggregator([stage], options);
  let pending: Rec | undefined;
  let ended = false;
  return {
    next: () => {
      const run: Rec[] = pending ? [pending] : [];
      pending = undefined;
      while (!ended) {
        const r = source.next();
        if (r.done) { ended = true; break; }
        const doc = r.value as Rec;
        if (run.length > 0 && !sameKey(doc.id, run[0].id)) { pending = doc; break; }
        run.push(doc);
      }
      return run.length === 0 ? { done: true } : { done: false, value: agg.run(run)[0] };
    },
    own: true,
  };
}

/** groupedById with compiled accumulators: each run folded as it streams, no rows held. */
function streamedRuns(source: Pull, group: CompiledGroup): Pull {
  let pending: Rec | undefined;
  let ended = false;
  return {
    next: () => {
      let first = pending;
      pending = undefined;
      if (!first && !ended) {
        const r = source.next();
        if (r.done) ended = true;
        else first = r.value as Rec;
      }
      if (!first) return { done: true };
      const states = group.start();
      group.add(states, first);
      while (!ended) {
        const r = source.next();
        if (r.done) { ended = true; break; }
        const doc = r.value as Rec;
        if (!sameKey(doc.id, first.id)) { pending = doc; break; }
        group.add(states, doc);
      }
      return { done: false, value: group.done(group.key(first), states) };
    },
    own: true,
  };
}

/**
 * Any other compiled `$group`: its input read to the end into running totals per group (a
 * group holds its totals, not its rows), then the groups in the order first seen, as mingo.
 */
function groupedAll(source: Pull, group: CompiledGroup): Pull {
  let out: Iterator<{ key: unknown; states: unknown[] }> | undefined;
  return {
    next: () => {
      if (!out) {
        const groups = new Map<unknown, { key: unknown; states: unknown[] }>();
        for (let r = source.next(); !r.done; r = source.next()) {
          const row = r.value as Rec;
          const key = group.key(row);
          const k = groupKey(key);
          let g = groups.get(k);
          if (!g) groups.set(k, (g = { key, states: group.start() }));
          group.add(g.states, row);
        }
        out = groups.values();
      }
      const n = out.next();
      return n.done ? { done: true } : { done: false, value: group.done(n.value.key, n.value.states) };
    },
    own: true,
  };
}

/** At most n items of a source, which is not asked for more once they are out. */
function limited(source: Pull, n: number): Pull {
  let left = n;
  return { next: () => (left-- > 0 ? source.next() : { done: true }), own: source.own };
}

/**
 * The rest of a pipeline as a lazy chain. mingo streams most stages, but its $limit is a filter
 * that lets the first n through and then reads its source to the end; each top-level $limit is
 * therefore a cut between mingo runs, so a `$limit` after `$unwind` stops the statement. Each
 * keyed top-level `$lookup` is a cut too: it reads only the foreign documents its input names;
 * so is a `$group` by `$id` whose input comes a record at a time (groupedById), and any compiled
 * `$group` (groupedAll). Runs of compiled per-row stages go row by row (rowsThrough); mingo runs
 * the stages in between that did not compile.
 */
function chain(rest: Pipeline, source: Pull, foreign: ForeignReader): Pull {
  // One $$NOW for the whole pipeline, as MongoDB has it.
  const now = new Date();
  const options = { ...MINGO_OPTIONS, collectionResolver: (name: string) => foreign.all(name) };
  let out = source;
  let run: Pipeline = [];
  let rowStages: RowStage[] = [];
  const flush = () => {
    if (run.length > 0) out = new Aggregator(run, options).stream(out);
    if (rowStages.length > 0) out = rowsThrough(out, rowStages);
    run = [];
    rowStages = [];
  };
  const stages = mongoCount(rest);
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    const keyed = keyedLookup(stage);
    const compiled = keyed ? undefined : compileRowStage(stage, now);
    const group = stage.$group ? compileGroup(stage.$group as Rec, now) : undefined;
    if (typeof stage.$limit === 'number') {
      flush();
      out = limited(out, stage.$limit);
    } else if ((stage.$group as Rec | undefined)?._id === '$id' && idRunsKept(stages, i)) {
      flush();
      out = groupedById(out, stage, options, group);
    } else if (group) {
      flush();
      out = groupedAll(out, group);
    } else if (keyed) {
      flush();
      const unwind = unwindOf(stages[i + 1], keyed.as);
      if (unwind) i++;
      out = joined(out, keyed, unwind, foreign, options);
    } else if (compiled) {
      // mingo's stages so far run first; compiled ones gather until the next cut.
      if (run.length > 0) {
        out = new Aggregator(run, options).stream(out);
        run = [];
      }
      rowStages.push(compiled);
    } else {
      if (rowStages.length > 0) flush();
      run.push(stage);
    }
  }
  flush();
  return out;
}

/** A source's rows through compiled per-row stages, one input row at a time. */
function rowsThrough(source: Pull, stages: RowStage[]): Pull {
  const emit = stages.reduceRight<(row: Rec) => void>((next, stage) => (row) => stage(row, next), (row) => { queue.push(row); });
  let queue: Rec[] = [];
  let at = 0;
  return {
    next: () => {
      while (at >= queue.length) {
        queue = [];
        at = 0;
        const r = source.next();
        if (r.done) return { done: true };
        emit(r.value as Rec);
      }
      return { done: false, value: queue[at++] };
    },
    // Compiled stages build their rows or pass their input's on.
    own: source.own,
  };
}

/**
 * The results of a pipeline, taken a batch at a time. `rows` is the statement's iterator (JSON
 * texts); $lookup reads its foreign documents while the statement is open. close() ends the
 * statement: until then the connection accepts reads but no writes (better-sqlite3 refuses them
 * while a statement iterates).
 */
export class PipelineStream {
  private readonly out: Pull;
  private readonly copy: boolean;
  private closed = false;

  /**
   * `shared`: the results go out as made, objects shared between them (a cursor's reader only
   * reads). `parsed`: the rows are documents already (a group SQL answered), not JSON texts.
   */
  constructor(rest: Pipeline, private readonly rows: Iterator<unknown> | null, foreign: ForeignReader, shared = false, parsed = false) {
    const docs: Pull = {
      next: () => {
        const r = rows?.next();
        return !r || r.done ? { done: true } : { done: false, value: parsed ? (r.value as Doc) : (JSON.parse(r.value as string) as Doc) };
      },
      own: true,
    };
    this.copy = rest.length > 0 && !shared;
    this.out = chain(rest, docs, foreign);
  }

  /** Up to n more results; fewer only at the end (the stream is then closed). */
  take(n: number): Doc[] {
    const batch: Doc[] = [];
    if (this.closed) return batch;
    try {
      while (batch.length < n) {
        const r = this.out.next();
        if (r.done) {
          this.close();
          break;
        }
        batch.push(r.value as Doc);
      }
    } catch (e) {
      this.close(); // mingo threw: nothing more will be read
      throw e;
    }
    // mingo may share objects between results ($lookup attaches the same foreign document to
    // several): hand out independent copies. Documents straight from JSON.parse are already.
    return this.copy ? (structuredClone(batch) as Doc[]) : batch;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rows?.return?.();
  }
}
