/** Filter part of the store contract (see contract.ts). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from './contract.js';
import { companies } from './contract.js';
import type { Doc, Filter, StoredDoc } from './types.js';
import { validateFilter } from './validate.js';

/** Shapes chosen to hit MongoDB's corner cases: arrays, nulls, missing fields, mixed types. */
const SAMPLE: Doc[] = [
  { name: 'a', n: 1, s: 'Alpha', tags: ['x', 'y'], o: { k: 1 }, lines: [{ sku: 'p1', q: 2 }, { sku: 'p2', q: 5 }], flag: true },
  { name: 'b', n: 2, s: 'beta', tags: ['y'], o: { k: 2 }, lines: [{ sku: 'p2', q: 1 }], flag: false },
  { name: 'c', n: 3, s: 'Gamma ñandú', tags: [], o: { k: null } },
  { name: 'd', n: null, s: 'delta', tags: ['z'] },
  { name: 'e', s: 'ÉPSILON' },
  { name: 'f', n: '2', s: 'alphabet' },
  { name: 'g', n: 2.5, o: 'scalar' },
];

export const HOSTILE_FILTERS: unknown[] = [
  { $where: 'this.n > 1' },
  { $expr: { $gt: ['$n', 1] } },
  { n: { $where: 'true' } },
  { n: { $function: { body: 'return true', args: [], lang: 'js' } } },
  { $gt: '' },
  { name: { $foo: 1 } },
  { 'a.$b': 1 },
  { $text: { $search: 'x' } },
  { name: { a: 1 } },
  { name: { $gt: '', other: 1 } },
  { name: { $in: 'abc' } },
  { name: { $regex: '(' } },
  { name: { $regex: 'a', $options: 'x' } },
  { name: { $options: 'i' } },
  { name: { $exists: 'yes' } },
  { name: { $elemMatch: { a: 1 } } },
  { name: { $not: 'x' } },
  { name: { $gt: null } },
  { $or: [] },
  { $or: { a: 1 } },
  { _id: 'x' },
  { '_uk.cuit': 'x' },
  { '': 1 },
  { 'a..b': 1 },
  { name: [1, 2] },
  { name: { $eq: { $gt: 1 } } },
  { n: Number.NaN },
  { name: /abc/ },
  'name = 1',
  [],
  JSON.parse('{"__proto__": {"x": 1}, "a": {"$ne": 1}, "b": {"$foo": 1}}'),
  Array.from({ length: 40 }).reduce((f: unknown) => ({ $and: [f] }), { a: 1 }),
];

