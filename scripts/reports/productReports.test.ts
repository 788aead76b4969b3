/**
 * Every product report of SPEC 3.5 (reports/<key>.json, category product) run through the
 * engine's planner against the demo data of ./demo.ts, on the embedded store or on MongoDB when
 * MONGODB_URI is set: each returns rows and fills every column, and the rules of SPEC 9 (and
 * SPEC 6's internal/external shipments) hold on the data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReportQuery, reportPlan, type ReportDef } from '../../engine/src/index';
import { prepareStore } from '../../server/src/boot';
import { BATCH_STOCK } from '../../server/src/ledger/batchStock';
import { forgetBuilt } from '../../server/src/summaryMarks';
import { openTestStore, realRegistry, storeTarget } from '../../server/src/testing/harness';
import type { Doc, Store } from '../../server/src/store/types';
import { at, runReport, seedReportDemo, type DemoFixtures } from './demo';

const reg = realRegistry();
const productReports = Object.values(reg.reports).filter((r): r is ReportDef => r.category === 'product');

/** The values a column shows in a row: the field, or each element's (or the object's) sub-field. */
function cellValues(row: Doc, field: string, subField?: string): unknown[] {
  const v = at(row, field);
  if (subField === undefined) return [v];
  return Array.isArray(v) ? v.map((x) => at(x, subField)) : [at(v, subField)];
}
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

