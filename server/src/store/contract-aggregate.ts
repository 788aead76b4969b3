/** Aggregation part of the store contract (see contract.ts): the stages reports use. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from './contract.js';
import { companies } from './contract.js';
import type { Doc, Filter, JsonValue, Pipeline, SortSpec, Store, StoredDoc } from './types.js';
import { validatePipeline } from './validate.js';

export const HOSTILE_PIPELINES: unknown[] = [
  [{ $out: 'stolen' }],
  [{ $merge: { into: 'stolen' } }],
  [{ $match: { $where: 'true' } }],
  [{ $project: { x: { $function: { body: 'return 1', args: [], lang: 'js' } } } }],
  [{ $group: { _id: null, x: { $accumulator: { init: 'function(){}', accumulate: 'x', merge: 'y', lang: 'js' } } } }],
  [{ $lookup: { from: 'companies', let: { a: '$a' }, pipeline: [{ $match: { $expr: true } }], as: 'x' } }],
  [{ $lookup: { from: '../etc', localField: 'a', foreignField: 'b', as: 'x' } }],
  [{ $unionWith: 'other' }],
  [{ $graphLookup: {} }],
  [{ $match: { a: 1 }, $limit: 1 }],
  [{ $limit: -1 }],
  [{ $facet: { a: [{ $facet: { b: [] } }] } }],
  [{ $project: { '_uk': 1 } }],
  [{ $addFields: { x: '$_rev' } }],
  [{ $match: { _id: 'stored-id' } }],
  [{ $currentOp: {} }],
  { $match: {} },
];

export function aggregationContract(ctx: ContractContext): void {
  describe('aggregation', () => {
    let comps: string;
    let mats: string;
    let cs: StoredDoc[];
    let ms: StoredDoc[];
    const agg = (coll: string, p: Pipeline) => ctx.store().aggregate(coll, p);

    beforeAll(async () => {
      comps = ctx.fresh('agg_companies');
      mats = ctx.fresh('agg_materials');
      cs = await ctx.store().insertMany(comps, companies(20));
      ms = await ctx.store().insertMany(mats, Array.from({ length: 12 }, (_, i) => ({
        code: `M${String(i).padStart(2, '0')}`,
        companyId: i === 11 ? 'no-such-company' : cs[i % 5].id,
        kg: (i % 4) * 2.5,
        ingredients: i % 3 === 0 ? [] : [{ name: 'glyphosate', pct: 10 + i }, { name: i % 2 ? 'atrazine' : 'water', pct: 5 }],
      })));
    });

    it('groups with $match $group $sort: counts, sums and averages', async () => {
      const out = await agg(comps, [
        { $match: { state: 1 } },
        { $group: { _id: '$type', n: { $sum: 1 }, staff: { $sum: '$employees' }, avg: { $avg: '$employees' }, max: { $max: '$name' } } },
        { $sort: { _id: 1 } },
      ]);
      const active = cs.filter((c) => c.state === 1);
      const expected = [...new Set(active.map((c) => c.type as string))].sort().map((t) => {
        const g = active.filter((c) => c.type === t);
        const staff = g.reduce((a, c) => a + (c.employees as number), 0);
        return { _id: t, n: g.length, staff, avg: staff / g.length, max: g.map((c) => c.name as string).sort().at(-1) };
      });
      expect(out).toEqual(expected);
    });

    it('unwinds arrays with $unwind and groups their elements', async () => {
      const out = await agg(comps, [{ $unwind: '$tags' }, { $group: { _id: '$tags', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }]);
      const organic = cs.filter((c) => (c.tags as string[]).includes('organic')).length;
      expect(out).toEqual([{ _id: 'local', n: 20 - organic }, { _id: 'export', n: organic }, { _id: 'organic', n: organic }]);
      const kept = await agg(mats, [{ $unwind: { path: '$ingredients', preserveNullAndEmptyArrays: true } }, { $count: 'n' }]);
      expect(kept).toEqual([{ n: ms.reduce((a, m) => a + Math.max(1, (m.ingredients as Doc[]).length), 0) }]);
    });

    it('joins another collection with $lookup, then reshapes with $unwind and $project', async () => {
      const out = await agg(mats, [
        { $lookup: { from: comps, localField: 'companyId', foreignField: 'id', as: 'company' } },
        { $unwind: { path: '$company', preserveNullAndEmptyArrays: true } },
        { $project: { _id: 0, code: 1, company: '$company.name', city: '$company.address.city' } },
        { $sort: { code: 1 } },
      ]);
      expect(out).toEqual(ms.map((m) => {
        const c = cs.find((x) => x.id === m.companyId);
        return c ? { code: m.code, company: c.name, city: (c.address as Doc).city } : { code: m.code };
      }));
      const joined = await agg(mats, [
        { $match: { code: 'M01' } },
        { $lookup: { from: comps, localField: 'companyId', foreignField: 'id', as: 'company' } },
      ]);
      expect(joined).toEqual([{ ...ms[1], company: [cs[1]] }]);
    });

    it('returns empty joins for a $lookup into a collection that does not exist', async () => {
      const out = await agg(mats, [
        { $match: { code: 'M00' } },
        { $lookup: { from: ctx.fresh('nothing'), localField: 'companyId', foreignField: 'id', as: 'x' } },
        { $project: { _id: 0, code: 1, x: 1 } },
      ]);
      expect(out).toEqual([{ code: 'M00', x: [] }]);
    });

    it('counts with $count and pages with $sort $skip $limit', async () => {
      expect(await agg(comps, [{ $match: { type: 'lab' } }, { $count: 'total' }])).toEqual([{ total: 5 }]);
      expect(await agg(comps, [{ $match: { type: 'nothing' } }, { $count: 'total' }])).toEqual([]);
      const page = await agg(comps, [{ $sort: { employees: -1, name: 1 } }, { $skip: 3 }, { $limit: 4 }, { $project: { _id: 0, name: 1 } }]);
      const sorted = [...cs].sort((a, b) => (b.employees as number) - (a.employees as number) || String(a.name).localeCompare(String(b.name)));
      expect(page).toEqual(sorted.slice(3, 7).map((c) => ({ name: c.name })));
    });

    it('computes fields with $addFields and filters on them in a later $match', async () => {
      const out = await agg(mats, [
        { $addFields: { tons: { $divide: ['$kg', 1000] }, n: { $size: '$ingredients' } } },
        { $match: { n: { $gt: 0 }, tons: { $gte: 0.005 } } },
        { $project: { _id: 0, code: 1, tons: 1, n: 1 } },
        { $sort: { code: 1 } },
      ]);
      const expected = ms
        .map((m) => ({ code: m.code, tons: (m.kg as number) / 1000, n: (m.ingredients as Doc[]).length }))
        .filter((m) => m.n > 0 && m.tons >= 0.005);
      expect(out).toEqual(expected);
    });

    it('runs several sub-pipelines at once with $facet', async () => {
      const [out] = await agg(comps, [
        { $match: { state: 1 } },
        { $facet: {
          total: [{ $count: 'n' }],
          page: [{ $sort: { name: 1 } }, { $skip: 2 }, { $limit: 2 }, { $project: { _id: 0, name: 1 } }],
          byCity: [{ $group: { _id: '$address.city', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
        } },
      ]);
      const active = cs.filter((c) => c.state === 1).sort((a, b) => String(a.name).localeCompare(String(b.name)));
      const count = (city: string) => active.filter((c) => (c.address as Doc).city === city).length;
      expect(out).toEqual({
        total: [{ n: active.length }],
        page: active.slice(2, 4).map((c) => ({ name: c.name })),
        byCity: [{ _id: 'Córdoba', n: count('Córdoba') }, { _id: 'Rosario', n: count('Rosario') }],
      });
    });

    it('matches on id in a leading $match and on group keys (_id) after $group', async () => {
      expect(await agg(comps, [{ $match: { id: cs[3].id } }, { $project: { _id: 0, name: 1 } }])).toEqual([{ name: cs[3].name }]);
      const out = await agg(comps, [{ $group: { _id: '$type', n: { $sum: 1 } } }, { $match: { _id: 'lab' } }]);
      expect(out).toEqual([{ _id: 'lab', n: 5 }]);
      const docs = await agg(comps, [{ $match: { name: 'Company 004' } }]);
      expect(docs).toEqual([cs[4]]);
    });

    it('refuses hostile pipelines with INVALID_PIPELINE before touching the database', async () => {
      for (const p of HOSTILE_PIPELINES) {
        const label = JSON.stringify(p);
        expect(() => validatePipeline(p), label).toThrow(expect.objectContaining({ code: 'INVALID_PIPELINE' }));
        await expect(agg(comps, p as Pipeline), label).rejects.toMatchObject({ code: 'INVALID_PIPELINE' });
      }
      expect(await ctx.store().count(comps)).toBe(20);
    });
  });
  sortedAggregationContract(ctx);
  cursorContract(ctx);
}

/** Every batch of a cursor, each no larger than `size`, and all but the last exactly that size. */
async function batchesOf(store: Store, coll: string, pipeline: Pipeline, size: number): Promise<Doc[][]> {
  const out: Doc[][] = [];
  for await (const batch of store.aggregateCursor(coll, pipeline, { batchSize: size })) out.push(batch);
  out.slice(0, -1).forEach((b) => expect(b.length).toBe(size));
  if (out.length > 0) expect(out.at(-1)!.length).toBeGreaterThan(0);
  if (out.length > 0) expect(out.at(-1)!.length).toBeLessThanOrEqual(size);
  return out;
}

