/**
 * A record's lines unwound, joined and grouped back by `$id` in one pass (sqlite-lines.ts): the
 * groups must be mingo's over the whole records, whatever the lines hold (a list, one value, none,
 * null, an empty list), whatever the joins find (one, several, none; kept or dropped), whichever
 * accumulators read the record, a line or both, and when records next to each other share an
 * id (or have none). And only that shape is taken.
 */
import fc from 'fast-check';
import { Aggregator } from 'mingo';
import { describe, expect, it } from 'vitest';
import { PipelineStream } from './sqlite-aggregate.js';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import type { ForeignReader } from './sqlite-join.js';
import { exprReads, regroupedLines } from './sqlite-lines.js';
import type { Doc, Pipeline } from './types.js';

type Rec = Record<string, unknown>;

/** Without its undefined fields (a missing field). */
const defined = (d: Rec): Rec => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
const code = fc.oneof({ arbitrary: fc.constantFrom('m1', 'm2', 'm3', 'nobody'), weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.constant(undefined), weight: 1 });
const line = fc.record({ mat: code, amount: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant(undefined), fc.constant('7')) }).map(defined);
const lines = fc.oneof(
  { arbitrary: fc.array(line, { maxLength: 4 }), weight: 6 },
  { arbitrary: line, weight: 1 },
  { arbitrary: fc.constantFrom(null, undefined, 'one'), weight: 1 },
);
/** Ids from a small set (neighbours share one), or none. */
const record = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', null, undefined), q: fc.integer({ min: 0, max: 5 }), dep: code, lines, note: fc.constantFrom('x', undefined) }).map(defined);
const material = fc.record({ code: fc.oneof(code, fc.constant(['m1', 'm3'])), name: fc.constantFrom('A', 'B'), raw: fc.oneof(fc.boolean(), fc.constant(undefined)) }).map(defined);
const deposit = fc.record({ code, cls: fc.constantFrom('internal', 'external') }).map(defined);

const unwind = (path: string) => fc.constantFrom<Rec>({ $unwind: `$${path}` }, { $unwind: { path: `$${path}`, preserveNullAndEmptyArrays: true } });
const lookup = (localField: string, from: string, as: string): Rec => ({ $lookup: { from, localField, foreignField: 'code', as } });
/** Accumulators of the record's fields, of a line's, of both, and of what a join wrote. */
const accumulators = fc.subarray<[string, Rec]>([
  ['q', { $first: '$q' }], ['note', { $first: '$note' }], ['depCls', { $first: '$d.cls' }], ['n', { $sum: 1 }],
  ['total', { $sum: '$lines.amount' }], ['lastQ', { $last: '$q' }], ['firstMat', { $first: '$lines.mat' }], ['maxAmount', { $max: '$lines.amount' }],
  ['items', { $push: { mat: '$lines.mat', name: '$m.name', q: '$q' } }], ['names', { $push: { $ifNull: ['$m.name', '-'] } }],
]).map((picked) => Object.fromEntries(picked) as Rec);
const stages = fc.tuple(unwind('lines'), fc.option(unwind('m'), { nil: undefined }), fc.boolean(), fc.option(unwind('d'), { nil: undefined }), accumulators)
  .map(([unwindLines, unwindM, withDeposit, unwindD, accs]): Pipeline => [
    unwindLines,
    lookup('lines.mat', 'materials', 'm'),
    ...(unwindM ? [unwindM] : []),
    ...(withDeposit ? [lookup('dep', 'deposits', 'd'), ...(unwindD ? [unwindD] : [])] : []),
    { $group: { _id: '$id', ...accs } },
  ]);

/** The documents of a collection whose field (or one of its elements) is one of `keys`, as the store's statement finds them. */
function reader(collections: Record<string, Rec[]>): ForeignReader {
  const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v ?? null]);
  return {
    matching: (name, field, keys) => (collections[name] ?? []).filter((d) => values(d[field]).some((v) => keys.includes(v ?? null))) as Doc[],
    all: (name) => (collections[name] ?? []) as Doc[],
  };
}

/** The rows of `rest` over `records` as the store runs them, from their JSON texts. */
function run(rest: Pipeline, records: Rec[], collections: Record<string, Rec[]>): Rec[] {
  const stream = new PipelineStream(rest, records.map((r) => JSON.stringify(r))[Symbol.iterator](), reader(collections));
  return stream.take(Number.MAX_SAFE_INTEGER);
}

