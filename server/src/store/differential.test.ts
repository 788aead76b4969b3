/**
 * Differential property test: random documents, filters, sorts and pipelines run on the embedded
 * store and on plain mingo over the same array (always), and on MongoDB when MONGODB_URI is set;
 * every result must be equal. mingo is the reference for MongoDB semantics here; the contract
 * suite pins the cases where mingo itself departs from MongoDB.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Aggregator, find } from 'mingo';
import { dropDatabase, serverGaps, type ServerGap } from './mongo-gaps.js';
import { MongoStore } from './mongo.js';
import { SqliteStore } from './sqlite.js';
import type { Doc, Filter, Pipeline, SortSpec, Store } from './types.js';

const uri = process.env.MONGODB_URI;
const RUNS = Number(process.env.STORE_DIFF_RUNS) || (uri ? 100 : 150);

// Small value domains so that random filters actually hit documents; all strings in the BMP,
// where UTF-16 (mingo) and UTF-8 (SQLite, MongoDB) orders agree.
const str = fc.constantFrom('a', 'B', 'b', 'ab', 'Ab', 'ñu', 'Ñu', 'é', '', 'zz', '10', '2');
const num = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(1.5, -0.5, 2.25, 10));
const scalar = fc.oneof(num, str, fc.boolean(), fc.constant(null));
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 3 });

const docArb = fc.record({
  n: opt(scalar),
  s: opt(str),
  b: opt(fc.boolean()),
  o: opt(fc.oneof(fc.record({ x: opt(scalar), y: opt(str) }, { requiredKeys: [] }), scalar)),
  m: opt(fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }))),
  tags: opt(fc.array(str, { maxLength: 3 })),
  items: opt(fc.array(fc.record({ k: str, q: fc.integer({ min: 0, max: 4 }) }), { maxLength: 3 })),
}, { requiredKeys: [] }).map((d) => JSON.parse(JSON.stringify(d)) as Doc);

const ANY_PATHS = ['n', 's', 'b', 'o', 'o.x', 'o.y', 'm', 'tags', 'items.k', 'items.q', 'id'];
// $regex on numbers is where mongo-java-server departs from MongoDB: keep it to string fields.
const STRING_PATHS = ['s', 'o.y', 'tags', 'items.k'];
const SORT_PATHS = ['n', 's', 'b', 'o.x', 'o.y'];

const leaf: fc.Arbitrary<Filter> = fc.oneof(
  fc.tuple(fc.constantFrom(...ANY_PATHS), scalar).map(([p, v]) => ({ [p]: v })),
  fc.tuple(fc.constantFrom(...ANY_PATHS), fc.constantFrom('$eq', '$ne'), scalar).map(([p, op, v]) => ({ [p]: { [op]: v } })),
  fc.tuple(fc.constantFrom(...ANY_PATHS), fc.constantFrom('$gt', '$gte', '$lt', '$lte'), fc.oneof(num, str, fc.boolean()))
    .map(([p, op, v]) => ({ [p]: { [op]: v } })),
  fc.tuple(fc.constantFrom(...ANY_PATHS), fc.constantFrom('$in', '$nin'), fc.array(scalar, { maxLength: 4 })).map(([p, op, v]) => ({ [p]: { [op]: v } })),
  fc.tuple(fc.constantFrom(...ANY_PATHS), fc.boolean()).map(([p, v]) => ({ [p]: { $exists: v } })),
  fc.tuple(fc.constantFrom(...STRING_PATHS), fc.constantFrom('^a', 'b$', 'ñ', 'A', '1', '.', '^$', 'u', 'É'), fc.constantFrom('', 'i'))
    .map(([p, re, o]) => ({ [p]: o ? { $regex: re, $options: o } : { $regex: re } })),
  fc.tuple(fc.constantFrom(...ANY_PATHS), fc.constantFrom('$gt', '$lte'), num).map(([p, op, v]) => ({ [p]: { $not: { [op]: v } } })),
);

const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(leaf, leaf).map(([a, b]) => ({ ...a, ...b })),
    fc.tuple(fc.constantFrom('$and', '$or', '$nor'), fc.array(tie('f'), { minLength: 1, maxLength: 3 })).map(([op, fs]) => ({ [op]: fs })),
  ),
})).f;

const sortArb: fc.Arbitrary<SortSpec> = fc.uniqueArray(fc.tuple(fc.constantFrom(...SORT_PATHS), fc.constantFrom(1 as const, -1 as const)), {
  maxLength: 2, selector: ([p]) => p,
}).map((pairs) => Object.fromEntries(pairs));

type Query =
  | { kind: 'find'; filter: Filter; sort: SortSpec; skip: number; limit: number }
  | { kind: 'count'; filter: Filter }
  | { kind: 'aggregate'; pipeline: Pipeline };

/**
 * A leading $sort, $skip and $limit run in SQL on the embedded store (ties by id) and after it
 * mingo; the reference's $sort is stable over documents in id order, so ties agree. MongoDB
 * leaves ties unordered: runOn gives it the id tie break explicitly.
 */