const MIXED: (JsonValue | undefined)[] = ['b', 3, null, true, 'B', -1.5, false, 'a', 10, '10', undefined];

/** Documents for sorting: strings, numbers with missing and null, mixed types, a dotted path, arrays to unwind. */
function sortable(n: number): Doc[] {
  return Array.from({ length: n }, (_, i) => {
    const mix = MIXED[i % MIXED.length];
    const qty = i % 6 === 0 ? undefined : i % 6 === 1 ? null : ((i * 37) % 23) - 5;
    return {
      seq: i,
      name: ['delta', 'Alpha', 'bravo', 'alpha', 'Charlie', 'echo', 'Bravo'][i % 7],
      group: ['north', 'south', 'east'][i % 3],
      ...(qty === undefined ? {} : { qty }),
      ...(mix === undefined ? {} : { mix }),
      ...(i % 4 === 0 ? {} : { lot: { code: `L${(i * 11) % 13}` } }),
      tags: Array.from({ length: i % 3 }, (_, k) => `t${(i + k) % 5}`),
    };
  });
}

/**
 * $sort, $skip and $limit right after a leading $match (the embedded store runs them in SQL):
 * the same documents in the same order as find() gives, which the paging contract pins to
 * MongoDB's order. MongoDB leaves ties of $sort unordered, so every sort here ends with id.
 */
