/**
 * The compiled per-row stages against mingo, the reference they stand in for: random documents
 * (missing fields, nulls, wrong types, arrays where scalars are usual) through every kind of
 * expression and stage the fast path compiles, and through every per-row stage of the shipped
 * report definitions. The rows must be mingo's, whether the fast path answered or handed the row
 * to mingo; and the kinds listed must compile (else reports fall back to mingo's speed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Aggregator } from 'mingo';
import { loadDefinitions } from '../../../definitions/read';
import { compileGroup, compileRowStage, groupKey, type CompiledGroup } from './sqlite-compile.js';
import { MINGO_OPTIONS } from './sqlite-fns.js';

type Rec = Record<string, unknown>;
const NOW = new Date('2026-06-15T12:00:00Z');
/** FC_SCALE=50 runs every property fifty times as long, to hunt a rare counterexample. */
const runs = (n: number) => n * Number(process.env.FC_SCALE ?? 1);

const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom('', 'a', 'b', 'internal', 'customer'), fc.constant(null), fc.boolean());
const date = fc.constantFrom('2026-01-05', '2026-03-01T10:00:00Z', '2025-12-31', 'not a date');
const item = fc.record({ value: scalar, amount: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant(null)), label: fc.constantFrom('x', 'y') }, { requiredKeys: [] });
const doc = fc.record({
  id: fc.constantFrom('r1', 'r2', 'r3'),
  n: scalar,
  m: scalar,
  s: scalar,
  at: fc.oneof(date, scalar),
  since: fc.oneof(date, scalar),
  list: fc.oneof(fc.array(item, { maxLength: 4 }), scalar),
  nums: fc.oneof(fc.array(fc.integer({ min: -3, max: 9 }), { maxLength: 4 }), scalar),
  sub: fc.oneof(fc.record({ name: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), deep: fc.record({ v: scalar }, { requiredKeys: [] }) }, { requiredKeys: [] }), fc.array(fc.record({ name: scalar }), { maxLength: 2 }), scalar),
}, { requiredKeys: ['id'] });
const docs = fc.array(doc, { minLength: 1, maxLength: 8 });