const nonEmptySortArb = sortArb.filter((s) => Object.keys(s).length > 0);

const pipelineArb: fc.Arbitrary<Pipeline> = fc.tuple(filterArb, fc.nat(4), fc.integer({ min: 1, max: 5 }), fc.nat(8), nonEmptySortArb, fc.integer({ min: 1, max: 40 })).map(([f, skip, limit, which, sort, window]) => [
  [{ $match: f }, { $group: { _id: '$s', c: { $sum: 1 }, t: { $sum: '$n' } } }, { $sort: { _id: 1 } }],
  [{ $match: f }, { $unwind: '$tags' }, { $group: { _id: '$tags', c: { $sum: 1 } } }, { $sort: { c: -1, _id: 1 } }],
  [{ $match: f }, { $count: 'n' }],
  [{ $match: f }, { $sort: { n: 1, id: 1 } }, { $skip: skip }, { $limit: limit }, { $project: { _id: 0, id: 1, n: 1, s: 1 } }],
  [{ $match: f }, { $facet: { a: [{ $count: 'n' }], b: [{ $group: { _id: '$b', c: { $sum: 1 } } }, { $sort: { _id: 1 } }] } }],
  [{ $match: f }, { $sort: sort }, { $skip: skip }, { $limit: window }],
  [{ $sort: sort }, { $limit: window }, { $unwind: '$tags' }, { $limit: limit }],
  [{ $match: f }, { $skip: skip }, { $limit: window }, { $count: 'n' }],
  [{ $match: f }, { $sort: sort }, { $skip: skip }, { $unwind: '$items' }, { $skip: skip }, { $limit: window }, { $project: { _id: 0, id: 1, items: 1 } }],
][which]);

/** The pipeline with `id: 1` ending every $sort that has no id: the tie break the embedded store applies itself. */
function withIdTieBreak(pipeline: Pipeline): Pipeline {
  return pipeline.map((stage) => (stage.$sort && !('id' in (stage.$sort as SortSpec)) ? { $sort: { ...(stage.$sort as SortSpec), id: 1 } } : stage));
}

const queryArb: fc.Arbitrary<Query> = fc.oneof(
  fc.record({ kind: fc.constant('find' as const), filter: filterArb, sort: sortArb, skip: fc.nat(5), limit: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('count' as const), filter: filterArb }),
  fc.record({ kind: fc.constant('aggregate' as const), pipeline: pipelineArb }),
);

function reference(docs: Doc[], q: Query): unknown {
  if (q.kind === 'find') return find(docs, q.filter).sort({ ...q.sort, id: 1 }).skip(q.skip).limit(q.limit).all();
  if (q.kind === 'count') return find(docs, q.filter).all().length;
  return new Aggregator(q.pipeline, { scriptEnabled: false }).run(docs);
}

const ARRAY_PATHS = new Set(['m', 'tags', 'items.k', 'items.q']);

/** Which (operator, path) pairs each known server gap affects; see mongo-gaps.ts. */
const GAP_RULES: Record<ServerGap, (op: string, path: string) => boolean> = {
  'regex-matches-only-strings': (op, p) => op === '$regex' && ARRAY_PATHS.has(p),
  'not-over-arrays': (op, p) => op === '$not' && ARRAY_PATHS.has(p),
  'exists-through-empty-arrays': (op, p) => op === '$exists' && p.startsWith('items.'),
};

