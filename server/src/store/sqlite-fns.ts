/**
 * SQL functions the compiled filters call, and the mingo side of aggregation. Both evaluate with
 * mingo where SQL alone would not match MongoDB (arrays, regular expressions).
 */
import type Database from 'better-sqlite3';
import { Aggregator, Query } from 'mingo';
import type { Doc, Pipeline } from './types.js';

/** Bounded cache: filters and patterns come from requests, so an unbounded map would grow forever. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string, make: () => V): V {
    let v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
    } else {
      v = make();
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    }
    this.map.set(key, v);
    return v;
  }
}

// Options that keep mingo to MongoDB's behaviour and away from running code.
export const MINGO_OPTIONS = { scriptEnabled: false } as const;

export function registerFunctions(db: Database.Database): void {
  const queries = new Lru<Query>(256);
  const regexes = new Lru<RegExp>(256);
  // Several conditions of one filter may look at the same row in turn; parse its JSON once.
  let lastText = '';
  let lastDoc: unknown = null;

  db.function('mq_match', { deterministic: true }, (docText: unknown, filterJson: unknown) => {
    if (typeof docText !== 'string' || typeof filterJson !== 'string') return 0;
    if (docText !== lastText) {
      lastDoc = JSON.parse(docText);
      lastText = docText;
    }
    const q = queries.get(filterJson, () => new Query(JSON.parse(filterJson), MINGO_OPTIONS));
    return q.test(lastDoc as Record<string, unknown>) ? 1 : 0;
  });

  // MongoDB applies $regex to strings only; the key expression hands over TEXT for strings alone.
  db.function('mq_regex', { deterministic: true }, (value: unknown, pattern: unknown, flags: unknown) => {
    if (typeof value !== 'string') return 0;
    const re = regexes.get(`${String(flags)}/${String(pattern)}`, () => new RegExp(String(pattern), String(flags)));
    return re.test(value) ? 1 : 0;
  });
}

/** Leading $match stages run as SQL; the rest of the pipeline runs in mingo. */
export function splitLeadingMatch(pipeline: Pipeline): { filters: Record<string, unknown>[]; rest: Pipeline } {
  let i = 0;
  while (i < pipeline.length && '$match' in pipeline[i]) i++;
  return { filters: pipeline.slice(0, i).map((s) => s.$match as Record<string, unknown>), rest: pipeline.slice(i) };
}

/** Collections named by $lookup, including inside $facet sub-pipelines. */
export function lookupTargets(pipeline: Pipeline, out: Set<string> = new Set()): Set<string> {
  for (const stage of pipeline) {
    const lookup = stage.$lookup as { from?: string } | undefined;
    if (lookup?.from) out.add(lookup.from);
    const facet = stage.$facet as Record<string, Pipeline> | undefined;
    if (facet) for (const sub of Object.values(facet)) lookupTargets(sub, out);
  }
  return out;
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

/**
 * Runs the rest of a pipeline over documents streamed from SQLite. Foreign collections are
 * loaded before streaming starts: better-sqlite3 cannot run a second statement while one is
 * being iterated, and mingo may ask for them lazily.
 */
export function runPipeline(rest: Pipeline, source: Iterable<Doc>, foreign: Map<string, Doc[]>): Doc[] {
  if (rest.length === 0) return Array.from(source);
  const agg = new Aggregator(mongoCount(rest), { ...MINGO_OPTIONS, collectionResolver: (name: string) => foreign.get(name) ?? [] });
  // $lookup may attach the same foreign object to several results: hand out independent copies.
  return structuredClone(agg.run(source)) as Doc[];
}