function sortedAggregationContract(ctx: ContractContext): void {
  describe('aggregation: sort, skip and limit after the leading match', () => {
    let c: string;
    const sorts: SortSpec[] = [
      { name: 1, id: 1 }, { name: -1, id: 1 }, { qty: 1, id: 1 }, { qty: -1, id: 1 }, { mix: 1, id: 1 }, { mix: -1, id: 1 },
      { 'lot.code': 1, id: 1 }, { 'lot.code': -1, id: -1 }, { group: 1, qty: -1, name: 1, id: 1 }, { id: -1 },
    ];
    const filters: Filter[] = [{}, { seq: { $gte: 5 } }, { group: { $in: ['north', 'east'] }, qty: { $ne: null } }];

    beforeAll(async () => {
      c = ctx.fresh('agg_sorted');
      // Some sorted paths indexed, some not: both kinds of sort key.
      await ctx.store().ensureCollection({ name: c, uniqueKeys: [], indexes: ['qty', 'lot.code', 'group'] });
      await ctx.store().insertMany(c, sortable(60));
    });

    it('sorts on strings, numbers, missing and null, mixed types, dotted paths, descending and compound keys', async () => {
      const s = ctx.store();
      for (const sort of sorts) {
        for (const filter of filters) {
          const label = JSON.stringify({ sort, filter });
          const all = await s.find(c, { filter, sort });
          expect(await s.aggregate(c, [{ $match: filter }, { $sort: sort }]), label).toEqual(all);
          expect(await s.aggregate(c, [{ $match: filter }, { $sort: sort }, { $skip: 4 }, { $limit: 9 }]), label).toEqual(all.slice(4, 13));
          expect(await s.aggregate(c, [{ $match: filter }, { $sort: sort }, { $limit: 5 }, { $project: { _id: 0, seq: 1 } }]), label)
            .toEqual(all.slice(0, 5).map((d) => ({ seq: d.seq })));
        }
      }
      // Without a leading $match, and with several.
      expect(await s.aggregate(c, [{ $sort: { qty: -1, id: 1 } }, { $limit: 3 }])).toEqual(await s.find(c, { sort: { qty: -1 }, limit: 3 }));
      expect(await s.aggregate(c, [{ $match: { group: 'north' } }, { $match: { seq: { $lt: 30 } } }, { $sort: { name: 1, id: 1 } }, { $skip: 2 }]))
        .toEqual(await s.find(c, { filter: { group: 'north', seq: { $lt: 30 } }, sort: { name: 1 }, skip: 2 }));
    });

    it('applies runs of $skip and $limit in their order', async () => {
      const s = ctx.store();
      const all = await s.find(c, { sort: { seq: -1 } });
      const head: Pipeline = [{ $match: { seq: { $gte: 0 } } }, { $sort: { seq: -1 } }];
      expect(await s.aggregate(c, [...head, { $skip: 3 }, { $limit: 8 }, { $skip: 2 }, { $limit: 3 }])).toEqual(all.slice(5, 8));
      expect(await s.aggregate(c, [...head, { $limit: 8 }, { $skip: 2 }, { $limit: 20 }])).toEqual(all.slice(2, 8));
      expect(await s.aggregate(c, [...head, { $limit: 2 }, { $skip: 5 }])).toEqual([]);
      expect(await s.aggregate(c, [...head, { $skip: 100 }])).toEqual([]);
      expect(await s.aggregate(c, [...head, { $skip: 58 }, { $count: 'n' }])).toEqual([{ n: 2 }]);
    });

    it('limits after $unwind and $lookup, on the sorted documents', async () => {
      const s = ctx.store();
      const sorted = await s.find(c, { sort: { seq: 1 } });
      const unwound = sorted.flatMap((d) => (d.tags as string[]).map((t) => ({ seq: d.seq, tags: t })));
      expect(await s.aggregate(c, [{ $match: {} }, { $sort: { seq: 1 } }, { $unwind: '$tags' }, { $limit: 5 }, { $project: { _id: 0, seq: 1, tags: 1 } }]))
        .toEqual(unwound.slice(0, 5));
      expect(await s.aggregate(c, [{ $unwind: '$tags' }, { $limit: 4 }, { $count: 'n' }])).toEqual([{ n: 4 }]);
      const joined = await s.aggregate(c, [
        { $match: { group: 'east' } }, { $sort: { seq: -1 } }, { $limit: 2 },
        { $lookup: { from: c, localField: 'name', foreignField: 'name', as: 'same' } },
        { $project: { _id: 0, seq: 1, n: { $size: '$same' } } },
      ]);
      const count = (name: JsonValue) => sorted.filter((d) => d.name === name).length;
      const east = sorted.filter((d) => d.group === 'east').reverse().slice(0, 2);
      expect(joined).toEqual(east.map((d) => ({ seq: d.seq, n: count(d.name) })));
    });
  });
}

