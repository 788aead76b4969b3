/**
 * The IBC, bulk and alert reports (issue 17, item 2) run through the engine's planner against
 * the demo data of ./demo.ts: every report returns rows and fills every column somewhere, its
 * de-duplication keys are unique, and the rules of SPEC 9 these reports carry hold on the data.
 * The same file runs on MongoDB when MONGODB_URI is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDef } from '../../engine/src/index';
import { IbcMeasures } from '../../server/src/ibc/measures';
import { EventSummaries } from '../../server/src/ibc/summary';
import { openTestStore, realRegistry, storeTarget } from '../../server/src/testing/harness';
import type { Doc, Store } from '../../server/src/store/types';
import { at, DEMO_END, runReport as run, seedReportDemo, specReports, type DemoFixtures } from './demo';

/** The IBC, bulk and alert keys as SPEC 3.5 names them, {host} for the deployment's name. */
const KEYS = [
  'report_app_in_offline_mode', 'total_ibc_delivered', 'ibc_not_received_by_app', 'ibcs_delivered_offline', 'ibc_inventory_outside_{host}',
  'stock_of_ibc_product_Internal', 'ibc_return_history', 'top_ten_customers_with_ibc_on_hand', 'top_ten_customers_with_longest_return_time',
  'ibcinventory_report', 'ibcdeliveries_report', 'ibc_sale_deliveries_report', 'ibcreturn_request_report', 'ibcbatch_preparation_report',
  'ibcbatch_preparation_report_active_ingredient', 'ibcreception_report', 'list_of_all_ibc', 'report_of_ibc_unassigned', 'report_of_ibc_assigned',
  'report_of_ibc_in_stock', 'ibc_in_stock_by_Age', 'ibc_in_stock_by_use', 'ibc_batch_preparation_history', 'ibc_batch_preparation_pending',
  'raw_materials_consumed', 'ibcs_prepared', 'ibcs_in_quarantine', 'ibcs_in_blocked', 'ibcs_disposed', 'list_of_qc_performed', 'ibcs_external_to_{host}',
  'bulk_declaration_report', 'bulk_declaration_report_active_ingredient', 'bulk_deliveries_report', 'bulk_receptions_report', 'bulk_inventory_report',
  'get_alerts_data',
];
const HOST_TYPES = ['internal', 'producer'];
const END = DEMO_END;
const reg = realRegistry();
const hosted = (key: string) => key.replace('{host}', reg.deployment.name);
const def = (key: string): ReportDef => reg.reports[hosted(key)];

/** One report as the server's export runs it: planned by the engine, every row, its limit kept. */
const runReport = (store: Store, key: string): Promise<Doc[]> => run(reg, store, def(key));

const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

