/**
 * The embedded store's aggregation: the head of a pipeline that SQL answers (leading $match
 * stages, then a $sort, then $skip/$limit stages) and the rest run lazily over the documents an
 * iterating statement hands out: keyed joins and groups here, the per-row stages compiled
 * (sqlite-compile.ts), anything else by mingo. Nothing is read before it is asked for: a
 * `$limit` after `$unwind` stops the statement early, and a cursor holds one batch at a time.
 */
import { Aggregator } from 'mingo';
import { compileGroup, compileRowStage, groupKey, type CompiledGroup, type RowStage } from './sqlite-compile.js';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import { joined, keyedLookup, unwindOf, type ForeignReader, type Pull } from './sqlite-join.js';
import { regroupedLines, runsOf, sameKey } from './sqlite-lines.js';
import type { Doc, Filter, Pipeline, SortSpec } from './types.js';

export type { ForeignReader } from './sqlite-join.js';

type Rec = Record<string, unknown>;

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
  return runsOf(source, (row, first) => sameKey(row.id, first.id), (first) => {
    const states = group.start();
    group.add(states, first);
    return { add: (row) => group.add(states, row), done: () => group.done(group.key(first), states) };
  });
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
 * `$group` (groupedAll). An `$unwind` of a record's lines, their joins and the `$group` by `$id`
 * that puts them back together run as one (regroupedLines). Runs of compiled per-row stages go
 * row by row (rowsThrough); mingo runs the stages in between that did not compile.
 */
function chain(rest: Pipeline, source: Pull, foreign: ForeignReader, stored: boolean): Pull {
  // A record's rows come together only from stored documents, whose ids are unique; a group SQL
  // answered (sqlite-group.ts) may hand out equal `id`s anywhere.
  const runsKept = (stages: Pipeline, i: number) => stored && idRunsKept(stages, i);
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
    const lines = stage.$unwind !== undefined ? regroupedLines(stages, i, now, foreign, options, runsKept) : undefined;
    if (lines) {
      flush();
      out = lines.pull(out);
      i = lines.end;
    } else if (typeof stage.$limit === 'number') {
      flush();
      out = limited(out, stage.$limit);
    } else if ((stage.$group as Rec | undefined)?._id === '$id' && runsKept(stages, i)) {
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
   * reads). `parsed`: the rows are documents already (a group SQL answered, join keys), not JSON
   * texts and not stored documents: their `id`s are not a record's.
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
    this.out = chain(rest, docs, foreign, !parsed);
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
