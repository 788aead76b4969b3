/**
 * The reports bench's store (issue 17): demo master data and a stretch of demo activity played
 * through the operations service (so every collection holds documents exactly as the workflows
 * write them), then those documents multiplied to `records` operation records over two years with
 * insertManyJson in big batches: each clone is a sample of its workflow and state with a new id,
 * document number, date, sync status and lot, and comes with its EPCIS event; production and
 * imports create their lots and stock balances, deliveries ship those lots and leave balances at
 * the receivers; the IBC operations (batch preparations, IBC deliveries, return requests) come
 * from a fleet walking the fill → ship → receive → return → QC cycle, with its ibc_event rows and
 * each IBC's final ibc_container document (the last round stops part-way, so IBCs are held by
 * customers, prepared or in transit at the end).
 */
import type { Registry } from '../../engine/src/index';
import type { Doc, Store, StoredDoc } from '../../server/src/store/types';
import { arrayPaths } from '../../server/src/store/docs';
import { encodeTime } from '../../server/src/store/ids';
import { ensureAdmin } from '../../server/src/boot';
import { rebuildCustomerTallies } from '../../server/src/ibc/tally';
import { rebuildBatchStock } from '../../server/src/ledger/batchStock';
import { rebuildEpcisIndex } from '../../server/src/epcis/indexing';
import { seedDemo } from '../seed/seed';
import { seedActivity } from '../seed/activity';
import { rng } from '../seed/random';

const DAY = 86_400_000;
const BATCH = 5_000;
const SPAN_DAYS = 730;
/** Shares of the product-side operation records; the IBC operations take IBC_SHARE of all. */
const SHARES: Record<string, number> = {
  delivery: 40, product_declaration: 17, product_import: 7, product_export: 4, scrapping: 4, self_consumption: 4,
  synthesis: 3, bulk_declaration: 3, bulk_fractionation: 3, bulk_delivery: 5,
};
const IBC_SHARE = 0.15;
const IBC_WORKFLOWS = ['ibc_batch_preparation', 'ibc_delivery', 'return_request'];
const EVENT_COLLECTIONS = ['object_events', 'transformation_events'];

export interface FillResult { records: number; byCollection: Record<string, number>; seedMs: number; fillMs: number; indexMs: number }

type Json = Record<string, unknown>;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Batched writers, one per collection, flushed every BATCH documents. */
export class Writer {
  private readonly bufs = new Map<string, { id: string; json: string }[]>();
  private readonly paths = new Map<string, Set<string>>();
  readonly counts: Record<string, number> = {};
  constructor(private readonly store: Store) {}
  async put(coll: string, doc: Json & { id: string }): Promise<void> {
    let buf = this.bufs.get(coll);
    if (!buf) this.bufs.set(coll, (buf = []));
    let paths = this.paths.get(coll);
    if (!paths) this.paths.set(coll, (paths = new Set()));
    // Array paths are few per collection: the first documents name them all.
    if ((this.counts[coll] ?? 0) + buf.length < 50) for (const p of arrayPaths(doc)) paths.add(p);
    buf.push({ id: doc.id, json: JSON.stringify(doc) });
    if (buf.length >= BATCH) await this.flush(coll);
  }
  async flush(coll: string): Promise<void> {
    const buf = this.bufs.get(coll);
    if (!buf?.length) return;
    this.bufs.set(coll, []);
    await this.store.insertManyJson(coll, buf, this.paths.get(coll));
    this.counts[coll] = (this.counts[coll] ?? 0) + buf.length;
  }
  async flushAll(): Promise<void> { for (const c of [...this.bufs.keys()]) await this.flush(c); }
}

interface Samples {
  /** By workflow, then state: the documents the activity left (as JSON text, parsed per clone). */
  ops: Map<string, Map<string, string[]>>;
  /** By workflow and transition: one EPCIS event of it and its collection. */
  events: Map<string, { coll: string; json: string }>;
  ibc: string;
  receivers: { deposit: string; company: string }[];
}

