import { Aggregator, Query } from 'mingo';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../registry/registry';
import { reportRegistry } from '../testing/reportFixtures';
import type { ReportDef } from '../types';
import { reportPlan, type ReportPlan } from './plan';
import { parseReportQuery } from './query';

type Doc = Record<string, unknown>;

const DAYS = ['2024-01-05', '2024-01-05T10:00:00.000Z', '2024-02-10', '2024-02-10', '2024-03-01T23:59:59.000Z', '2024-03-02', undefined, '2024-04-20'];
const STATES = ['Draft', 'In-Progress', 'Accepted', 'Partial Reject', 'Cancelled'];

/** Shipments with ties on the sort keys, missing dates, one to three lines over five batches. */
function shipments(n: number): Doc[] {
  return Array.from({ length: n }, (_, i) => {
    const sendDate = DAYS[(i * 5) % DAYS.length];
    return {
      id: `s${String((i * 7) % n).padStart(3, '0')}`,
      shipmentID: `R-${String(i % 13).padStart(2, '0')}`,
      ...(sendDate !== undefined ? { sendDate } : {}),
      status: STATES[i % STATES.length],
      deposit: `d${i % 3}`,
      receiverDeposit: `d${(i + 1) % 4}`,
      urgent: i % 4 === 0,
      lines: Array.from({ length: 1 + (i % 3) }, (_, j) => ({ material: `m${j}`, batch: `B${(i + j) % 5}`, amount: (i * 3 + j * 11) % 17, uom: j % 2 ? 'l' : 'kg' })),
    };
  });
}
const DIVISIONS: Doc[] = [0, 1, 2, 3].map((i) => ({ id: `d${i}`, division_name: ['North', 'South', 'East plant', 'West'][i], gln: `0${i}` }));
const MATERIALS: Doc[] = [0, 1, 2].map((i) => ({ id: `m${i}`, name: `Material ${i}` }));
const BALANCES: Doc[] = Array.from({ length: 30 }, (_, i) => ({ id: `m${i % 3}|B${i % 7}|d${i % 2}`, material: `m${i % 3}`, batch: `B${i % 7}`, deposit: `d${i % 2}`, quantity: (i * 37) % 23 }));

const collections: Record<string, Doc[]> = { shipment: shipments(60), company_division: DIVISIONS, material: MATERIALS, stock_balance: BALANCES };
const run = (coll: string, pipeline: Doc[]): Doc[] =>
  new Aggregator(pipeline, { scriptEnabled: false, collectionResolver: (name: string) => collections[name] ?? [] }).run(structuredClone(collections[coll])) as Doc[];

function countOf(plan: ReportPlan): number {
  if ('filter' in plan.count) return new Query(plan.count.filter).find(collections[plan.collection]).all().length;
  const [doc] = run(plan.collection, plan.count.pipeline);
  return doc ? Number(doc.n) : 0;
}

let reg: Registry;
beforeAll(() => { reg = reportRegistry(); });

/** Every page of the pushed-down plan equals the plain plan's, and so do the export and the count. */
function samePlans(def: ReportDef, query: Record<string, unknown>, scope?: Doc): Doc[] {
  const q = parseReportQuery(reg, def, query);
  const plain = reportPlan(reg, def, q, scope, { pushdown: false });
  const fast = reportPlan(reg, def, q, scope);
  const all = run(plain.collection, plain.all);
  expect(run(fast.collection, fast.all)).toEqual(all);
  for (let page = 1; page <= Math.ceil(all.length / q.pageSize) + 1; page++) {
    const pq = { ...q, page };
    const want = all.slice((page - 1) * q.pageSize, page * q.pageSize + 1);
    expect(run(plain.collection, reportPlan(reg, def, pq, scope, { pushdown: false }).rows)).toEqual(want);
    expect(run(fast.collection, reportPlan(reg, def, pq, scope).rows)).toEqual(want);
  }
  expect(countOf(fast)).toBe(all.length);
  return all;
}

