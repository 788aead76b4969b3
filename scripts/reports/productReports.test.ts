/**
 * Every product report of SPEC 3.5 (reports/<key>.json, category product) run against a short
 * demo activity, on the embedded store or on MongoDB when MONGODB_URI is set: each returns rows
 * and fills every column, and the rules of SPEC 9 (and SPEC 6's internal/external shipments)
 * hold on the data. It lives under scripts/ because the demo activity is seed code, which the
 * server may not import (.dependency-cruiser.cjs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDef } from '../../engine/src/index';
import { ensureAdmin } from '../../server/src/boot';
import { openTestStore, realRegistry, storeTarget } from '../../server/src/testing/harness';
import type { Doc, Store, StoredDoc } from '../../server/src/store/types';
import { seedActivity, servicePort } from '../seed/activity';
import { seedDemo } from '../seed/seed';

const reg = realRegistry();
const DAY = 86_400_000;
// The activity ends 700 days ago: production batches (720 days of shelf life) made in its last
// weeks are near expiry today and earlier ones past it, so the expiry report has both.
const END = new Date(Math.floor((Date.now() - 700 * DAY) / DAY) * DAY + 12 * 3_600_000);
const AT = new Date(END.getTime() + 3_600_000);
const day = (d: Date) => d.toISOString().slice(0, 10);

const productReports = Object.values(reg.reports as Record<string, ReportDef>).filter((r) => r.category === 'product');

/**
 * A report's rows in their simplest plan: its pipeline after an empty leading $match, its
 * default sort and limit. One function, so the engine's planner can take its place.
 */
async function runReport(store: Store, def: ReportDef): Promise<Doc[]> {
  return store.aggregate(def.source.entity, [{ $match: {} }, ...(def.pipeline ?? []), { $sort: def.sort }, ...(def.limit ? [{ $limit: def.limit }] : [])]);
}

/** The values a column shows in a row: the field, or each element's (or the object's) sub-field. */
function cellValues(row: Doc, field: string, subField?: string): unknown[] {
  const at = (v: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
  const v = at(row, field);
  if (subField === undefined) return [v];
  return Array.isArray(v) ? v.map((x) => at(x, subField)) : [at(v, subField)];
}
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * What a short activity does not leave behind, made through the same operations service: a
 * draft and an unreceived delivery, a rejection not yet accepted, an internal shipment, an
 * export to a customer, a raw material used for self-consumption, a bulk lot fractionated into
 * an IBC batch, a draft declaration; then the authority's answers (a consumption Failed, a
 * declaration synced, one failed).
 */
