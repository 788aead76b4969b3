/**
 * A `$group` the embedded store answers in SQL from key columns (sqlite-group.ts) gives what
 * the same group gives run over the parsed documents: random documents of mixed types (numbers
 * whole and not, text, booleans, null, missing, objects), random keys and accumulators, with
 * and without a leading filter, each compared with the same pipeline on a copy of the
 * collection without the columns (where mingo groups). And SQL is asked: the statement read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spiedStore } from './sqlite-spy.js';
import type { Doc, Pipeline } from './types.js';

const t = spiedStore('store-group-');
const PATHS = ['a', 'b', 'n', 'o.k'];

const value = fc.oneof(
  fc.constantFrom('x', 'y', 'Y', '', '10'), fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 2.25, -1.5, 1.0),
  fc.boolean(), fc.constant(null), fc.constant(undefined), fc.record({ z: fc.constantFrom(1, 'q') }),
);
/** Without its undefined fields (a missing field), at any depth. */
const defined = (d: Record<string, unknown>): Doc => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)
  .map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? defined(v as Record<string, unknown>) : v])) as Doc;
const doc = fc.record({ a: value, b: value, n: value, o: fc.oneof(fc.record({ k: value }), fc.constant(undefined)) }).map(defined);
const ref = fc.constantFrom(...PATHS.map((p) => `$${p}`));
const groupSpec = fc.record({
  _id: fc.oneof(fc.constant(null), ref, fc.record({ k: ref, s: ref })),
  count: fc.constant({ $sum: 1 }),
  twice: fc.constant({ $sum: 2 }),
  total: ref.map((r) => ({ $sum: r })),
  label: fc.constantFrom({ $first: null }, { $first: 'a label' }),
}).map((g) => {
  // A path the group is keyed by, taken first (every row of the group holds the key's value there).
  const keyed = g._id === null ? null : typeof g._id === 'string' ? g._id : g._id.k;
  return { ...g, keyed: { $first: keyed } };
});
const filter = fc.option(fc.constantFrom<Doc>({ n: { $gt: 0 } }, { a: { $in: ['x', 'y'] } }, { b: { $ne: null } }), { nil: undefined });

/** Groups as comparable: sorted by their key, numbers as they print (a SQL total is a float). */
const canonical = (docs: Doc[]) => docs.map((d) => JSON.stringify(d, (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v))).sort();

describe('a $group answered in SQL from key columns', () => {
  it('groups, counts and sums as over the documents; a path it is keyed by taken first', async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(doc, { maxLength: 40 }), groupSpec, filter, async (docs, spec, match) => {
      run++;
      const indexed = `g${run}`;
      const plain = `p${run}`;
      await t.store.ensureCollection({ name: indexed, uniqueKeys: [], indexes: PATHS });
      await t.store.insertMany(indexed, docs.map((d) => ({ ...d })));
      await t.store.insertMany(plain, docs.map((d) => ({ ...d })));
      const pipeline: Pipeline = [...(match ? [{ $match: match }] : []), { $group: spec }, { $sort: { count: -1 } }];
      const from = t.prepared.length;
      const inSql = await t.store.aggregate(indexed, pipeline);
      expect(t.prepared.slice(from).some((q) => q.includes('GROUP BY') || q.includes('HAVING count(*) > 0'))).toBe(true);
      expect(canonical(inSql)).toEqual(canonical(await t.store.aggregate(plain, pipeline)));
    }), { numRuns: 120 });
  });

  it('reads a compound index that starts with the keys and holds every path read, whatever range index the filter could take', async () => {
    const docs: Doc[] = Array.from({ length: 300 }, (_, i) => ({ deposit: `d${i % 7}`, quantity: (i % 11) - 2, ...(i % 45 === 1 ? {} : { unit: i % 50 === 0 ? null : i % 3 ? 'kg' : 'l' }) }));
    await t.store.ensureCollection({ name: 'stock', uniqueKeys: [], indexes: ['quantity'], compoundIndexes: [['deposit', 'unit', 'quantity']] });
    await t.store.insertMany('stock', docs);
    await t.store.insertMany('stock_plain', docs);
    const pipeline = [{ $match: { quantity: { $gt: 0 } } }, { $group: { _id: { k: '$deposit', s: '$unit' }, v: { $sum: '$quantity' } } }];
    const from = t.prepared.length;
    const grouped = await t.store.aggregate('stock', pipeline);
    expect(t.prepared.slice(from).some((q) => q.includes('INDEXED BY "i:stock:deposit+unit+quantity"'))).toBe(true);
    expect(canonical(grouped)).toEqual(canonical(await t.store.aggregate('stock_plain', pipeline)));
    // The null units are a group of their own, apart from the rows without a unit.
    expect(grouped.some((g) => (g._id as Doc).s === null)).toBe(true);
    expect(grouped.some((g) => !('s' in (g._id as Doc)))).toBe(true);
  });

  it('leaves to the documents a path that has held an array, and an accumulator SQL does not take', async () => {
    await t.store.ensureCollection({ name: 'arr', uniqueKeys: [], indexes: ['a', 'n'] });
    await t.store.insertMany('arr', [{ a: ['x', 'y'], n: 1 }, { a: 'x', n: 2 }, { a: 'y', n: 3 }]);
    for (const group of [{ _id: '$a', v: { $sum: '$n' } }, { _id: '$n', v: { $push: '$n' } }, { _id: '$n', v: { $first: '$a' } }, { _id: '$n', v: { $min: '$n' } }]) {
      const from = t.prepared.length;
      const out = await t.store.aggregate('arr', [{ $group: group }]);
      expect(t.prepared.slice(from).some((q) => q.includes('HAVING count(*) > 0')), JSON.stringify(group)).toBe(false);
      expect(out.length).toBeGreaterThan(0);
    }
    // No documents matched: no group at all, as MongoDB answers (not one group of nothing).
    await t.store.ensureCollection({ name: 'none', uniqueKeys: [], indexes: ['n'] });
    await t.store.insertMany('none', [{ n: 1 }]);
    expect(await t.store.aggregate('none', [{ $match: { n: 5 } }, { $group: { _id: null, c: { $sum: 1 } } }])).toEqual([]);
  });
});