describe('reportPlan: the stages in order, and the moves made for speed', () => {
  it('composes match → pipeline → row filters → de-duplication → sort (id last) → limit → page when nothing may move', () => {
    const def = reg.reports.stock_test;
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, { page: '2', pageSize: '5' }), { deposit: { $in: ['d1'] } });
    expect(plan.collection).toBe('stock_balance');
    expect(plan.rows).toEqual([
      { $match: { deposit: { $in: ['d1'] } } },
      ...def.pipeline,
      { $group: { _id: { k0: '$batch' }, row: { $first: '$$ROOT' } } },
      { $replaceRoot: { newRoot: '$row' } },
      { $sort: { quantity: -1, id: 1 } },
      { $skip: 5 },
      { $limit: 6 },
    ]);
    expect(plan.all.at(-1)).toEqual({ $sort: { quantity: -1, id: 1 } });
    expect(plan.pagedInStore).toBe(false);
    expect(plan.count).toEqual({ pipeline: [plan.rows[0], ...def.pipeline, plan.rows[4], plan.rows[5], { $count: 'n' }] });
  });

  it('moves sort and page right after the match when each record is one row and the sort keys are untouched source paths', () => {
    const def = reg.reports.shipments_report;
    const q = parseReportQuery(reg, def, { 'sendDate.from': '2024-02-01', status: 'Accepted,Draft', pageSize: '10', page: '3' });
    const plan = reportPlan(reg, def, q, { deposit: { $in: ['d0', 'd1'] } });
    expect(plan.rows).toEqual([
      { $match: { deposit: { $in: ['d0', 'd1'] }, sendDate: { $gte: '2024-02-01' }, status: { $in: ['Accepted', 'Draft'] } } },
      { $sort: { sendDate: -1, id: 1 } },
      { $skip: 20 },
      { $limit: 11 },
      ...def.pipeline,
    ]);
    expect(plan.all).toEqual([plan.rows[0], plan.rows[1], ...def.pipeline]);
    expect(plan.pagedInStore).toBe(true);
    // dedupeBy ["id"] on one row per record merges nothing: no $group, and a plain count.
    expect(plan.count).toEqual({ filter: (plan.rows[0] as Doc).$match });
  });

  it('keeps the page after the pipeline when a row filter or an $unwind changes the row count, the sort still first', () => {
    const def = reg.reports.shipments_report;
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, { receiver: 'north' }));
    expect(plan.rows.slice(0, 2)).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }]);
    expect(plan.rows.slice(2)).toEqual([...def.pipeline, { $match: { 'receiver.division_name': { $regex: 'north', $options: 'i' } } }, { $limit: 21 }]);
    expect('pipeline' in plan.count).toBe(true);
    const lines = reg.reports.shipment_lines;
    const lp = reportPlan(reg, lines, parseReportQuery(reg, lines, {}));
    // The pipeline's leading $match filters source records: it joins the request's own conditions, ahead of the sort.
    expect(lp.rows).toEqual([{ $match: { status: { $ne: 'Draft' } } }, { $sort: { shipmentID: 1, id: 1 } }, { $unwind: '$lines' }, { $limit: 21 }]);
    expect(lp.count).toEqual({ pipeline: [{ $match: { status: { $ne: 'Draft' } } }, { $unwind: '$lines' }, { $count: 'n' }] });
  });

  it('moves sort and page ahead of a leading $match, of joins on a unique id unwound with their empty arrays kept, and of a copied sort key', () => {
    const base = reg.reports.shipments_report;
    const def: ReportDef = {
      ...base,
      pipeline: [
        { $match: { status: { $ne: 'Draft' } } },
        { $lookup: { from: 'company_division', localField: 'receiverDeposit', foreignField: 'id', as: 'receiver' } },
        { $unwind: { path: '$receiver', preserveNullAndEmptyArrays: true } },
        { $project: { id: 1, shipmentID: 1, status: 1, deposit: 1, lines: 1, receiver: 1, shippedOn: '$sendDate' } },
      ],
      sort: { shippedOn: -1 },
    };
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, { pageSize: '5', page: '2' }));
    expect(plan.rows).toEqual([
      { $match: { status: { $ne: 'Draft' } } }, { $sort: { sendDate: -1, id: 1 } }, { $skip: 5 }, { $limit: 6 }, ...def.pipeline.slice(1),
    ]);
    expect(plan.count).toEqual({ filter: { status: { $ne: 'Draft' } } });
    const rows = samePlans(def, { pageSize: '7' });
    expect(rows.length).toBe(collections.shipment.filter((s) => s.status !== 'Draft').length);
    samePlans(def, { sort: '-shipmentID', status: 'Accepted', pageSize: '4' }, { deposit: { $in: ['d1'] } });
    // Without preserveNullAndEmptyArrays a record with no match is dropped: the sort moves, the page does not.
    const inner: ReportDef = { ...def, pipeline: def.pipeline.map((s) => ('$unwind' in s ? { $unwind: '$receiver' } : s)) };
    expect(reportPlan(reg, inner, parseReportQuery(reg, inner, {})).rows.slice(1, 3)).toEqual([{ $sort: { sendDate: -1, id: 1 } }, inner.pipeline[1]]);
    samePlans(inner, { pageSize: '6' });
    // A join from a path of many values (every line's material) may match several: unwinding it multiplies rows.
    const many: ReportDef = { ...def, dedupeBy: [], pipeline: [{ $lookup: { from: 'material', localField: 'lines.material', foreignField: 'id', as: 'receiver' } }, { $unwind: { path: '$receiver', preserveNullAndEmptyArrays: true } }, def.pipeline[3]] };
    const mp = reportPlan(reg, many, parseReportQuery(reg, many, {}));
    expect(mp.rows.slice(0, 3)).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }, many.pipeline[0]]);
    expect('pipeline' in mp.count).toBe(true);
    samePlans(many, { pageSize: '9' });
    // A copy rewritten later is no source path any more.
    const rewritten: ReportDef = { ...def, pipeline: [...def.pipeline, { $addFields: { shippedOn: { $toUpper: '$shippedOn' } } }] };
    expect(reportPlan(reg, rewritten, parseReportQuery(reg, rewritten, {})).rows.at(-2)).toEqual({ $sort: { shippedOn: -1, id: 1 } });
  });

  it('moves sort and page ahead of lines unwound, looked up and grouped back by the record id, and sorts the page again after the $group', () => {
    const base = reg.reports.shipments_report;
    const def: ReportDef = {
      ...base,
      dedupeBy: ['id'],
      pipeline: [
        { $unwind: { path: '$lines', preserveNullAndEmptyArrays: true } },
        { $lookup: { from: 'material', localField: 'lines.material', foreignField: 'id', as: 'materialDoc' } },
        { $unwind: { path: '$materialDoc', preserveNullAndEmptyArrays: true } },
        { $group: { _id: '$id', id: { $first: '$id' }, sendDate: { $first: '$sendDate' }, shipmentID: { $first: '$shipmentID' }, status: { $first: '$status' }, deposit: { $first: '$deposit' },
          receiverDeposit: { $first: '$receiverDeposit' }, lines: { $push: { batch: '$lines.batch', amount: '$lines.amount', name: '$materialDoc.name' } } } },
        { $lookup: { from: 'company_division', localField: 'receiverDeposit', foreignField: 'id', as: 'receiver' } },
        { $unwind: { path: '$receiver', preserveNullAndEmptyArrays: true } },
      ],
    };
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, { pageSize: '5', page: '3' }));
    expect(plan.rows).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }, { $skip: 10 }, { $limit: 6 }, ...def.pipeline, { $sort: { sendDate: -1, id: 1 } }]);
    expect(plan.count).toEqual({ filter: {} });
    // The export: sorted again on MongoDB, in the order it streams on a store whose $group keeps it (mingo's, the embedded store's).
    expect(plan.all).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }, ...def.pipeline, { $sort: { sendDate: -1, id: 1 } }]);
    expect(plan.allInOrder).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }, ...def.pipeline]);
    expect(run(plan.collection, plan.allInOrder)).toEqual(run(plan.collection, plan.all));
    const rows = samePlans(def, { pageSize: '7' });
    expect(rows).toHaveLength(60);
    expect((rows[0].lines as Doc[])[0].name).toMatch(/^Material \d$/);
    samePlans(def, { sort: 'shipmentID', status: 'Accepted,Draft', pageSize: '4' }, { deposit: { $in: ['d1', 'd2'] } });
    // Lines dropped on the way (no preserveNullAndEmptyArrays, or a $match on lines): records may vanish, the page stays after.
    const dropping: ReportDef = { ...def, pipeline: [{ $unwind: '$lines' }, { $match: { 'lines.amount': { $gt: 3 } } }, ...def.pipeline.slice(1)] };
    const dp = reportPlan(reg, dropping, parseReportQuery(reg, dropping, {}));
    expect(dp.rows.slice(0, 3)).toEqual([{ $match: {} }, { $sort: { sendDate: -1, id: 1 } }, dropping.pipeline[0]]);
    expect(dp.rows.slice(-2)).toEqual([{ $sort: { sendDate: -1, id: 1 } }, { $limit: 21 }]);
    samePlans(dropping, { pageSize: '6' });
    // Grouped by something else than the record id: no row per record, the sort after the pipeline.
    const byBatch: ReportDef = { ...def, dedupeBy: undefined, sort: { id: 1 }, pipeline: [def.pipeline[0], { $group: { _id: '$lines.batch', id: { $first: '$lines.batch' }, n: { $sum: 1 } } }] };
    expect(reportPlan(reg, byBatch, parseReportQuery(reg, byBatch, {})).rows.slice(-2)).toEqual([{ $sort: { id: 1 } }, { $limit: 21 }]);
  });

  it('leaves out the de-duplication when the pipeline groups by its key, and keeps it when a later stage could repeat the key', () => {
    const base = reg.reports.stock_test;
    const group = { $group: { _id: '$batch', batch: { $first: '$batch' }, quantity: { $sum: '$quantity' }, deposits: { $sum: 1 } } };
    const def: ReportDef = { ...base, pipeline: [{ $match: { quantity: { $gt: 0 } } }, { $sort: { quantity: -1 } }, group, { $lookup: { from: 'material', localField: 'batch', foreignField: 'id', as: 'm' } }] };
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, {}));
    expect(plan.all).toEqual([{ $match: { quantity: { $gt: 0 } } }, ...def.pipeline.slice(1), { $sort: { quantity: -1 } }]);
    expect(samePlans(def, { pageSize: '3' }).map((r) => r.batch).sort()).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6']);
    // A join on a field other than the unique id may match several documents: unwinding it may repeat a batch.
    const unwound: ReportDef = { ...def, pipeline: [...def.pipeline, { $lookup: { from: 'material', localField: 'batch', foreignField: 'name', as: 'n' } }, { $unwind: { path: '$n', preserveNullAndEmptyArrays: true } }] };
    expect(reportPlan(reg, unwound, parseReportQuery(reg, unwound, {})).all).toContainEqual({ $replaceRoot: { newRoot: '$row' } });
    const renamed: ReportDef = { ...def, pipeline: [...def.pipeline, { $addFields: { batch: '$m.name' } }] };
    expect(reportPlan(reg, renamed, parseReportQuery(reg, renamed, {})).all).toContainEqual({ $replaceRoot: { newRoot: '$row' } });
  });

  it('counts with the stages up to the last that decides the number of rows, and no further', () => {
    const base = reg.reports.shipments_report;
    const join = { $lookup: { from: 'company_division', localField: 'receiverDeposit', foreignField: 'id', as: 'receiver' } };
    const keep = { $unwind: { path: '$receiver', preserveNullAndEmptyArrays: true } };
    const shape = { $project: { id: 1, status: 1, receiverName: '$receiver.division_name', lines: 1 } };
    // Joins on the unique id unwound with empty ones kept, and a projection, after a filter on a joined field: the count stops at the filter.
    const def: ReportDef = { ...base, dedupeBy: [], pipeline: [join, keep, { $match: { 'receiver.division_name': { $ne: 'West' } } }, join, keep, shape, { $sort: { status: 1 } }] };
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, {}));
    expect(plan.count).toEqual({ pipeline: [{ $match: {} }, join, keep, { $match: { 'receiver.division_name': { $ne: 'West' } } }, { $count: 'n' }] });
    const rows = samePlans(def, { pageSize: '8' });
    expect(rows.length).toBe(collections.shipment.filter((s) => s.receiverDeposit !== 'd3').length);
    expect(countOf(plan)).toBe(rows.length);
    // Stages that may change the number of rows after the filter stay: an unwind dropping the empty, one of many values, a join on another field.
    const drops = { $unwind: '$receiver' };
    const lines = { $unwind: '$lines' };
    const byName = { $lookup: { from: 'material', localField: 'lines.material', foreignField: 'id', as: 'm' } };
    for (const tail of [[join, drops], [lines], [byName, { $unwind: { path: '$m', preserveNullAndEmptyArrays: true } }]]) {
      const d: ReportDef = { ...def, pipeline: [...def.pipeline.slice(0, 3), ...tail, shape] };
      const p = reportPlan(reg, d, parseReportQuery(reg, d, {}));
      expect(p.count).toEqual({ pipeline: [{ $match: {} }, ...d.pipeline.slice(0, 3 + tail.length), { $count: 'n' }] });
      expect(countOf(p)).toBe(run(p.collection, p.all).length);
    }
    // A row filter reads what the pipeline computed: the whole pipeline is counted.
    const filtered = reportPlan(reg, def, parseReportQuery(reg, def, { receiver: 'north' }));
    expect((filtered.count as { pipeline: Doc[] }).pipeline).toContainEqual(shape);
    expect(countOf(filtered)).toBe(run(filtered.collection, filtered.all).length);
  });

  it('sorts after the pipeline on a computed key, a looked-up key, or when the sort names a path the pipeline rewrites', () => {
    const top = reg.reports.top_batches;
    expect(reportPlan(reg, top, parseReportQuery(reg, top, {})).rows).toEqual([{ $match: {} }, ...top.pipeline, { $sort: { total: -1, batch: 1 } }, { $limit: 3 }]);
    const def = reg.reports.shipments_report;
    const byReceiver = reportPlan(reg, def, { filters: {}, sort: { 'receiver.division_name': 1 }, page: 1, pageSize: 20 });
    expect(byReceiver.rows.slice(0, 1 + def.pipeline.length)).toEqual([{ $match: {} }, ...def.pipeline]);
  });

  it('escapes a text filter, makes a date range\'s end a whole day, and keeps a top ten\'s limit within pages', () => {
    const def = reg.reports.shipments_report;
    const plan = reportPlan(reg, def, parseReportQuery(reg, def, { batch: 'B1.*(', 'sendDate.to': '2024-03-01', 'amount.min': '3', 'amount.max': '9', urgent: 'true', deposit: 'd2' }));
    expect((plan.rows[0] as Doc).$match).toEqual({
      sendDate: { $lte: '2024-03-01T23:59:59.999Z' }, deposit: 'd2', 'lines.batch': { $regex: 'B1\\.\\*\\(', $options: 'i' }, 'lines.amount': { $gte: 3, $lte: 9 }, urgent: true,
    });
    const top = reg.reports.top_batches;
    const page = (n: number) => reportPlan(reg, top, { filters: {}, page: n, pageSize: 2 }).rows.slice(-2);
    expect(page(1)).toEqual([{ $sort: { total: -1, batch: 1 } }, { $limit: 3 }]);
    expect(page(2)).toEqual([{ $skip: 2 }, { $limit: 1 }]);
    expect(reportPlan(reg, top, { filters: {}, page: 3, pageSize: 2 }).rows.slice(-3)).toEqual([{ $limit: 3 }, { $skip: 4 }, { $limit: 3 }]);
  });
});