async function addFixtures(store: Store, actor: StoredDoc): Promise<void> {
  const ops = servicePort(reg, store, { id: actor.id, email: String(actor.email) });
  const [decl] = await store.find('product_declaration', { filter: { status: 'Declared' }, sort: { productionDate: -1 }, limit: 1 });
  const plant = String(decl.deposit);
  const materials = new Map((await store.find('material', {})).map((m) => [m.id, m]));
  const balances = await store.find('stock_balance', { filter: { deposit: plant, quantity: { $gt: 200 } }, sort: { quantity: -1 } });
  const fg = balances.find((b) => materials.get(String(b.material))?.raw === false)!;
  const raw = balances.find((b) => materials.get(String(b.material))?.raw === true)!;
  const line = (b: StoredDoc, quantity: number, key = 'quantity') => ({ material: b.material, batchId: b.batch, [key]: quantity, uom: b.unit });
  const plantDoc = (await store.get('company_division', plant))!;
  const sibling = (await store.find('company_division', { filter: { company_id: plantDoc.company_id, id: { $ne: plant } }, limit: 1 }))[0];
  const [customerDelivery] = await store.find('delivery', { filter: { receiverCompanyType: 'customer' }, limit: 1 });
  let n = 0;
  const delivery = async (receiverDeposit: string, receiverCompanyType: string, then: string[]) => {
    const { id } = await ops.create('delivery', {
      sendDate: day(AT), shipmentID: `FX-R-${++n}`, operationId: `OP-${n}`, sapRecordId: `SAP-${n}`, salesOrderNo: `FX-SO-${n}`, deposit: plant, receiverDeposit, receiverCompanyType,
      truckMapping: { truckNo: 'AA123BB', isoTankLicense: 'ISO-FX-1' }, productData: [line(fg, 10, 'amount')],
    }, AT);
    for (const t of then) {
      await ops.transition('delivery', id, t, t === 'confirm' ? { fields: { deliveredOn: day(AT) } } : { comment: 'Envases dañados', fields: { receivedDate: day(AT) } }, AT);
    }
  };
  await delivery(String(customerDelivery.receiverDeposit), 'customer', []);
  await delivery(String(customerDelivery.receiverDeposit), 'customer', ['confirm']);
  await delivery(String(customerDelivery.receiverDeposit), 'customer', ['confirm', 'totalReject']);
  await delivery(sibling.id, 'internal', ['confirm']);

  const [country] = await store.find('country', { limit: 1 });
  const [company] = await store.find('company', { limit: 1 });
  const exp = await ops.create('product_export', { exportDate: day(AT), exportID: 'FX-EXP-1', deposit: plant, destinationCountry: country.id, customer: company.id, salesOrderNo: 'FX-SOE-1', productData: [line(fg, 5)] }, AT);
  await ops.transition('product_export', exp.id, 'confirm', {}, AT);
  const self = await ops.create('self_consumption', { consumptionDate: day(AT), consumptionID: 'FX-SCN-1', deposit: plant, purpose: 'Ensayo', productData: [line(raw, 5)] }, AT);
  await ops.transition('self_consumption', self.id, 'consume', {}, AT);
  const [ibc] = await store.find('ibc_container', { limit: 1 });
  const fr = await ops.create('bulk_fractionation', {
    fractionationDate: day(AT), fractionationId: 'FX-FR-1', deposit: plant, material: fg.material, batchId: fg.batch, quantity: 20, uom: fg.unit,
    ibcBatches: [{ material: fg.material, batchId: `${String(fg.batch)}-IBC1`, quantity: 20, uom: fg.unit, ibc: ibc.id, elaborationDate: day(AT), expirationDate: day(new Date(AT.getTime() + 720 * DAY)) }],
  }, AT);
  await ops.transition('bulk_fractionation', fr.id, 'fractionate', {}, AT);
  await ops.create('product_declaration', {
    productionDate: day(AT), productDeclarationId: 'FX-PD-DRAFT', deposit: plant, material: decl.material, batchId: 'FX-FG-DRAFT', quantity: 10, uom: decl.uom,
    elaborationDate: day(AT), expirationDate: day(new Date(AT.getTime() + 720 * DAY)), consumption: [{ ...line(raw, 3), consumptionStatus: 'Draft' }],
  }, AT);

  // The authority's answers: the newest declaration's first consumption refused, two older ones answered.
  const consumption = decl.consumption as Doc[];
  await store.patch('product_declaration', decl.id, { consumption: [{ ...consumption[0], consumptionStatus: 'Failed' }, ...consumption.slice(1)] } as never);
  const [synced, failed] = await store.find('product_declaration', { filter: { status: 'Declared', id: { $ne: decl.id } }, sort: { productionDate: 1 }, limit: 2 });
  await store.patch('product_declaration', synced.id, { 'sync.status': 'synced' });
  await store.patch('product_declaration', failed.id, { 'sync.status': 'failed' });
}

describe(`product reports on the demo activity (${storeTarget().label})`, () => {
  let store: Store;
  let dispose: () => Promise<void>;
  const rows = new Map<string, Doc[]>();

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(reg, 'tm-reports-'));
    await ensureAdmin(reg, store, 'admin@reports.test', 'Admin-pass-2026');
    await seedDemo(reg, store, 1, END);
    await seedActivity(reg, store, 60, END);
    const [actor] = await store.find('user', { limit: 1 });
    await addFixtures(store, actor);
    for (const def of productReports) rows.set(def.key, await runReport(store, def));
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
    expect(answered).toHaveLength(2);
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