/** aggregateCursor: batches that add up to aggregate(), early exit, validation. */
function cursorContract(ctx: ContractContext): void {
  describe('aggregation cursor', () => {
    let c: string;

    beforeAll(async () => {
      c = ctx.fresh('agg_cursor');
      await ctx.store().ensureCollection({ name: c, uniqueKeys: [], indexes: ['qty'] });
      await ctx.store().insertMany(c, sortable(45));
    });

    it('hands out batches of batchSize whose concatenation equals aggregate', async () => {
      const s = ctx.store();
      const pipelines: Pipeline[] = [
        [{ $match: {} }, { $sort: { seq: 1 } }],
        [{ $match: { group: 'north' } }, { $sort: { qty: -1, id: 1 } }, { $skip: 2 }, { $limit: 9 }],
        [{ $sort: { seq: -1 } }, { $unwind: '$tags' }, { $project: { _id: 0, seq: 1, tags: 1 } }],
        [{ $group: { _id: '$group', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
        [{ $match: { seq: { $gte: 1000 } } }],
      ];
      for (const p of pipelines) {
        const expected = await s.aggregate(c, p);
        for (const size of [1, 7, 45, 1000]) {
          const batches = await batchesOf(s, c, p, size);
          expect(batches.flat(), JSON.stringify({ p, size })).toEqual(expected);
        }
      }
      expect(await batchesOf(s, c, [{ $match: { seq: -1 } }], 10)).toEqual([]);
      // The default batch size takes everything here in one batch.
      const all: Doc[][] = [];
      for await (const b of s.aggregateCursor(c, [{ $sort: { seq: 1 } }])) all.push(b);
      expect(all.map((b) => b.length)).toEqual([45]);
    });

    it('leaves the store usable after a cursor ends early', async () => {
      const s = ctx.store();
      const it = s.aggregateCursor(c, [{ $sort: { seq: 1 } }], { batchSize: 5 })[Symbol.asyncIterator]();
      const first = await it.next();
      expect((first.value as Doc[]).map((d) => d.seq)).toEqual([0, 1, 2, 3, 4]);
      await it.return?.();
      expect((await it.next()).done).toBe(true);
      for await (const batch of s.aggregateCursor(c, [{ $match: { group: 'south' } }, { $unwind: '$tags' }], { batchSize: 2 })) {
        expect(batch).toHaveLength(2);
        break;
      }
      // Writes and reads go through once the cursors are done.
      const doc = await s.insert(c, { seq: 1000, name: 'late' });
      await s.patch(c, doc.id, { name: 'later' });
      expect(await s.aggregate(c, [{ $match: { seq: 1000 } }, { $project: { _id: 0, name: 1 } }])).toEqual([{ name: 'later' }]);
      expect(await s.delete(c, doc.id)).toBe(true);
      expect(await s.count(c)).toBe(45);
    });

    it('refuses invalid pipelines and batch sizes when iteration starts', async () => {
      const s = ctx.store();
      const first = (p: unknown, options?: { batchSize?: number }) =>
        s.aggregateCursor(c, p as Pipeline, options)[Symbol.asyncIterator]().next();
      for (const p of HOSTILE_PIPELINES) await expect(first(p), JSON.stringify(p)).rejects.toMatchObject({ code: 'INVALID_PIPELINE' });
      for (const batchSize of [0, -1, 1.5, Number.NaN]) {
        await expect(first([], { batchSize }), String(batchSize)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
      expect(await s.count(c)).toBe(45);
    });
  });
}
