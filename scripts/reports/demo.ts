/**
 * The demo data every report test reads: demo master data, a stretch of the demo activity played
 * through the operations service, then what a short activity does not leave behind made through
 * the same service (a draft and an unreceived delivery, prepared IBCs not shipped, an IBC in
 * quarantine…), so each report has rows whatever the activity's random draws. Reports run as the
 * server runs them: parseReportQuery and reportPlan over the registry's sanitised definitions.
 * It lives under scripts/ because the demo activity is seed code, which the server may not
 * import (.dependency-cruiser.cjs).
 */
import { parseReportQuery, reportPlan, type Registry, type ReportDef } from '../../engine/src/index';
import { ensureAdmin } from '../../server/src/boot';
import type { Doc, Filter, Store, StoredDoc } from '../../server/src/store/types';
import { seedActivity, servicePort, type OperationsPort } from '../seed/activity';
import { seedDemo } from '../seed/seed';

const DAY = 86_400_000;
/** Days of activity: enough for IBCs to go out, come back and pass QC; the rest is made below. */
export const DEMO_DAYS = 75;
// The activity ends 700 days ago: production batches (720 days of shelf life) made in its last
// weeks are near expiry today and earlier ones past it, so the expiry report has both.
export const DEMO_END = new Date(Math.floor((Date.now() - 700 * DAY) / DAY) * DAY + 12 * 3_600_000);
/** When the fixtures are made: an hour after the activity's last day. */
export const FIXTURES_AT = new Date(DEMO_END.getTime() + 3_600_000);
const day = (d: Date) => d.toISOString().slice(0, 10);

/** What the fixtures made, for the tests that look for it. */
export interface DemoFixtures {
  /** The deposit the fixtures work at (the newest declaration's plant). */
  plant: string;
  /** Declarations the authority answered: synced, then failed. */
  answered: [StoredDoc, StoredDoc];
  /** IBC batch preparations left in Draft and Cancelled. */
  preparations: { draft: string; cancelled: string };
}

/** Seeds demo master data, the activity and the fixtures into an empty store. */
export async function seedReportDemo(reg: Registry, store: Store): Promise<DemoFixtures> {
  await ensureAdmin(reg, store, 'admin@reports.test', 'Admin-pass-2026');
  await seedDemo(reg, store, 1, DEMO_END);
  await seedActivity(reg, store, DEMO_DAYS, DEMO_END);
  const [actor] = await store.find('user', { filter: { access: reg.access.superadmin }, limit: 1 });
  const ops = servicePort(reg, store, { id: actor.id, email: String(actor.email) });
  const product = await productFixtures(store, ops);
  await bulkFixtures(store, ops, product.plant);
  return { ...product, preparations: await ibcFixtures(store, ops, product.plant) };
}

/**
 * A report's rows as the server's export reads them (every row, no paging, a top ten's limit
 * kept): the query parsed from request-style parameters, planned by the engine within `scope`.
 */
export async function runReport(reg: Registry, store: Store, def: ReportDef, params: Record<string, unknown> = {}, scope?: Filter): Promise<Doc[]> {
  const plan = reportPlan(reg, def, parseReportQuery(reg, def, params), scope);
  return store.aggregate(plan.collection, plan.all);
}

/** The value at a dotted path of a row. */
export const at = (row: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), row);

/**
 * The product side: a draft and an unreceived delivery, a rejection not yet accepted, an
 * internal shipment, an export to a customer, a raw material used for self-consumption, a bulk
 * lot fractionated into an IBC batch, a draft declaration; then the authority's answers (a
 * consumption Failed, a declaration synced, one failed).
 */
async function productFixtures(store: Store, ops: OperationsPort): Promise<Omit<DemoFixtures, 'preparations'>> {
  const AT = FIXTURES_AT;
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
  const [ibc] = await store.find('ibc_container', { filter: { status: 'in_stock_empty' }, limit: 1 });
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
  return { plant, answered: [synced, failed] };
}

/**
 * Bulk, which the activity declares only every three weeks when the plant holds the active
 * ingredient: a bulk batch declared from a raw material the plant holds, part of it sent in a
 * registered tank truck and received.
 */