async function samplesOf(reg: Registry, store: Store): Promise<Samples> {
  const ops = new Map<string, Map<string, string[]>>();
  for (const wf of Object.values(reg.workflows)) {
    if (reg.entities[wf.entity].kind !== 'operation') continue;
    const byState = new Map<string, string[]>();
    for (const d of await store.find(wf.entity, {})) {
      const s = String(d[wf.stateField]);
      byState.set(s, [...(byState.get(s) ?? []), JSON.stringify(d)]);
    }
    ops.set(wf.name, byState);
  }
  const events = new Map<string, { coll: string; json: string }>();
  for (const coll of EVENT_COLLECTIONS) {
    for (const e of await store.find(coll, {})) {
      const op = e.operation as { workflow: string; transition: string } | undefined;
      if (op && !events.has(`${op.workflow}.${op.transition}`)) events.set(`${op.workflow}.${op.transition}`, { coll, json: JSON.stringify(e) });
    }
  }
  const [ibc] = await store.find('ibc_container', { limit: 1 });
  const types = new Map((await store.find('company', {})).map((c) => [c.id, (c.extensions as { companyInfo?: { company_type?: string } })?.companyInfo?.company_type]));
  const receivers = (await store.find('company_division', { filter: { division_type: 'deposit' } }))
    .filter((d) => ['customer', 'distributor'].includes(String(types.get(String(d.company_id)))))
    .map((d) => ({ deposit: d.id, company: String(d.company_id) }));
  return { ops, events, ibc: JSON.stringify(ibc), receivers };
}

/**
 * Fills `store` (prepared, empty) with about `records` operation records and their events,
 * lots, balances and IBC rows; returns what it wrote and how long each part took.
 */