/** Records with equal ids side by side (the store hands a record's rows out together; mingo groups equal ids wherever they are). */
const byId = (records: Rec[]) => [...records].sort((a, b) => String(a.id ?? '').localeCompare(String(b.id ?? '')));

describe('a record\'s lines regrouped in one pass', () => {
  it('makes the groups mingo makes of the whole records', () => {
    let fused = 0;
    fc.assert(fc.property(fc.array(record, { maxLength: 12 }), fc.array(material, { maxLength: 4 }), fc.array(deposit, { maxLength: 3 }), stages, (records, materials, deposits, rest) => {
      const collections = { materials, deposits };
      const sorted = byId(records);
      if (regroupedLines(rest, 0, new Date(), reader(collections), MINGO_OPTIONS, () => true)) fused++;
      const mingo = new Aggregator(rest, { ...MINGO_OPTIONS, collectionResolver: (name: string) => collections[name as keyof typeof collections] ?? [] }).run(structuredClone(sorted));
      expect(run(rest, sorted, collections)).toEqual(mingo);
    }), { numRuns: 400 });
    // Every generated pipeline has the shape: the one-pass way is what was compared.
    expect(fused).toBe(400);
  });

  it('takes an unwind, keyed joins and a $group by $id, and nothing else', () => {
    const at0 = (p: Pipeline) => regroupedLines(p, 0, new Date(), reader({}), MINGO_OPTIONS, () => true)?.end;
    const join = lookup('lines.mat', 'materials', 'm');
    const group = { $group: { _id: '$id', q: { $first: '$q' }, items: { $push: '$m.name' } } };
    expect(at0([{ $unwind: '$lines' }, join, { $unwind: '$m' }, group, { $project: { q: 1 } }])).toBe(3);
    expect(at0([{ $unwind: '$lines' }, group])).toBe(1);
    // Grouped by anything but the record's id, or with a stage between that is not a join.
    expect(at0([{ $unwind: '$lines' }, join, { $group: { ...group.$group, _id: '$q' } }])).toBeUndefined();
    expect(at0([{ $unwind: '$lines' }, { $match: { 'lines.mat': 'm1' } }, group])).toBeUndefined();
    // A nested array, a join writing the record's id, the lines, or into a document.
    expect(at0([{ $unwind: '$a.lines' }, group])).toBeUndefined();
    expect(at0([{ $unwind: '$lines' }, lookup('lines.mat', 'materials', 'id'), group])).toBeUndefined();
    expect(at0([{ $unwind: '$lines' }, lookup('lines.mat', 'materials', 'lines'), group])).toBeUndefined();
    expect(at0([{ $unwind: '$lines' }, lookup('lines.mat', 'materials', 'x.m'), group])).toBeUndefined();
    // A join keyed on a record's "__proto__" field (JSON.parse makes it an own field): a line
    // could not carry it as a plain field. The stages one by one join it.
    expect(at0([{ $unwind: '$lines' }, lookup('__proto__.mat', 'materials', 'm'), { $unwind: '$m' }, group])).toBeUndefined();
    const records = [JSON.parse('{"id":"a","__proto__":{"mat":"m1"},"lines":[1,2]}') as Rec];
    const named = { materials: [{ code: 'm1', name: 'A' }] };
    expect(run([{ $unwind: '$lines' }, lookup('__proto__.mat', 'materials', 'm'), { $unwind: '$m' }, { $group: { _id: '$id', names: { $push: '$m.name' } } }], records, named))
      .toEqual([{ _id: 'a', names: ['A', 'A'] }]);
    // A join keyed on a field a later join writes, and an accumulator reading the whole row.
    expect(at0([{ $unwind: '$lines' }, lookup('m.site', 'sites', 's'), join, group])).toBeUndefined();
    expect(at0([{ $unwind: '$lines' }, join, { $group: { _id: '$id', all: { $push: '$$ROOT' } } }])).toBeUndefined();
    // The rows of one record not kept together before the group.
    expect(regroupedLines([{ $unwind: '$lines' }, group], 0, new Date(), reader({}), MINGO_OPTIONS, () => false)).toBeUndefined();
  });

  it('knows the fields an expression reads', () => {
    expect([...exprReads({ $ifNull: ['$a.b', { $size: '$c' }] })!]).toEqual(['a', 'c']);
    expect([...exprReads({ $filter: { input: '$list', as: 'o', cond: { $eq: ['$$o.v', '$k'] } } })!]).toEqual(['list', 'k']);
    expect(exprReads({ $first: '$$ROOT' })).toBeUndefined();
    expect(exprReads({ $literal: '$a' })).toBeUndefined();
  });
});