async function bulkFixtures(store: Store, ops: OperationsPort, plant: string): Promise<void> {
  const AT = FIXTURES_AT;
  const [decl] = await store.find('product_declaration', { filter: { deposit: plant, status: 'Declared', recipe: { $exists: true } }, sort: { productionDate: -1 }, limit: 1 });
  const materials = new Map((await store.find('material', { filter: { raw: true } })).map((m) => [m.id, m]));
  const raw = (await store.find('stock_balance', { filter: { deposit: plant, quantity: { $gt: 200 } }, sort: { quantity: -1 } })).find((b) => materials.has(String(b.material)))!;
  const batchId = 'FX-BLK-1';
  const bulk = await ops.create('bulk_declaration', {
    declarationDate: day(AT), bulkDeclarationId: 'FX-BD-1', deposit: plant, recipe: decl.recipe, material: decl.material, batchId, quantity: 4000, uom: decl.uom,
    elaborationDate: day(AT), expirationDate: day(new Date(AT.getTime() + 720 * DAY)),
    consumption: [{ material: raw.material, batchId: raw.batch, quantity: 100, uom: raw.unit, consumptionStatus: 'Draft' }],
  }, AT);
  await ops.transition('bulk_declaration', bulk.id, 'declare', {}, AT);
  const [truck] = await store.find('truck', { filter: { state: 1 }, sort: { truckNo: 1 }, limit: 1 });
  const [tank] = await store.find('iso_tank', { filter: { state: 1, carrier: truck.carrier }, limit: 1 });
  const [receiver] = await store.find('delivery', { filter: { deposit: plant, receiverCompanyType: 'customer' }, limit: 1 });
  const receiverDeposit = (await store.get('company_division', String(receiver.receiverDeposit)))!;
  const sent = await ops.create('bulk_delivery', {
    sendDate: day(AT), shipmentID: 'FX-RB-1', salesOrderNo: 'FX-SOB-1', deposit: plant, receiverDeposit: receiverDeposit.id, receiver: receiverDeposit.company_id,
    material: decl.material, batchId, quantity: 1000, uom: decl.uom, truckMapping: { truckNo: truck.truckNo, isoTankLicense: tank.isoTankLicense },
  }, AT);
  await ops.transition('bulk_delivery', sent.id, 'confirm', {}, AT);
  await ops.transition('bulk_delivery', sent.id, 'accept', { fields: { receivedDate: day(AT) } }, AT);
}

/**
 * The IBC side, at the plant, from its empty IBCs: a batch prepared and not shipped (prepared
 * IBCs), one in quarantine, one blocked, one disposed of; a preparation left in Draft and one
 * cancelled (the batch-preparation history leaves both out, pending keeps the draft).
 */
async function ibcFixtures(store: Store, ops: OperationsPort, plant: string): Promise<DemoFixtures['preparations']> {
  const AT = FIXTURES_AT;
  const empty = await store.find('ibc_container', { filter: { deposit_id: plant, status: 'in_stock_empty' }, sort: { serial_number: 1 }, limit: 8 });
  const [prep] = await store.find('ibc_batch_preparation', { filter: { deposit: plant, ibcStatus: 'Prepared' }, sort: { preparedDate: -1 }, limit: 1 });
  const [balance] = await store.find('stock_balance', { filter: { deposit: plant, material: prep.material, quantity: { $gte: 2000 } }, limit: 1 });
  let n = 0;
  const preparation = (ibcs: StoredDoc[]) => ops.create('ibc_batch_preparation', {
    batchNumber: `FX-IBP-${++n}`, preparedDate: day(AT), deposit: plant, productionPlant: prep.productionPlant, sourceMaterial: prep.material, sourceBatch: balance?.batch ?? prep.batchId,
    material: prep.material, batchId: balance?.batch ?? prep.batchId, uom: prep.uom, ...(prep.activeIngredient ? { activeIngredient: prep.activeIngredient } : {}),
    containers: ibcs.map((i) => ({ ibc: i.id, ibcNumber: i.serial_number, quantity: 1000, topSeal: `FX-TS-${i.serial_number}`, bottomSeal: `FX-BS-${i.serial_number}` })),
  }, AT);
  const prepared = await preparation(empty.slice(0, 2));
  await ops.transition('ibc_batch_preparation', prepared.id, 'confirm', {}, AT);
  const draft = await preparation(empty.slice(2, 3));
  const cancelled = await preparation(empty.slice(3, 4));
  await ops.transition('ibc_batch_preparation', cancelled.id, 'cancel', {}, AT);
  const qc = (qcResult: string) => ({ fields: { qcDate: day(AT), qcResult, performedBy: 'Lucía Benítez' } });
  const [blocked, disposed] = empty.slice(4, 6);
  // Quarantine one that came back from a customer: its QC lead time counts from its return.
  const [quarantined] = await store.find('ibc_container', { filter: { status: 'at_customer' }, sort: { serial_number: 1 }, limit: 1 });
  await ops.transition('ibc', quarantined.id, 'return', { fields: { deposit_id: plant, returnState: 'empty' } }, AT);
  await ops.transition('ibc', quarantined.id, 'startQC', {}, AT);
  await ops.transition('ibc', quarantined.id, 'quarantine', qc('Válvula con pérdida: en observación'), AT);
  await ops.transition('ibc', blocked.id, 'startQC', {}, AT);
  await ops.transition('ibc', blocked.id, 'block', qc('Jaula deformada'), AT);
  await ops.transition('ibc', disposed.id, 'dispose', { comment: 'Daño irreparable' }, AT);
  return { draft: draft.id, cancelled: cancelled.id };
}

/**
 * The reports of SPEC 3.5, the ones the demo data fills: the monitoring screens' reports
 * (category monitoring: inbound messages, sync logs) read what integrations write and are
 * tested with their capabilities.
 */
export const specReports = (reg: Registry): ReportDef[] => Object.values(reg.reports).filter((r) => r.category !== 'monitoring');