export async function fillReports(reg: Registry, store: Store, records: number, admin: { email: string; password: string }): Promise<FillResult> {
  const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12));
  let t = performance.now();
  await ensureAdmin(reg, store, admin.email, admin.password);
  await seedDemo(reg, store, 1, end);
  // The demo's own activity ends before the clones start: ids stay in time order.
  const start = end.getTime() - SPAN_DAYS * DAY;
  await seedActivity(reg, store, 150, new Date(start - DAY));
  const seedMs = performance.now() - t;
  const samples = await samplesOf(reg, store);
  t = performance.now();
  const w = new Writer(store);
  const r = rng(20261717);
  let serial = 0;
  const idAt = (ms: number) => encodeTime(ms) + (serial++).toString(32).toUpperCase().padStart(16, '0');
  const syncStatus = () => { const x = r(); return x < 0.1 ? '' : x < 0.14 ? 'failed' : 'synced'; };

  // Lots made by production and imports: later deliveries ship them, balances hold what is left.
  const lots: { material: string; batch: string; deposit: string; uom: string }[] = [];
  const balances = new Set((await store.find('stock_balance', { projection: { id: 1 } })).map((b) => b.id));
  const balance = async (material: string, batch: string, deposit: string, unit: string, quantity: number) => {
    const id = `${material}|${batch}|${deposit}`;
    if (balances.has(id)) return;
    balances.add(id);
    await w.put('stock_balance', { id, material, batch, deposit, quantity, unit, lastOp: idAt(Date.now()) });
  };
  const lot = async (material: string, number: string, deposit: string, uom: string, atMs: number, by: unknown) => {
    const elaborationDate = dayOf(atMs);
    const expirationDate = dayOf(atMs + (360 + Math.floor(r() * 720)) * DAY);
    await w.put('lot', { id: idAt(atMs), material, number, elaborationDate, expirationDate, createdAt: new Date(atMs).toISOString(), createdBy: by, state: 1 });
    lots.push({ material, batch: number, deposit, uom });
    // A third of the lots are used up; the rest hold some stock.
    await balance(material, number, deposit, uom, r() < 0.33 ? 0 : Math.round(r() * 4000));
    return { elaborationDate, expirationDate };
  };
  const recentLot = () => lots[lots.length - 1 - Math.floor(r() * Math.min(lots.length, 2000))];

  /** One clone of a workflow's record in `state` at `atMs`: fresh id, number, date, history times, sync. */
  const clone = (workflow: string, state: string, atMs: number, n: number): Json & { id: string } => {
    const wf = reg.workflows[workflow];
    const byState = samples.ops.get(workflow)!;
    const pool = byState.get(state) ?? [...byState.values()][0];
    const doc = JSON.parse(pool[n % pool.length]) as Json & { id: string };
    const at = new Date(atMs).toISOString();
    const title = reg.entities[wf.entity].titleField;
    doc.id = idAt(atMs);
    doc[title] = `${String(doc[title])}-${n}`;
    doc[wf.dateField] = dayOf(atMs);
    doc.createdAt = at;
    doc.updatedAt = at;
    doc[wf.stateField] = state;
    if (state === wf.initial) {
      doc.history = [];
      delete doc.sync;
    } else {
      doc.history = (doc.history as Json[]).map((h) => ({ ...h, at }));
      if (doc.sync) doc.sync = { status: syncStatus() };
    }
    return doc;
  };
  const event = async (workflow: string, transition: string, rec: Json & { id: string }, atMs: number) => {
    const sample = samples.events.get(`${workflow}.${transition}`);
    if (!sample) return;
    const e = JSON.parse(sample.json) as Json & { id: string };
    e.id = `${rec.id}.e0`;
    e.event_time = new Date(atMs).toISOString();
    e.createdAt = e.event_time;
    e.operation = { workflow, id: rec.id, transition };
    await w.put(sample.coll, e);
  };
  /** The state a clone gets: Draft now and then, Cancelled rarely, else as often as the activity left each state. */
  const statePools = new Map([...samples.ops].map(([wf, byState]) => [wf, [...byState].flatMap(([s, docs]) => docs.map(() => s))]));
  const stateFor = (workflow: string): string => {
    const wf = reg.workflows[workflow];
    const x = r();
    if (x < 0.06) return wf.initial;
    if (x < 0.09 && wf.states.some((s) => s.id === 'Cancelled')) return 'Cancelled';
    const pool = statePools.get(workflow)!;
    return pool[Math.floor(r() * pool.length)];
  };
  /** The transition that led to each sampled state, read from a sample's history (for its event). */
  const transitions = new Map([...samples.ops].flatMap(([wf, byState]) => [...byState].map(([s, docs]) => [`${wf}.${s}`, (JSON.parse(docs[0]).history as { transition: string }[])[0]?.transition] as const)));
  const transitionTo = (workflow: string, state: string) => transitions.get(`${workflow}.${state}`);

  const product = Object.entries(SHARES).filter(([wf]) => samples.ops.get(wf)?.size);
  const totalShare = product.reduce((s, [, x]) => s + x, 0);
  const nProduct = Math.round(records * (1 - IBC_SHARE));
  const cumulative = product.map(([wf, x], i) => [wf, product.slice(0, i + 1).reduce((s, [, y]) => s + y, 0) / totalShare] as const);
  for (let i = 0; i < nProduct; i++) {
    const atMs = start + Math.floor((i / nProduct) * SPAN_DAYS * DAY);
    const x = r();
    const workflow = cumulative.find(([, c]) => x < c)?.[0] ?? cumulative[cumulative.length - 1][0];
    const state = stateFor(workflow);
    const doc = clone(workflow, state, atMs, i);
    const done = state !== reg.workflows[workflow].initial && state !== 'Cancelled';
    const by = doc.createdBy;
    if (typeof doc.batchId === 'string' && workflow !== 'bulk_delivery') {
      // The record is its own produced lot (declarations, synthesis, fractionation's input bulk lot).
      doc.batchId = `${doc.batchId}-${i}`;
      if (done && workflow !== 'bulk_fractionation') Object.assign(doc, await lot(String(doc.material), String(doc.batchId), String(doc.deposit), String(doc.uom), atMs, by));
    }
    if (Array.isArray(doc.consumption)) {
      for (const c of doc.consumption as Json[]) c.consumptionStatus = !done ? 'Draft' : r() < 0.05 ? 'Failed' : 'Consumed';
    }
    if (Array.isArray(doc.ibcBatches)) {
      for (const [k, b] of (doc.ibcBatches as Json[]).entries()) {
        b.batchId = `${String(doc.batchId)}-IBC${k + 1}`;
        if (done) Object.assign(b, await lot(String(b.material), String(b.batchId), String(doc.deposit), String(b.uom), atMs, by));
      }
    }
    if (Array.isArray(doc.productData)) {
      for (const l of doc.productData as Json[]) {
        if (workflow === 'product_import') {
          l.batchId = `${String(l.batchId)}-${i}`;
          if (done) Object.assign(l, await lot(String(l.material), String(l.batchId), String(doc.deposit), String(l.uom), atMs, by));
        } else if (lots.length > 0) {
          const from = recentLot();
          Object.assign(l, { material: from.material, batchId: from.batch, uom: from.uom });
        }
      }
      // Half the received deliveries' first lots are still held at the receiver.
      if (workflow === 'delivery' && ['Accepted', 'Partial Reject'].includes(state) && r() < 0.5) {
        const l = (doc.productData as Json[])[0];
        await balance(String(l.material), String(l.batchId), String(doc.receiverDeposit), String(l.uom), Math.round(r() * 1000));
      }
    }
    await w.put(workflow, doc);
    const transition = done ? transitionTo(workflow, state) : undefined;
    if (transition) await event(workflow, transition, doc, atMs);
  }

  await fleet(reg, samples, w, r, idAt, start, Math.max(3, Math.round(records * IBC_SHARE / 3)), clone, event);
  await w.flushAll();
  // Written behind the transitions' back, so the summaries they keep are built here, as on a boot.
  await rebuildCustomerTallies(store);
  await rebuildBatchStock(store);
  // The EPCIS query's headers and identifier rows of the events written behind the transitions' back.
  await rebuildEpcisIndex(store);
  const fillMs = performance.now() - t;
  // Searchable collections index bulk inserts' text later (sqlite-search-defer.ts): done here, so
  // the server measured does not do it in the background meanwhile.
  t = performance.now();
  if (store.kind === 'embedded') {
    for (const coll of Object.keys(w.counts)) {
      // A collection without search paths refuses the search: nothing waits there.
      if (reg.entities[coll]) await store.find(coll, { search: 'zzz', limit: 1 }).catch(() => []);
    }
  }
  const indexMs = performance.now() - t;
  const byCollection = { ...w.counts };
  const ops = Object.keys(byCollection).filter((c) => samples.ops.has(c)).reduce((s, c) => s + byCollection[c], 0);
  return { records: ops, byCollection, seedMs, fillMs, indexMs };
}

