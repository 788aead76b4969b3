/**
 * Stages that depend on join keys alone (sqlite-keyed.ts) counted once per key: the count must
 * be mingo's over the whole documents, whatever the keys hold (text, numbers, null, missing,
 * booleans, documents, a list: the last leaves SQL's grouping and the documents are read), the
 * joins match (one foreign document, several, none) and the matches keep or drop. And SQL is
 * asked: the key group is the statement read, no document's JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { Aggregator } from 'mingo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import { keyedCount, keyedStages } from './sqlite-keyed.js';
import { SqliteStore } from './sqlite.js';
import type { Doc, Pipeline } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'store-keyed-'));
let store: SqliteStore;
const prepared: string[] = [];

beforeAll(() => {
  store = new SqliteStore({ dataDir: dir });
  const db = (store as unknown as { db: Database.Database }).db;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => { prepared.push(sql); return prepare(sql); }) as typeof db.prepare;
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = fc.oneof(fc.constantFrom('m1', 'm2', 'm3', 'nobody'), fc.constantFrom(1, 1.5), fc.constant(null), fc.constant(undefined), fc.boolean(), fc.constant({ z: 1 }));
/** Without its undefined fields (a missing field). */
const defined = (d: Record<string, unknown>): Doc => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as Doc;
const doc = fc.record({ mat: key, dep: key, q: fc.integer({ min: -2, max: 3 }), o: fc.oneof(fc.record({ k: key }).map(defined), fc.constant(undefined)) }).map(defined);
/** Materials (a code shared by two, one without a code, raw or not) and deposits, looked up by their code. */
const material = fc.record({ code: key, raw: fc.oneof(fc.boolean(), fc.constant(undefined)), kind: fc.constantFrom('a', 'b') }).map(defined);
const deposit = fc.record({ code: key, cls: fc.constantFrom('internal', 'external') }).map(defined);

const lookup = (localField: string, from: string, as: string): Doc => ({ $lookup: { from, localField, foreignField: 'code', as } });
const unwind = (as: string) => fc.constantFrom<Doc>({ $unwind: `$${as}` }, { $unwind: { path: `$${as}`, preserveNullAndEmptyArrays: true } });
const stageRuns = fc.tuple(
  fc.constantFrom('mat', 'o.k'),
  fc.option(unwind('m'), { nil: undefined }),
  fc.option(fc.constantFrom<Doc>({ 'm.raw': { $ne: true } }, { 'm.raw': true }, { 'm.kind': { $ne: 'a' } }, { $or: [{ 'm.kind': 'a' }, { 'm.raw': { $exists: false } }] }), { nil: undefined }),
  fc.boolean(),
  fc.option(fc.constantFrom<Doc>({ 'd.cls': 'internal' }, { 'd.cls': { $in: ['internal', null] } }), { nil: undefined }),
).map(([local, unwindM, matchM, withDeposit, matchD]): Pipeline => [
  lookup(local, 'materials', 'm'),
  ...(unwindM ? [unwindM] : []),
  ...(matchM ? [{ $match: matchM }] : []),
  ...(withDeposit ? [lookup('dep', 'deposits', 'd'), { $unwind: { path: '$d', preserveNullAndEmptyArrays: true } }, ...(matchD ? [{ $match: matchD }] : [])] : []),
]);
const headFilter = fc.option(fc.constantFrom<Doc>({ q: { $gt: 0 } }, { q: { $ne: 2 } }), { nil: undefined });

describe('a count over join keys', () => {
  it('counts what mingo counts over the documents, from the keys grouped in SQL', async () => {
    let run = 0;
    let inSql = 0;
    await fc.assert(fc.asyncProperty(fc.array(doc, { maxLength: 30 }), fc.array(material, { maxLength: 5 }), fc.array(deposit, { maxLength: 3 }), stageRuns, headFilter,
      async (docs, materials, deposits, stages, filter) => {
        run++;
        const coll = `k${run}`;
        await store.ensureCollection({ name: coll, uniqueKeys: [], indexes: ['mat', 'dep', 'o.k', 'q'] });
        await store.insertMany(coll, docs.map((d) => structuredClone(d)));
        await store.insertMany(`materials${run}`, materials.map((m) => ({ ...m })));
        await store.insertMany(`deposits${run}`, deposits.map((d) => ({ ...d })));
        const named = JSON.parse(JSON.stringify(stages).replace(/"materials"/g, `"materials${run}"`).replace(/"deposits"/g, `"deposits${run}"`)) as Pipeline;
        const pipeline: Pipeline = [{ $match: filter ?? {} }, { $sort: { q: 1 } }, ...named, { $count: 'n' }];
        const from = prepared.length;
        const counted = await store.aggregate(coll, pipeline);
        const sql = prepared.slice(from);
        if (sql.some((q) => q.includes('HAVING count(*) > 0'))) {
          inSql++;
          expect(sql.some((q) => /SELECT doc\b/.test(q) && q.includes(`"${coll}"`))).toBe(false);
        }
        const all = { [`materials${run}`]: await store.find(`materials${run}`), [`deposits${run}`]: await store.find(`deposits${run}`) };
        const reference = new Aggregator(pipeline, { ...MINGO_OPTIONS, collectionResolver: (name: string) => all[name] ?? [] }).run(await store.find(coll)) as Doc[];
        // mingo's $count answers {n: 0} for no row where MongoDB (and the store) answer nothing.
        expect(counted).toEqual(reference.filter((r) => r.n !== 0));
      }), { numRuns: 150 });
    // Most runs have keys SQL groups (no list in a key path): the fast path is what was compared.
    expect(inSql).toBeGreaterThan(50);
  });

  it('takes only lookups, unwinds and matches of what a join wrote, up to the $count', () => {
    const joinMat = lookup('material', 'material', 'm');
    expect(keyedStages([joinMat, { $unwind: '$m' }, { $match: { 'm.raw': { $ne: true } } }])).toEqual({ keys: ['material'], length: 3 });
    // A join on a field a join wrote needs no key of its own.
    expect(keyedStages([joinMat, lookup('m.site', 'site', 's'), { $project: { a: 1 } }])).toEqual({ keys: ['material'], length: 2 });
    // A match or unwind of a stored field depends on more than the keys: the run stops there.
    expect(keyedStages([joinMat, { $match: { quantity: { $gt: 0 } } }])).toEqual({ keys: ['material'], length: 1 });
    expect(keyedStages([{ $unwind: '$lines' }, joinMat])).toBeUndefined();
    expect(keyedStages([joinMat, { $match: { $expr: { $eq: ['$m.raw', true] } } }])).toEqual({ keys: ['material'], length: 1 });
    expect(keyedStages([{ $lookup: { from: 'x', localField: 'a', foreignField: 'id', as: 'o.x' } }])).toBeUndefined();
    expect(keyedCount([joinMat, { $count: 'n' }])?.group).toEqual({ $group: { _id: '$material', n: { $sum: 1 } } });
    expect(keyedCount([joinMat, { $match: { q: 1 } }, { $count: 'n' }])).toBeUndefined();
    expect(keyedCount([joinMat, { $limit: 10 }, { $count: 'n' }])).toBeUndefined();
    // The weight's name is one no stage reads or writes.
    expect(keyedCount([lookup('n', 'material', 'm'), { $count: 'c' }])?.group).toEqual({ $group: { _id: '$n', _n: { $sum: 1 } } });
  });
});
