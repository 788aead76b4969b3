/**
 * Stages that depend on join keys alone (sqlite-keyed.ts) counted once per key: the count must
 * be mingo's over the whole documents, whatever the keys hold (text, numbers, null, missing,
 * booleans, documents; a list leaves SQL's grouping and the documents are read), the
 * joins match (one foreign document, several, none) and the matches keep or drop. And SQL is
 * asked: the key group is the statement read, no document's JSON. A whole read leaves out the
 * documents whose key makes no row and still gives mingo's rows, in mingo's order.
 */
import fc from 'fast-check';
import { Aggregator } from 'mingo';
import { describe, expect, it } from 'vitest';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import { keyedCount, keyedDrop, keyedStages } from './sqlite-keyed.js';
import { spiedStore } from './sqlite-spy.js';
import type { Doc, Pipeline } from './types.js';

const t = spiedStore('store-keyed-');

const key = fc.oneof(
  { arbitrary: fc.constantFrom('m1', 'm2', 'm3', 'nobody'), weight: 4 }, { arbitrary: fc.constantFrom(1, 1.5), weight: 1 }, { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.boolean(), weight: 1 }, { arbitrary: fc.constant({ z: 1 }), weight: 1 },
);
/** A foreign key may be a list (it matches each of its values); a local list is the test further down. */
const code = fc.oneof({ arbitrary: key, weight: 6 }, { arbitrary: fc.constant(['m1', 'm3']), weight: 1 });
/** Without its undefined fields (a missing field). */
const defined = (d: Record<string, unknown>): Doc => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as Doc;
const doc = fc.record({ mat: key, dep: key, q: fc.integer({ min: -2, max: 3 }), o: fc.oneof(fc.record({ k: key }).map(defined), fc.constant(undefined)) }).map(defined);
/** Materials (a code shared by two, one without a code, raw or not) and deposits, looked up by their code. */
const material = fc.record({ code, raw: fc.oneof(fc.boolean(), fc.constant(undefined)), kind: fc.constantFrom('a', 'b') }).map(defined);
const deposit = fc.record({ code, cls: fc.constantFrom('internal', 'external') }).map(defined);

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
/** Stages that drop rows by one key (the material's), then a join that drops none. */
const dropRuns = fc.tuple(
  fc.constantFrom('mat', 'o.k'),
  fc.constantFrom<Pipeline>([{ $unwind: '$m' }], [{ $match: { 'm.raw': { $ne: true } } }], [{ $unwind: { path: '$m', preserveNullAndEmptyArrays: true } }, { $match: { 'm.raw': true } }], [{ $match: { $or: [{ 'm.kind': 'a' }, { 'm.raw': { $exists: false } }] } }]),
  fc.boolean(),
).map(([local, drop, withDeposit]): Pipeline => [
  lookup(local, 'materials', 'm'),
  ...drop,
  ...(withDeposit ? [lookup('dep', 'deposits', 'd'), { $unwind: { path: '$d', preserveNullAndEmptyArrays: true } }] : []),
]);
/** Some documents' keys are documents: SQL's group and mingo's equality are left to the stages there. */
const plainKey = key.filter((k) => typeof k !== 'object' || k === null);
const plainDoc = fc.record({ mat: plainKey, dep: key, q: fc.integer({ min: -2, max: 3 }), o: fc.oneof(fc.record({ k: plainKey }).map(defined), fc.constant(undefined)) }).map(defined);
const headFilter = fc.option(fc.constantFrom<Doc>({ q: { $gt: 0 } }, { q: { $ne: 2 } }), { nil: undefined });

/**
 * One run's collections: the documents (their keys indexed), the materials and deposits they
 * join, named for the run in the stages; and mingo's answer over the whole documents, read by id
 * (the store breaks a sort's ties by id; mingo keeps the order it reads).
 */