export function filterContract(ctx: ContractContext): void {
  describe('filters', () => {
    let c: string;
    let ids: Record<string, string>;
    const names = async (filter: Filter) =>
      (await ctx.store().find(c, { filter, sort: { name: 1 } })).map((d: StoredDoc) => d.name).join('');

    beforeAll(async () => {
      c = ctx.fresh('filters');
      const docs = await ctx.store().insertMany(c, SAMPLE);
      ids = Object.fromEntries(docs.map((d) => [d.name as string, d.id]));
    });

    it('matches equality on fields, dotted paths, array elements and arrays of subdocuments', async () => {
      expect(await names({ s: 'beta' })).toBe('b');
      expect(await names({ 'o.k': 1 })).toBe('a');
      expect(await names({ tags: 'y' })).toBe('ab');
      expect(await names({ 'lines.sku': 'p2' })).toBe('ab');
      expect(await names({ 'lines.q': 1, 'lines.sku': 'p2' })).toBe('b');
      expect(await names({ n: 2 })).toBe('b');
      expect(await names({ n: '2' })).toBe('f');
      expect(await names({ n: { $eq: 2.5 } })).toBe('g');
    });

    it('treats null as equal to null or missing', async () => {
      expect(await names({ n: null })).toBe('de');
      expect(await names({ 'o.k': null })).toBe('cdefg');
      expect(await names({ n: { $ne: null } })).toBe('abcfg');
    });

    it('matches $ne and $nin on missing fields too', async () => {
      expect(await names({ n: { $ne: 2 } })).toBe('acdefg');
      expect(await names({ n: { $nin: [1, 2] } })).toBe('cdefg');
      expect(await names({ tags: { $nin: ['y'] } })).toBe('cdefg');
      expect(await names({ tags: { $ne: 'x' } })).toBe('bcdefg');
    });

    it('compares with $gt $gte $lt $lte only within the same type', async () => {
      expect(await names({ n: { $gt: 1 } })).toBe('bcg');
      expect(await names({ n: { $gte: 2 } })).toBe('bcg');
      expect(await names({ n: { $lt: 2.5 } })).toBe('ab');
      expect(await names({ n: { $lte: 2.5 } })).toBe('abg');
      expect(await names({ n: { $gt: 1, $lt: 3 } })).toBe('bg');
      expect(await names({ s: { $gte: 'a', $lt: 'c' } })).toBe('bf');
      expect(await names({ n: { $gt: '1' } })).toBe('f');
      expect(await names({ flag: { $gt: false } })).toBe('a');
      expect(await names({ 'lines.q': { $gt: 4 } })).toBe('a');
    });

    it('matches $in against values, null and array elements', async () => {
      expect(await names({ n: { $in: [1, '2', null] } })).toBe('adef');
      expect(await names({ tags: { $in: ['z', 'x'] } })).toBe('ad');
      expect(await names({ n: { $in: [] } })).toBe('');
      expect(await names({ flag: { $in: [false] } })).toBe('b');
    });

    it('tells existing (even null) from missing with $exists', async () => {
      expect(await names({ n: { $exists: true } })).toBe('abcdfg');
      expect(await names({ n: { $exists: false } })).toBe('e');
      expect(await names({ 'o.k': { $exists: true } })).toBe('abc');
    });

    it('searches with $regex, case-insensitive with $options i, on strings and string array elements', async () => {
      expect(await names({ s: { $regex: 'alpha', $options: 'i' } })).toBe('af');
      expect(await names({ s: { $regex: 'alpha' } })).toBe('f');
      expect(await names({ s: { $regex: '^g', $options: 'i' } })).toBe('c');
      expect(await names({ s: { $regex: 'ÑAND', $options: 'i' } })).toBe('c');
      expect(await names({ tags: { $regex: '^x' } })).toBe('a');
    });

    it('never matches numbers or empty arrays with $regex', async (t) => {
      ctx.requires(t, 'regex-matches-only-strings');
      expect(await names({ n: { $regex: '2' } })).toBe('f');
      expect(await names({ tags: { $regex: '.' } })).toBe('abd');
    });

    it('finds no value below an empty array, so $exists false matches it', async (t) => {
      ctx.requires(t, 'exists-through-empty-arrays');
      expect(await names({ 'tags.x': { $exists: false } })).toBe('abcdefg');
      expect(await names({ 'tags.x': { $exists: true } })).toBe('');
    });

    it('combines conditions with $and, $or, $nor and $not', async () => {
      expect(await names({ $or: [{ n: 1 }, { s: 'beta' }] })).toBe('ab');
      expect(await names({ $and: [{ n: { $gte: 1 } }, { n: { $lte: 2 } }] })).toBe('ab');
      expect(await names({ $nor: [{ n: { $exists: false } }, { n: null }] })).toBe('abcfg');
      expect(await names({ n: { $not: { $gt: 1 } } })).toBe('adef');
      expect(await names({ s: { $not: { $regex: 'a$' } } })).toBe('cefg');
      expect(await names({ tags: 'y', $or: [{ flag: true }, { n: 3 }] })).toBe('a');
    });

    it('negates a condition on an array as a whole with $not: no element may match', async (t) => {
      ctx.requires(t, 'not-over-arrays');
      expect(await names({ 'lines.q': { $not: { $gt: 1 } } })).toBe('bcdefg');
      expect(await names({ tags: { $not: { $regex: 'x' } } })).toBe('bcdefg');
    });

    it('filters on id like any other field', async () => {
      expect(await names({ id: ids.c })).toBe('c');
      expect(await names({ id: { $in: [ids.a, ids.g, 'nope'] } })).toBe('ag');
      expect(await names({ id: { $ne: ids.a } })).toBe('bcdefg');
      expect(await names({ id: 5 })).toBe('');
      expect(await names({ id: { $gt: ids.e } })).toBe('fg');
    });

    it('keeps paging and counts exact when a filter needs array semantics', async () => {
      const s = ctx.store();
      const filter = { tags: { $in: ['x', 'y', 'z'] } };
      expect(await s.count(c, filter)).toBe(3);
      const page = await s.find(c, { filter, sort: { name: -1 }, skip: 1, limit: 1 });
      expect(page.map((d) => d.name)).toEqual(['b']);
    });

    it('serves a typical list query: search several fields, exclude disabled, sort and page', async () => {
      const s = ctx.store();
      const list = ctx.fresh('list');
      await s.ensureCollection({ name: list, uniqueKeys: [['cuit']], indexes: ['name', 'cuit', 'state'] });
      await s.insertMany(list, companies(60));
      const q = { $regex: 'COMPANY 05|-1000001', $options: 'i' };
      const filter = { state: { $ne: 3 }, $or: [{ name: q }, { cuit: q }] };
      expect(await s.count(list, filter)).toBe(16);
      const page = await s.find(list, { filter, sort: { name: -1 }, skip: 2, limit: 3 });
      expect(page.map((d) => d.name)).toEqual(['Company 057', 'Company 056', 'Company 054']);
    });

    it('counts an equality and a range over a compound index as over none, documents written before it included; refuses a compound index of one path', async () => {
      const s = ctx.store();
      const jobs = ctx.fresh('jobs');
      const docs = Array.from({ length: 40 }, (_, i) => ({ id: `j${String(i).padStart(2, '0')}`, state: ['open', 'done', 'failed'][i % 3], deadline: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, ...(i % 7 ? { soon: `2026-01-${String((i % 20) + 1).padStart(2, '0')}` } : {}) }));
      await s.insertMany(jobs, docs.slice(0, 20));
      await s.ensureCollection({ name: jobs, uniqueKeys: [], indexes: ['state'], compoundIndexes: [['state', 'deadline', 'soon']] });
      await s.insertMany(jobs, docs.slice(20));
      const filters: Filter[] = [
        { state: { $in: ['open', 'failed'] }, deadline: { $lte: '2026-01-10' } },
        { state: { $in: ['open', 'failed'] }, soon: { $lte: '2026-01-08' }, deadline: { $gt: '2026-01-08' } },
        { state: 'done', deadline: { $gt: '2026-01-20' } },
      ];
      for (const f of filters) {
        const expected = docs.filter((d) => ((f.state as { $in?: string[] }).$in ?? [f.state]).includes(d.state)
          && Object.entries(f).every(([k, cond]) => k === 'state' || Object.entries(cond as Record<string, string>).every(([op, v]) => {
            const x = (d as Record<string, string | undefined>)[k];
            return x !== undefined && (op === '$lte' ? x <= v : x > v);
          }))).length;
        expect(await s.count(jobs, f), JSON.stringify(f)).toBe(expected);
      }
      await expect(s.ensureCollection({ name: jobs, uniqueKeys: [], indexes: [], compoundIndexes: [['state']] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('refuses hostile or unsupported filters with INVALID_FILTER before touching the database', async () => {
      const s = ctx.store();
      const untouched = ctx.fresh('hostile');
      for (const f of HOSTILE_FILTERS) {
        const label = JSON.stringify(f) ?? String(f);
        expect(() => validateFilter(f), label).toThrow(expect.objectContaining({ code: 'INVALID_FILTER' }));
        await expect(s.find(c, { filter: f as Filter }), label).rejects.toMatchObject({ code: 'INVALID_FILTER' });
        await expect(s.count(untouched, f as Filter), label).rejects.toMatchObject({ code: 'INVALID_FILTER' });
        await expect(s.aggregate(c, [{ $match: f as Filter }]), label).rejects.toMatchObject({ code: 'INVALID_PIPELINE' });
      }
      expect(await s.count(c)).toBe(SAMPLE.length);
    });
  });
}