/** Whether a query depends on a behaviour the MongoDB server under test is known to lack. */
function hitsGap(q: Query, gaps: Partial<Record<ServerGap, string>>): boolean {
  const rules = (Object.keys(gaps) as ServerGap[]).map((g) => GAP_RULES[g]);
  const walk = (v: unknown, path?: string): boolean => {
    if (Array.isArray(v)) return v.some((x) => walk(x, path));
    if (typeof v !== 'object' || v === null) return false;
    return Object.entries(v).some(([k, x]) =>
      (path !== undefined && rules.some((r) => r(k, path))) || walk(x, k.startsWith('$') ? path : k));
  };
  return rules.length > 0 && walk(q);
}

function runOn(store: Store, coll: string, q: Query): Promise<unknown> {
  if (q.kind === 'find') return store.find(coll, { filter: q.filter, sort: q.sort, skip: q.skip, limit: q.limit });
  if (q.kind === 'count') return store.count(coll, q.filter);
  return store.aggregate(coll, store.kind === 'mongodb' ? withIdTieBreak(q.pipeline) : q.pipeline);
}

/**
 * mingo's $count answers [{n: 0}] for no input where MongoDB answers nothing (the store rewrites
 * $count for mingo, see sqlite-fns.ts); the reference is corrected here, wherever $count ran.
 */
function mongoCountQuirk(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x) => (Array.isArray(x) && x.length === 1 && x[0]?.n === 0 && Object.keys(x[0]).length === 1 ? [] : x)));
}

describe('differential: embedded store and MongoDB agree with mingo on random data and queries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-diff-'));
  const stores: { name: string; store: Store }[] = [];
  let gaps: Partial<Record<ServerGap, string>> = {};
  let run = 0;
  let skippedOnMongo = 0;
  const dbName = `store_diff_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    stores.push({ name: 'sqlite', store: new SqliteStore({ dataDir: dir }) });
    if (uri) {
      stores.push({ name: 'mongodb', store: await MongoStore.connect({ uri, dbName }) });
      gaps = await serverGaps(uri);
    }
    else console.warn('[store] MONGODB_URI is not set: the differential test compares SQLite with mingo only; MongoDB was SKIPPED.');
  });
  afterAll(async () => {
    if (skippedOnMongo > 0) {
      console.warn(`[store] ${skippedOnMongo} generated queries were not compared on MongoDB (known wire-server gaps: ${Object.keys(gaps).join(', ')})`);
    }
    for (const s of stores) await s.store.close();
    if (uri) await dropDatabase(uri, dbName);
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!uri)('includes MongoDB in the comparison (needs MONGODB_URI)', () => {
    expect(stores.map((s) => s.name)).toContain('mongodb');
  });

  it('gives identical results for random documents, filters, sorts and pipelines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(docArb, { minLength: 0, maxLength: 30 }), fc.array(queryArb, { minLength: 4, maxLength: 8 }), async (raw, queries) => {
        const docs = raw.map((d, i) => ({ id: `d${String(i).padStart(3, '0')}`, ...d }));
        const coll = `diff_${++run}`;
        // Every collection is a table; SQLite re-reads its whole schema on each change, so a
        // long run keeps the schema small by moving to a fresh database now and then.
        if (run % 100 === 0) {
          await stores[0].store.close();
          stores[0].store = new SqliteStore({ dataDir: join(dir, String(run)) });
        }
        for (const { store } of stores) {
          await store.ensureCollection({ name: coll, uniqueKeys: [], indexes: ['n', 's', 'o.x'] });
          await store.insertMany(coll, docs);
        }
        for (const q of queries) {
          const expected = mongoCountQuirk(reference(docs, q));
          for (const { name, store } of stores) {
            if (name === 'mongodb' && hitsGap(q, gaps)) {
              skippedOnMongo++;
              continue;
            }
            const got = JSON.parse(JSON.stringify(await runOn(store, coll, q)));
            expect(got, `${name}: ${JSON.stringify(q)}`).toEqual(expected);
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, Math.max(60_000, RUNS * 200));
});