async function seed(coll: string, docs: Doc[], materials: Doc[], deposits: Doc[], stages: Pipeline) {
  await t.store.ensureCollection({ name: coll, uniqueKeys: [], indexes: ['mat', 'dep', 'o.k', 'q'] });
  await t.store.insertMany(coll, docs.map((d) => structuredClone(d)));
  await t.store.insertMany(`${coll}materials`, materials.map((m) => ({ ...m })));
  await t.store.insertMany(`${coll}deposits`, deposits.map((d) => ({ ...d })));
  const named = JSON.parse(JSON.stringify(stages).replace(/"materials"/g, `"${coll}materials"`).replace(/"deposits"/g, `"${coll}deposits"`)) as Pipeline;
  const mingo = async (pipeline: Pipeline): Promise<Doc[]> => {
    const all = { [`${coll}materials`]: await t.store.find(`${coll}materials`), [`${coll}deposits`]: await t.store.find(`${coll}deposits`) };
    return new Aggregator(pipeline, { ...MINGO_OPTIONS, collectionResolver: (name: string) => all[name] ?? [] }).run(await t.store.find(coll, { sort: { id: 1 } })) as Doc[];
  };
  return { named, mingo };
}

describe('a count over join keys', () => {
  it('counts what mingo counts over the documents, from the keys grouped in SQL', async () => {
    let run = 0;
    let inSql = 0;
    await fc.assert(fc.asyncProperty(fc.array(doc, { maxLength: 30 }), fc.array(material, { maxLength: 5 }), fc.array(deposit, { maxLength: 3 }), stageRuns, headFilter,
      async (docs, materials, deposits, stages, filter) => {
        run++;
        const coll = `k${run}`;
        const { named, mingo } = await seed(coll, docs, materials, deposits, stages);
        const pipeline: Pipeline = [{ $match: filter ?? {} }, { $sort: { q: 1 } }, ...named, { $count: 'n' }];
        const from = t.prepared.length;
        const counted = await t.store.aggregate(coll, pipeline);
        const sql = t.prepared.slice(from);
        if (sql.some((q) => q.includes('HAVING count(*) > 0'))) {
          inSql++;
          expect(sql.some((q) => /SELECT doc\b/.test(q) && q.includes(`"${coll}"`))).toBe(false);
        }
        const reference = await mingo(pipeline);
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

  it('reads whole what mingo makes of the documents, those whose key makes no row left out in SQL', async () => {
    let run = 0;
    let dropped = 0;
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(doc, plainDoc, plainDoc), { maxLength: 20 }), fc.array(material, { maxLength: 5 }), fc.array(deposit, { maxLength: 3 }), fc.oneof(stageRuns, dropRuns, dropRuns), fc.constantFrom<Doc | undefined>(undefined, undefined, { q: { $gt: 0 } }), fc.constantFrom(false, false, true),
      async (docs, materials, deposits, stages, filter, paged) => {
        run++;
        const coll = `w${run}`;
        const { named, mingo } = await seed(coll, docs, materials, deposits, stages);
        // Sorted and read whole (an export), or a page cut in SQL, which counts documents: no drop there.
        const pipeline: Pipeline = [{ $match: filter ?? {} }, { $sort: { q: -1 } }, ...(paged ? [{ $limit: 7 }] : []), ...named,
          { $project: { _id: 0, id: 1, q: 1, kind: '$m.kind', cls: '$d.cls' } }];
        const from = t.prepared.length;
        const rows = await t.store.aggregate(coll, pipeline);
        if (t.prepared.slice(from).some((q) => q.includes(`"${coll}"`) && /NOT ifnull\(\(?"k:(mat|o\.k)" (IN|IS)/.test(q))) {
          // Not for a page cut in SQL (it counts documents), nor behind a filter (the keys' group would read every row).
          expect(paged).toBe(false);
          expect(filter).toBeUndefined();
          dropped++;
        }
        expect(rows).toEqual(await mingo(pipeline));
      }), { numRuns: 100 });
    expect(dropped).toBeGreaterThanOrEqual(10);
  });

  it('drops only where the keyed stages may drop, on one key', () => {
    const joinMat = lookup('material', 'material', 'm');
    expect(keyedDrop([joinMat, { $unwind: { path: '$m', preserveNullAndEmptyArrays: true } }, { $project: { a: 1 } }])).toBeUndefined();
    expect(keyedDrop([joinMat, { $unwind: '$m' }, { $project: { a: 1 } }])?.stages).toEqual([joinMat, { $unwind: '$m' }]);
    const drop = keyedDrop([joinMat, { $match: { 'm.raw': true } }, lookup('dep', 'deposit', 'd'), { $unwind: { path: '$d', preserveNullAndEmptyArrays: true } }]);
    expect(drop?.stages).toEqual([joinMat, { $match: { 'm.raw': true } }]);
    // Document keys are left to the stages: SQL and mingo need not hold two documents equal alike.
    expect(drop?.filter([{ _id: 'a' }, { _id: null }, { _id: 2 }], new Set([0]))).toEqual({ material: { $nin: [null, 2] } });
    expect(drop?.filter([{ _id: { z: 1 } }, { _id: 'b' }], new Set([1]))).toBeUndefined();
    expect(drop?.filter([{ _id: 'a' }], new Set([0]))).toBeUndefined();
    expect(keyedDrop([joinMat, lookup('dep', 'deposit', 'd'), { $match: { 'd.cls': 'x' } }])).toBeUndefined();
  });

  it('leaves the documents to the stages past a thousand distinct keys, read no further than that in the keys\' group', async () => {
    await t.store.ensureCollection({ name: 'many', uniqueKeys: [], indexes: ['mat'] });
    await t.store.insertMany('many', Array.from({ length: 1200 }, (_, i) => ({ mat: `m${i}`, q: i })));
    await t.store.insertMany('manyMaterials', [{ code: 'm5' }, { code: 'm7' }]);
    const from = t.prepared.length;
    const rows = await t.store.aggregate('many', [{ $match: {} }, { $sort: { q: 1 } }, lookup('mat', 'manyMaterials', 'm'), { $unwind: '$m' }, { $project: { _id: 0, q: 1 } }]);
    expect(rows).toEqual([{ q: 5 }, { q: 7 }]);
    const sql = t.prepared.slice(from).filter((q) => q.includes('"many"'));
    expect(sql.some((q) => q.includes('GROUP BY "k:mat"') && q.endsWith('LIMIT 1001'))).toBe(true);
    expect(sql.some((q) => q.includes('NOT ifnull'))).toBe(false);
  });

  it('reads the documents where a key path has held a list, as before', async () => {
    // mingo joins a list's unmatched value as undefined, MongoDB and the store not at all: the
    // reference here is the store's own reading of the documents (a copy without key columns).
    const docs: Doc[] = [{ mat: ['m1', 'm3'] }, { mat: 'm1' }, { mat: ['m2'] }, {}];
    await t.store.ensureCollection({ name: 'listed', uniqueKeys: [], indexes: ['mat'] });
    await t.store.insertMany('listed', docs.map((d) => ({ ...d })));
    await t.store.insertMany('listedPlain', docs.map((d) => ({ ...d })));
    await t.store.insertMany('listedMaterials', [{ code: 'm1', raw: true }, { code: 'm3' }]);
    const pipeline: Pipeline = [{ $match: {} }, lookup('mat', 'listedMaterials', 'm'), { $unwind: '$m' }, { $match: { 'm.raw': { $ne: true } } }, { $count: 'n' }];
    const from = t.prepared.length;
    const counted = await t.store.aggregate('listed', pipeline);
    expect(t.prepared.slice(from).some((q) => q.includes('GROUP BY'))).toBe(false);
    expect(counted).toEqual(await t.store.aggregate('listedPlain', pipeline));
    expect(counted).toEqual([{ n: 1 }]);
  });
});