type Clone = (workflow: string, state: string, atMs: number, n: number) => Json & { id: string };
type EventOf = (workflow: string, transition: string, rec: Json & { id: string }, atMs: number) => Promise<void>;

/**
 * The IBC side: `groups` cycles of 2-4 IBCs (a batch preparation, an IBC delivery, a return
 * request each), over a fleet sized so that each IBC makes about eight cycles in two years.
 */
async function fleet(reg: Registry, samples: Samples, w: Writer, r: () => number, idAt: (ms: number) => string, start: number, groups: number, clone: Clone, event: EventOf): Promise<void> {
  if (!IBC_WORKFLOWS.every((wf) => samples.ops.get(wf)?.size) || samples.receivers.length === 0) return;
  const base = JSON.parse(samples.ibc) as Json & { id: string };
  const size = Math.max(4, Math.round((groups * 3) / 8));
  const ibcs = Array.from({ length: size }, (_, i) => ({
    id: idAt(start - 2 * DAY), serial: `IBC-B${String(i).padStart(7, '0')}`, status: 'in_stock_empty', uses: 0, since: new Date(start - DAY).toISOString(),
    deposit: String(base.deposit_id), customer: '', lastCustomer: '', customerSince: '', extra: {} as Json,
  }));
  const log = async (ibc: (typeof ibcs)[number], transition: string, to: string, atMs: number, op: { workflow: string; id: string; transition: string }, k: number) => {
    const at = new Date(atMs).toISOString();
    await w.put('ibc_event', {
      createdAt: at, createdBy: 'bench', serial: ibc.serial, deposit: ibc.deposit, uses: ibc.uses, id: `${idAt(atMs)}.l${k}`, record: ibc.id, transition, from: ibc.status, to, at, by: 'bench', since: ibc.since,
      ...(ibc.lastCustomer ? { customer: ibc.lastCustomer, customerSince: ibc.customerSince } : {}), operation: op,
    });
    ibc.status = to;
    ibc.since = at;
  };
  const perGroupMs = (SPAN_DAYS * DAY) / groups;
  let next = 0;
  for (let g = 0; g < groups; g++) {
    const t0 = start + Math.floor(g * perGroupMs);
    const k = 2 + (g % 3);
    const members: (typeof ibcs)[number][] = [];
    for (let tries = 0; members.length < k && tries < size; tries++) {
      const c = ibcs[next++ % size];
      if (c.status === 'in_stock_empty' || c.status === 'quarantine') members.push(c);
    }
    if (members.length === 0) continue;
    // The last round stops part-way: IBCs prepared, in transit, held or asked back at the end.
    const stop = g >= groups - size / 3 ? Math.floor(r() * 5) : 5;
    const hour = 3_600_000;
    const containers = members.map((c) => ({ ibc: c.id, ibcNumber: c.serial }));
    const receiver = samples.receivers[g % samples.receivers.length];

    const prep = clone('ibc_batch_preparation', 'Prepared', t0, g);
    prep.containers = members.map((c, i) => ({ ...containers[i], quantity: 1000, topSeal: `TS-${g}-${i}`, bottomSeal: `BS-${g}-${i}` }));
    await w.put('ibc_batch_preparation', prep);
    await event('ibc_batch_preparation', 'confirm', prep, t0);
    for (const [i, c] of members.entries()) {
      if (c.status === 'quarantine') await log(c, 'passQC', 'in_stock_empty', t0 - hour, { workflow: 'ibc', id: `${prep.id}.qc`, transition: 'passQC' }, i);
      c.uses++;
      c.extra = { content: { material: prep.material, batch: prep.batchId, quantity: 1000, uom: prep.uom }, topSeal: `TS-${g}-${i}`, bottomSeal: `BS-${g}-${i}`, preparedDate: dayOf(t0) };
      await log(c, 'fill', 'prepared', t0, { workflow: 'ibc_batch_preparation', id: prep.id, transition: 'confirm' }, i);
    }
    if (stop === 0) continue;
    const shipAt = t0 + 2 * DAY;
    const delivery = clone('ibc_delivery', stop >= 2 ? 'Received' : 'In-Progress', shipAt, g);
    Object.assign(delivery, { containers, receiverDeposit: receiver.deposit, receiver: receiver.company });
    await w.put('ibc_delivery', delivery);
    await event('ibc_delivery', 'confirm', delivery, shipAt);
    for (const [i, c] of members.entries()) await log(c, 'ship', 'in_transit', shipAt, { workflow: 'ibc_delivery', id: delivery.id, transition: 'confirm' }, i);
    if (stop === 1) continue;
    const receiveAt = shipAt + DAY;
    for (const [i, c] of members.entries()) {
      Object.assign(c, { customer: receiver.company, lastCustomer: receiver.company, customerSince: new Date(receiveAt).toISOString(), deposit: receiver.deposit });
      await log(c, 'receive', 'at_customer', receiveAt, { workflow: 'ibc_delivery', id: delivery.id, transition: 'receive' }, i);
    }
    if (stop === 2) continue;
    // Customers keep IBCs 10 to 120 days.
    const askAt = receiveAt + (10 + Math.floor(r() * 110)) * DAY;
    const request = clone('return_request', stop >= 4 ? 'Returned' : 'Requested', askAt, g);
    Object.assign(request, { containers, customer: receiver.company, deposit: receiver.deposit, returnTo: String(base.deposit_id) });
    await w.put('return_request', request);
    for (const [i, c] of members.entries()) await log(c, 'requestReturn', 'return_requested', askAt, { workflow: 'return_request', id: request.id, transition: 'request' }, i);
    if (stop === 3) continue;
    const backAt = askAt + 3 * DAY;
    for (const [i, c] of members.entries()) {
      Object.assign(c, { customer: '', deposit: String(base.deposit_id), extra: { returnedAt: new Date(backAt).toISOString() } });
      await log(c, 'return', 'returned', backAt, { workflow: 'return_request', id: request.id, transition: 'receive' }, i);
      const qcAt = backAt + (1 + Math.floor(r() * 6)) * DAY;
      const qcOp = { workflow: 'ibc', id: `${request.id}.qc${i}`, transition: 'startQC' };
      await log(c, 'startQC', 'in_qc', qcAt, qcOp, i);
      const x = r();
      const [outcome, to, qcStatus] = x < 0.9 ? ['passQC', 'in_stock_empty', 'passed'] : x < 0.97 ? ['quarantine', 'quarantine', 'quarantine'] : ['block', 'blocked', 'blocked'];
      Object.assign(c.extra, { qcDate: dayOf(qcAt), qcStatus, qcResult: qcStatus, performedBy: 'QC bench', qcLeadTime: Math.round((qcAt - backAt) / DAY) });
      await log(c, outcome, to, qcAt, { ...qcOp, transition: outcome }, i);
    }
  }
  for (const c of ibcs) {
    const doc = { ...base, id: c.id, serial_number: c.serial, nfcTagNumber: `NFC-B${c.serial.slice(5)}`, status: c.status, numberOfUses: c.uses, deposit_id: c.deposit, ...c.extra };
    if (c.customer) Object.assign(doc, { customer: c.customer });
    if (c.lastCustomer) Object.assign(doc, { lastCustomer: c.lastCustomer, customerSince: c.customerSince });
    await w.put('ibc_container', doc);
  }
}

/** What a reader of the bench needs to see of a fill. */
export function describeFill(f: FillResult, kind: string): string {
  const parts = Object.entries(f.byCollection).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ');
  const rows = Object.values(f.byCollection).reduce((s, n) => s + n, 0);
  return `fill (${kind}): ${f.records} operation records, ${rows} rows in all (${parts})\n` +
    `  demo master data + activity ${(f.seedMs / 1000).toFixed(1)} s; clones ${(f.fillMs / 1000).toFixed(1)} s (${Math.round(rows / (f.fillMs / 1000))} rows/s); search text caught up ${(f.indexMs / 1000).toFixed(1)} s`;
}

export type { StoredDoc };