describe('reportPlan: the moved plan answers as the plain one (mingo over in-memory records)', () => {
  it('one row per record: every page, the export and the count, with filters and a scope', () => {
    const def = reg.reports.shipments_report;
    expect(samePlans(def, {}).length).toBe(60);
    expect(samePlans(def, { pageSize: '7' }).map((r) => r.sendDate)).toEqual(
      [...collections.shipment].map((s) => s.sendDate as string | undefined).sort((a, b) => (a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : a < b ? 1 : -1)),
    );
    expect(samePlans(def, { 'sendDate.from': '2024-02-10', 'sendDate.to': '2024-03-01', pageSize: '4' }).map((r) => r.sendDate)).toEqual(
      expect.arrayContaining(['2024-03-01T23:59:59.000Z', '2024-02-10']),
    );
    samePlans(def, { sort: 'shipmentID,-sendDate', status: 'Accepted,In-Progress', pageSize: '3' }, { deposit: { $in: ['d0', 'd2'] } });
    samePlans(def, { sort: '-status', batch: 'b2', pageSize: '5' });
    expect(samePlans(def, { receiver: 'plant', pageSize: '4' }).every((r) => (r.receiver as Doc).division_name === 'East plant')).toBe(true);
  });

  it('many rows per record ($unwind), row filters, de-duplication and a top ten', () => {
    const lines = samePlans(reg.reports.shipment_lines, { pageSize: '9' });
    expect(lines.length).toBe(collections.shipment.filter((s) => s.status !== 'Draft').reduce((n, s) => n + (s.lines as Doc[]).length, 0));
    samePlans(reg.reports.shipment_lines, { batch: 'B3', sort: '-sendDate,batch', pageSize: '4' });
    const stock = samePlans(reg.reports.stock_test, { pageSize: '2' });
    expect(stock.map((r) => r.batch).sort()).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6']);
    expect(stock[0].materialName).toMatch(/^Material \d$/);
    const top = samePlans(reg.reports.top_batches, { pageSize: '2' });
    expect(top).toHaveLength(3);
    expect(top.map((r) => r.total)).toEqual([...top.map((r) => r.total as number)].sort((a, b) => b - a));
  });
});