const viaMingo = (stage: Rec, rows: Rec[]) => {
  try {
    return { rows: new Aggregator([stage], MINGO_OPTIONS).run(structuredClone(rows)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
};
const viaCompiled = (stage: Rec, rows: Rec[]) => {
  const fn = compileRowStage(stage, NOW);
  expect(fn, `compiles ${JSON.stringify(stage)}`).toBeDefined();
  const out: Rec[] = [];
  try {
    for (const r of structuredClone(rows)) fn!(r, (x) => out.push(x));
    return { rows: out };
  } catch (e) {
    return { error: (e as Error).message };
  }
};

/** Every operator the fast path knows, on values of every kind. */
const EXPRESSIONS: unknown[] = [
  '$n', '$sub.name', '$sub.deep.v', '$list.value', '$missing', 'literal', null,
  { $ifNull: ['$n', '$m', 'none'] }, { $ifNull: ['$missing', null] },
  { $arrayElemAt: ['$list', 0] }, { $arrayElemAt: ['$list', -1] }, { $arrayElemAt: ['$nums', '$n'] }, { $arrayElemAt: ['$list.label', 1] },
  { $arrayElemAt: [{ $filter: { input: '$list', as: 'o', cond: { $eq: ['$$o.value', '$s'] } } }, 0] },
  { $filter: { input: '$nums', cond: { $gt: ['$$this', 2] } } },
  { $size: '$list' }, { $size: '$nums' },
  { $in: ['$s', ['a', 'internal', null]] }, { $in: ['$n', '$nums'] },
  { $eq: ['$n', '$m'] }, { $ne: ['$s', 'a'] }, { $eq: ['$nums', 1] },
  { $gt: ['$n', 0] }, { $gte: ['$n', '$m'] }, { $lt: ['$s', 'b'] }, { $lte: ['$n', 2] },
  { $and: [{ $eq: ['$s', 'a'] }, '$n'] }, { $or: ['$missing', '$s'] },
  { $cond: [{ $gt: ['$n', 0] }, '$s', 'no'] },
  { $literal: '$n' }, { $literal: { en: 'Accepted', es: 'Aceptado' } }, { $cond: [{ $eq: ['$s', 'a'] }, { $literal: { en: 'A' } }, '$s'] },
  { $add: ['$n', 1] }, { $add: ['$n', '$m', '$at'] }, { $multiply: ['$n', '$m'] }, { $subtract: ['$n', '$m'] }, { $divide: ['$n', '$m'] },
  { $floor: '$n' }, { $floor: { $divide: ['$n', 3] } },
  { $toDate: '$at' }, { $subtract: [{ $toDate: '$at' }, { $toDate: '$since' }] },
  { $sum: '$nums' }, { $sum: ['$n', '$m', 2] }, { $sum: '$list.amount' },
  { name: '$sub.name', v: '$n' }, { name: { $arrayElemAt: ['$list.label', 0] }, size: { $size: '$nums' } },
];

describe('compiled per-row stages', () => {
  it.each(EXPRESSIONS.map((e) => [JSON.stringify(e), e]))('computes %s as mingo does, in $project and $addFields', (_name, expr) => {
    fc.assert(fc.property(docs, (rows) => {
      for (const stage of [{ $project: { _id: 0, id: 1, n: 1, v: expr } }, { $addFields: { v: expr } }]) {
        expect(viaCompiled(stage, rows)).toEqual(viaMingo(stage, rows));
      }
    }), { numRuns: runs(150) });
  });

  it('takes a number, a boolean or a list in $addFields as a literal', () => {
    fc.assert(fc.property(docs, (rows) => {
      for (const stage of [{ $addFields: { v: 7, w: true } }, { $addFields: { v: ['$n', '$missing', 1] } }]) expect(viaCompiled(stage, rows)).toEqual(viaMingo(stage, rows));
    }), { numRuns: runs(50) });
  });

  it('evaluates $$NOW once for the pipeline: the time it was compiled with', () => {
    const out: Rec[] = [];
    compileRowStage({ $project: { _id: 0, days: { $divide: [{ $subtract: [{ $toDate: '$at' }, '$$NOW'] }, 86400000] } } }, NOW)!({ at: '2026-06-25T12:00:00Z' }, (r) => out.push(r));
    expect(out).toEqual([{ days: 10 }]);
  });

  it('unwinds, unsets and matches as mingo does', () => {
    const stages = [
      { $unwind: '$list' }, { $unwind: { path: '$list', preserveNullAndEmptyArrays: true } }, { $unwind: '$sub' },
      { $unwind: '$sub.deep' }, { $unwind: { path: '$sub.name', preserveNullAndEmptyArrays: true } },
      { $unset: ['n', 'm'] }, { $unset: 'list' },
      { $match: { n: { $gt: 0 } } }, { $match: { 'list.value': { $in: ['a', null] }, s: { $ne: 'b' } } },
    ];
    fc.assert(fc.property(docs, (rows) => {
      for (const stage of stages) expect(viaCompiled(stage, rows)).toEqual(viaMingo(stage, rows));
    }), { numRuns: runs(200) });
  });

  /** The compiled group over rows, keyed as the store does: the groups in the order first seen. */
  const grouped = (group: CompiledGroup, rows: Rec[]) => {
    const groups = new Map<unknown, { key: unknown; states: unknown[] }>();
    for (const row of rows) {
      const key = group.key(row);
      let g = groups.get(groupKey(key));
      if (!g) groups.set(groupKey(key), (g = { key, states: group.start() }));
      group.add(g.states, row);
    }
    return [...groups.values()].map((g) => group.done(g.key, g.states));
  };

  it('groups as mingo does: by a field, a document, a compound key; every accumulator, on values of every kind', () => {
    const accumulators = {
      first: { $first: '$n' }, last: { $last: '$s' }, all: { $push: { v: '$n', l: '$list' } }, pushed: { $push: '$missing' },
      total: { $sum: '$n' }, count: { $sum: 1 }, top: { $max: '$n' }, low: { $min: '$m' }, topAny: { $max: '$since' }, lowAny: { $min: '$at' },
      // Values of every kind but lists: mingo's ranking of a list against another value is not an
      // order (a list can rank equal to a document or number that ranks differently against a
      // second list), so its $max over lists depends on how its sort happened to meet them.
      // mingo answers the rows the fast path cannot ($add of a date string): the totals stay mingo's.
      mixed: { $sum: { $cond: [{ $gt: ['$n', 0] }, { $add: ['$n', '$m'] }, 0] } },
    };
    for (const _id of ['$id', '$s', '$sub', { a: '$s', b: '$n' }, '$missing', null]) {
      const spec = { _id, ...accumulators };
      const group = compileGroup(spec, NOW);
      expect(group, JSON.stringify(_id)).toBeDefined();
      fc.assert(fc.property(docs, (rows) => {
        let want: unknown;
        try {
          want = new Aggregator([{ $group: spec }], MINGO_OPTIONS).run(structuredClone(rows));
        } catch {
          return; // mingo refuses these rows (an $add of two dates): nothing to compare
        }
        expect(grouped(group!, structuredClone(rows))).toEqual(want);
      }), { numRuns: runs(300) });
    }
  });

  it('groups documents whose fields come in another order as one, as mingo does', () => {
    const group = compileGroup({ _id: '$sub', n: { $sum: 1 } }, NOW)!;
    expect(grouped(group, [{ sub: { a: 1, b: 2 } }, { sub: { b: 2, a: 1 } }, { sub: { a: 1 } }])).toEqual([
      { _id: { a: 1, b: 2 }, n: 2 }, { _id: { a: 1 }, n: 1 },
    ]);
  });

  it('hands a group keyed by -0 out as 0, as mingo does, and keeps a -0 inside a document key', () => {
    const group = compileGroup({ _id: '$s', n: { $sum: 1 } }, NOW)!;
    const [bare] = grouped(group, [{ s: -0 }, { s: 0 }]);
    expect(Object.is(bare._id, 0)).toBe(true);
    expect(bare.n).toBe(2);
    const [inDoc] = grouped(compileGroup({ _id: { a: '$s' }, n: { $sum: 1 } }, NOW)!, [{ s: -0 }]);
    expect(Object.is((inDoc._id as Rec).a, -0)).toBe(true);
  });

  it('leaves to mingo what it does not know: an unknown operator, a nested projection, an exclusion', () => {
    for (const stage of [
      { $project: { v: { $concat: ['$s', 'x'] } } }, { $project: { sub: { name: 1 } } }, { $project: { n: 0 } },
      { $addFields: { 'a.b': 1 } }, { $unwind: { path: '$list', includeArrayIndex: 'i' } }, { $group: { _id: '$s' } },
    ]) expect(compileRowStage(stage, NOW), JSON.stringify(stage)).toBeUndefined();
    expect(compileGroup({ _id: '$s', v: { $avg: '$n' } }, NOW)).toBeUndefined();
    expect(compileGroup({ v: { $sum: 1 } }, NOW)).toBeUndefined();
  });

  it('compiles every per-row stage and every $group of the shipped reports, and each stage gives mingo\'s rows', () => {
    const reg = loadDefinitions(process.cwd()).registry!;
    let compiled = 0;
    for (const def of Object.values(reg.reports)) {
      for (const stage of def.pipeline as Rec[]) {
        const op = Object.keys(stage)[0];
        if (op === '$group') expect(compileGroup(stage.$group as Rec, NOW), `${def.key}: ${JSON.stringify(stage).slice(0, 120)}`).toBeDefined();
        if (!['$project', '$addFields', '$set', '$unwind', '$unset', '$match'].includes(op)) continue;
        const fn = compileRowStage(stage, NOW);
        expect(fn, `${def.key}: ${JSON.stringify(stage).slice(0, 120)}`).toBeDefined();
        compiled++;
        fc.assert(fc.property(docs, (rows) => { expect(viaCompiled(stage, rows)).toEqual(viaMingo(stage, rows)); }), { numRuns: runs(20) });
      }
    }
    expect(compiled).toBeGreaterThan(200);
  });
});