describe(`product reports on the demo activity (${storeTarget().label})`, () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let fixtures: DemoFixtures;
  const rows = new Map<string, Doc[]>();

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(reg, 'tm-reports-'));
    fixtures = await seedReportDemo(reg, store);
    for (const def of productReports) rows.set(def.key, await runReport(reg, store, def));
  }, 300_000);
  afterAll(async () => dispose?.());

  it('defines all 34 product reports of SPEC 3.5', () => {
    expect(productReports.map((r) => r.key).sort()).toHaveLength(34);
  });

  it.each(productReports.map((r) => [r.key, r] as const))('%s returns rows and fills every column', (_key, def) => {
    const got = rows.get(def.key)!;
    expect(got.length, def.key).toBeGreaterThan(0);
    for (const c of def.columns) {
      const field = c.field ?? c.id;
      expect(got.some((r) => cellValues(r, field, c.subField).some(present)), `${def.key}: column ${c.id} (${field}${c.subField ? `.${c.subField}` : ''})`).toBe(true);
    }
  });

  it('shipments by batch leave drafts out (SPEC 9), while drafts exist', async () => {
    const drafts = await store.find('delivery', { filter: { deliveryStatus: 'Draft' } });
    expect(drafts.length).toBeGreaterThan(0);
    const got = rows.get('shipments_by_batch')!;
    expect(got.length).toBeGreaterThan(0);
    expect(got.filter((r) => r.deliveryStatus === 'Draft')).toEqual([]);
    const ids = new Set(got.map((r) => r.id));
    for (const d of drafts) expect(ids.has(d.id), String(d.shipmentID)).toBe(false);
    // One row per shipment line: every line of every shipment that left.
    const sent = await store.find('delivery', { filter: { deliveryStatus: { $nin: ['Draft', 'Cancelled'] } } });
    expect(got.length).toBe(sent.reduce((s, d) => s + (d.productData as unknown[]).length, 0));
  });

  it('raw materials consumed in production leave out consumption statuses Failed and Draft (SPEC 9)', async () => {
    const lines = (await store.find('product_declaration', {})).flatMap((d) => (d.consumption as Doc[]).map((c): Doc => ({ ...c, id: d.id })));
    expect(lines.some((l) => l.consumptionStatus === 'Failed')).toBe(true);
    expect(lines.some((l) => l.consumptionStatus === 'Draft')).toBe(true);
    const got = rows.get('raw_materials_consumed_production')!;
    expect(got.filter((r) => r.consumptionStatus !== 'Consumed')).toEqual([]);
    expect(got.length).toBe(lines.filter((l) => l.consumptionStatus === 'Consumed').length);
    // The active-ingredient report shows them all, with their status.
    expect(rows.get('product_declaration_report_active_ingredient')!.length).toBe(lines.length);
  });

  it('products pending declaration are the declared ones with an empty sync status (SPEC 9)', async () => {
    const got = rows.get('products_pending_declaration')!;
    expect(got.length).toBeGreaterThan(0);
    expect(got.filter((r) => r.syncStatus !== '')).toEqual([]);
    const answered = await store.find('product_declaration', { filter: { 'sync.status': { $in: ['synced', 'failed'] } } });
    expect(answered.map((d) => d.id).sort()).toEqual(fixtures.answered.map((d) => d.id).sort());
    const ids = new Set(got.map((r) => r.id));
    for (const d of answered) expect(ids.has(d.id), String(d.productDeclarationId)).toBe(false);
    expect(got.length).toBe(await store.count('product_declaration', { status: 'Declared', 'sync.status': '' }));
  });

  it('stock reports have one row per batch (SPEC 9), totalling the batch over its deposits', async () => {
    const balances = await store.find('stock_balance', { filter: { quantity: { $gt: 0 } } });
    const byBatch = new Map<string, number[]>();
    for (const b of balances) byBatch.set(String(b.batch), [...(byBatch.get(String(b.batch)) ?? []), Number(b.quantity)]);
    const spread = [...byBatch].filter(([, qs]) => qs.length > 1);
    expect(spread.length, 'a batch held at two deposits').toBeGreaterThan(0);
    const materials = new Map((await store.find('material', {})).map((m) => [m.id, m]));
    for (const key of ['finished_goods_stock', 'raw_material_stock', 'expiring_and_expired_materials']) {
      const got = rows.get(key)!;
      expect(new Set(got.map((r) => r.batch)).size, key).toBe(got.length);
      for (const r of got) expect(r.totalQuantity, `${key} ${String(r.batch)}`).toBeCloseTo(byBatch.get(String(r.batch))!.reduce((s, q) => s + q, 0), 6);
    }
    // Finished goods and raw materials by the material's raw flag; together, every batch in stock.
    const fg = rows.get('finished_goods_stock')!;
    const rm = rows.get('raw_material_stock')!;
    expect(fg.every((r) => materials.get(String(r.materialId))?.raw !== true)).toBe(true);
    expect(rm.every((r) => materials.get(String(r.materialId))?.raw === true)).toBe(true);
    expect(fg.length + rm.length).toBe(byBatch.size);
    expect(fg.some((r) => spread.some(([b]) => b === r.batch))).toBe(true);
  });

  it('stock reports read from the batches\' stock (stock_batch) give the rows grouping every balance gives, whole, filtered and paged, and a boot rebuilds it the same', async () => {
    const plain = (def: ReportDef, params: Record<string, unknown>, page = 0) => {
      const plan = reportPlan(reg, def, parseReportQuery(reg, def, page ? { ...params, page, pageSize: 7 } : params), undefined, { summary: false });
      return store.aggregate(plan.collection, page ? plan.rows : plan.all);
    };
    const summed = async (def: ReportDef, params: Record<string, unknown>, page = 0) => {
      const plan = reportPlan(reg, def, parseReportQuery(reg, def, page ? { ...params, page, pageSize: 7 } : params));
      expect(plan.collection).toBe('stock_batch');
      return store.aggregate(plan.collection, page ? plan.rows : plan.all);
    };
    // Rows computed at different instants differ by $$NOW only where a day boundary falls between: none here.
    const someBatch = String(rows.get('finished_goods_stock')![3].batch);
    const someMaterial = String(rows.get('raw_material_stock')![0].materialId);
    const compare = async () => {
      for (const key of ['finished_goods_stock', 'raw_material_stock', 'expiring_and_expired_materials']) {
        const def = reg.reports[key];
        for (const params of [{}, { batch: someBatch }, { material: someMaterial }, { 'daysToExpire.max': 0 }]) {
          expect(await summed(def, params), `${key} ${JSON.stringify(params)}`).toEqual(await plain(def, params));
        }
        for (const page of [1, 2]) expect(await summed(def, {}, page), `${key} page ${page}`).toEqual(await plain(def, {}, page));
      }
    };
    await compare();
    // A deposit filter or a warehouse group: the balances in scope, not the batches' stock.
    expect(reportPlan(reg, reg.reports.finished_goods_stock, parseReportQuery(reg, reg.reports.finished_goods_stock, { deposit: 'x' })).collection).toBe('stock_balance');
    expect(reportPlan(reg, reg.reports.finished_goods_stock, parseReportQuery(reg, reg.reports.finished_goods_stock, {}), { deposit: { $in: ['x'] } }).collection).toBe('stock_balance');
    // A store from before stock_batch: the next boot builds it from the balances.
    const kept = await store.find(BATCH_STOCK, { sort: { id: 1 } });
    for (const d of kept) await store.delete(BATCH_STOCK, d.id);
    await forgetBuilt(store, BATCH_STOCK);
    await prepareStore(reg, store);
    expect(await store.find(BATCH_STOCK, { sort: { id: 1 } })).toEqual(kept);
    await compare();
  });

  it('expiring and expired materials: batches past or within 90 days of their expiry, soonest first', () => {
    const got = rows.get('expiring_and_expired_materials')!;
    expect(got.every((r) => typeof r.daysToExpire === 'number' && r.daysToExpire <= 90)).toBe(true);
    expect(got.some((r) => (r.daysToExpire as number) < 0)).toBe(true);
    expect(got.some((r) => (r.daysToExpire as number) >= 0)).toBe(true);
    const days = got.map((r) => r.daysToExpire as number);
    expect(days).toEqual([...days].sort((a, b) => a - b));
  });

  it('internal shipments go to the internal company type, external ones to any other or none (SPEC 6)', () => {
    const internal = rows.get('internal_shipments')!;
    const external = rows.get('external_shipments')!;
    expect(internal.length).toBeGreaterThan(0);
    expect(internal.every((r) => r.receiverCompanyType === 'internal')).toBe(true);
    expect(external.every((r) => r.receiverCompanyType !== 'internal')).toBe(true);
    expect(new Set(external.map((r) => r.receiverCompanyType))).toEqual(new Set(['customer', 'distributor']));
    expect(internal.length + external.length).toBe(rows.get('shipment_history')!.length);
  });
});