describe(`IBC, bulk and alert reports on the demo activity (${storeTarget().label})`, () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let fixtures: DemoFixtures;
  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(reg, 'tm-ibc-reports-'));
    fixtures = await seedReportDemo(reg, store);
  }, 300_000);
  afterAll(async () => {
    await dispose?.();
  });

  it('defines every IBC, bulk and alert key of SPEC 3.5, {host} replaced by the deployment\'s name in the key and the file name', () => {
    expect(hosted('ibcs_external_to_{host}')).toBe('ibcs_external_to_agro');
    for (const key of KEYS) {
      expect(def(key), key).toBeDefined();
      expect(def(key).key).toBe(hosted(key));
      expect(def(key).export.fileName).toBe(hosted(key));
    }
    expect(specReports(reg).filter((r) => r.category !== 'product').map((r) => r.key).sort()).toEqual(KEYS.map(hosted).sort());
    expect(def('get_alerts_data').access).toBe('Alerts');
    expect(def('get_alerts_data').columns.map((c) => c.id)).toEqual(['title', 'translatedDescription', 'timestamp', 'severity']);
  });

  it.each(KEYS)('%s returns rows, fills every column in some row, and is unique by its de-duplication keys', async (key) => {
    const rows = await runReport(store, key);
    expect(rows.length, key).toBeGreaterThan(0);
    for (const c of def(key).columns) expect(rows.some((r) => filled(c.subField && c.type === 'object' ? at(r, `${c.field ?? c.id}.${c.subField}`) : at(r, c.field ?? c.id))), `${key}: column ${c.id}`).toBe(true);
    const dedupeBy = def(key).dedupeBy ?? ['id'];
    const keys = rows.map((r) => JSON.stringify(dedupeBy.map((p) => at(r, p))));
    expect(new Set(keys).size, `${key}: duplicates by ${String(dedupeBy)}`).toBe(rows.length);
  });

  it('top ten customers with IBCs on hand: at most ten, by IBCs to return descending, the same as the holdings the IBC screens show', async () => {
    const rows = await runReport(store, 'top_ten_customers_with_ibc_on_hand');
    const all = await store.aggregate(def('top_ten_customers_with_ibc_on_hand').source.entity, def('top_ten_customers_with_ibc_on_hand').pipeline);
    expect(all.length).toBeGreaterThan(10);
    expect(rows).toHaveLength(10);
    const toReturn = rows.map((r) => r.ibcToReturn as number);
    expect(toReturn).toEqual([...toReturn].sort((a, b) => b - a));
    expect(toReturn[9]).toBe(all.map((r) => r.ibcToReturn as number).sort((a, b) => b - a)[9]);
    const measures = new IbcMeasures(reg, store, new EventSummaries(store, () => END), () => END);
    const holdings = await measures.holdings({ sort: 'ibcToReturn', limit: 10 });
    expect(toReturn).toEqual(holdings.map((h) => h.ibcToReturn));
    for (const r of rows) {
      const h = (await measures.holdings({ customer: String(r.id) }))[0];
      expect([r.totalIbcTaken, r.totalIbcReturned, r.avgReturnTime]).toEqual([h.totalIbcTaken, h.totalIbcReturned, h.avgReturnTime]);
      expect(r.ibcToReturn).toBe(await store.count('ibc_container', { customer: r.id, status: { $in: ['at_customer', 'return_requested'] } }));
    }
  });

  it('top ten customers with the longest return time: at most ten, by average return time descending, as the holdings compute it', async () => {
    const rows = await runReport(store, 'top_ten_customers_with_longest_return_time');
    expect(rows.length).toBeLessThanOrEqual(10);
    expect(rows.length).toBeGreaterThan(3);
    const avg = rows.map((r) => r.avgReturnTime as number);
    expect(avg.every((a) => typeof a === 'number' && a > 0)).toBe(true);
    expect(avg).toEqual([...avg].sort((a, b) => b - a));
    const holdings = await new IbcMeasures(reg, store, new EventSummaries(store, () => END), () => END).holdings({ sort: 'avgReturnTime', limit: 10 });
    expect(avg).toEqual(holdings.map((h) => h.avgReturnTime));
  });

  it('offline reports: the operations the app captured offline, their IBCs, and the receptions the transporter made', async () => {
    const offline = await runReport(store, 'report_app_in_offline_mode');
    expect(offline).toHaveLength(await store.count('ibc_delivery', { offline: true }));
    expect(offline.every((r) => r.offline === true)).toBe(true);
    expect(offline.length).toBeLessThan(await store.count('ibc_delivery', {}));
    const ibcs = await runReport(store, 'ibcs_delivered_offline');
    expect(ibcs.length).toBe(offline.filter((r) => r.deliveryStatus !== 'Draft' && r.deliveryStatus !== 'Cancelled').reduce((n, r) => n + (r.containers as unknown[]).length, 0));
    const requests = await runReport(store, 'ibcreturn_request_report');
    expect(requests.filter((r) => r.offline === true).length).toBe(await store.count('return_request', { offline: true }));
    expect(await store.count('return_request', { offline: true })).toBeGreaterThan(0);
    const notByApp = await runReport(store, 'ibc_not_received_by_app');
    expect(notByApp.every((r) => r.receivedBy === 'receiveByTransporter')).toBe(true);
    expect(notByApp).toHaveLength(await store.count('ibc_delivery', { 'history.transition': 'receiveByTransporter' }));
  });

  it('{host} reports: outside the host means at a deposit of a company neither internal nor a producer', async () => {
    const external = await runReport(store, 'ibcs_external_to_{host}');
    expect(external.every((r) => typeof r.depositCompanyType === 'string' && !HOST_TYPES.includes(r.depositCompanyType))).toBe(true);
    const atHost = await store.count('ibc_container', { status: { $in: ['in_stock_empty', 'prepared'] } });
    expect(external.length).toBeLessThan(await store.count('ibc_container', { status: { $ne: 'disposed' } }) - atHost + 1);
    const outside = await runReport(store, 'ibc_inventory_outside_{host}');
    expect(outside.reduce((n, r) => n + (r.ibcCount as number), 0)).toBe(await store.count('ibc_container', { status: { $in: ['at_customer', 'return_requested'] } }));
    expect(outside.map((r) => r.ibcCount as number)).toEqual(outside.map((r) => r.ibcCount as number).sort((a, b) => b - a));
  });

  it('total IBCs delivered per customer add up to the IBCs of the confirmed deliveries', async () => {
    const rows = await runReport(store, 'total_ibc_delivered');
    const deliveries = await store.find('ibc_delivery', { filter: { deliveryStatus: { $in: ['In-Progress', 'Received'] } } });
    expect(rows.reduce((n, r) => n + (r.totalIbcDelivered as number), 0)).toBe(deliveries.reduce((n, d) => n + (d.containers as unknown[]).length, 0));
  });

  it('IBC batch preparation history: only Prepared, never a failed declaration, while such records exist', async () => {
    const { draft, cancelled } = fixtures.preparations;
    expect([(await store.get('ibc_batch_preparation', draft))?.ibcStatus, (await store.get('ibc_batch_preparation', cancelled))?.ibcStatus]).toEqual(['Draft', 'Cancelled']);
    // The authority refuses one prepared batch's declaration.
    const [failed] = await store.find('ibc_batch_preparation', { filter: { ibcStatus: 'Prepared' }, sort: { preparedDate: 1 }, limit: 1 });
    await store.patch('ibc_batch_preparation', failed.id, { sync: { status: 'failed' } });
    const preps = await Promise.all([failed.id, cancelled, draft].map(async (id) => (await store.get('ibc_batch_preparation', id))!));
    const rows = await runReport(store, 'ibc_batch_preparation_history');
    const numbers = new Set(rows.map((r) => r.batchNumber));
    for (const p of preps) expect(numbers.has(p.batchNumber), String(p.batchNumber)).toBe(false);
    expect(rows.every((r) => r.ibcStatus === 'Prepared' && r.syncStatus !== 'failed')).toBe(true);
    expect(rows).toHaveLength(await store.count('ibc_batch_preparation', { ibcStatus: 'Prepared' }) - 1);
    // Pending: drafts and prepared batches not declared yet (an empty sync status); not the failed one, not the cancelled one.
    const pending = new Set((await runReport(store, 'ibc_batch_preparation_pending')).map((r) => r.batchNumber));
    expect(preps.map((p) => pending.has(p.batchNumber))).toEqual([false, false, true]);
  });

  it('raw materials consumed: consumption lines Failed or Draft are left out, while such lines exist', async () => {
    const before = await runReport(store, 'raw_materials_consumed');
    const fg = String(before[0].FGbatchId);
    const [decl] = await store.find('product_declaration', { filter: { batchId: fg } });
    const lines = decl.consumption as Record<string, unknown>[];
    expect(lines.length).toBeGreaterThan(0);
    const statuses = lines.map((_, i) => (i % 2 === 0 ? 'Failed' : 'Draft'));
    await store.patch('product_declaration', decl.id, { consumption: lines.map((l, i) => ({ ...l, consumptionStatus: statuses[i] })) as never });
    const after = await runReport(store, 'raw_materials_consumed');
    expect(after.some((r) => r.FGbatchId === fg)).toBe(false);
    expect(after.every((r) => r.consumptionStatus !== 'Failed' && r.consumptionStatus !== 'Draft')).toBe(true);
    expect(after.length).toBeLessThan(before.length);
  });

  it('alerts show the alert texts in every language and their time', async () => {
    const [row] = await runReport(store, 'get_alerts_data');
    for (const lang of ['en', 'es', 'fr']) {
      expect(typeof (row.title as Record<string, string>)[lang]).toBe('string');
      expect(typeof (row.translatedDescription as Record<string, string>)[lang]).toBe('string');
    }
    expect(String(row.timestamp)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
