/** Aggregation part of the store contract (see contract.ts): the stages reports use. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from './contract.js';
import { companies } from './contract.js';
import type { Doc, Pipeline, StoredDoc } from './types.js';
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
}
