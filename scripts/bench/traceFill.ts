/**
 * The trace bench's store (issue 19): demo master data, then a generated history of connected
 * operations written directly as the transitions write them (records, lots, ledger movements
 * under their operation, EPCIS events through the server's own eventRecord), until it holds
 * `events` events: imports of active-ingredient lots (some of a precursor, synthesised into the
 * active ingredient), each lot declared into formulated batches and into a bulk batch, the bulk
 * fractionated into IBC batches, those filled into IBCs shipped to customers and received,
 * the formulated batches delivered to customers and distributors (most accepted, some rejected
 * in part and the rejection accepted back). Every quantity leaves what it was taken from
 * non-negative, so the ledger balances as the real one would.
 */
import {
  assetUri, EPCIS_CONTEXT, lotClassUri, locationUri, stableUuid, type Registry,
} from '../../engine/src/index';
import { ensureAdmin } from '../../server/src/boot';
import { balanceId } from '../../server/src/ledger/ledger';
import { rebuildBatchStock } from '../../server/src/ledger/batchStock';
import { encodeTime } from '../../server/src/store/ids';
import type { Store, StoredDoc } from '../../server/src/store/types';
import { traceCollections } from '../../server/src/trace/collections';
import { eventRecord, type PreparedTransition } from '../../server/src/workflows/apply';
import { seedDemo } from '../seed/seed';
import { rng } from '../seed/random';
import { Writer } from './reportsFill';

const DAY = 86_400_000;
type Json = Record<string, unknown>;

export interface TraceFillResult {
  events: number;
  counts: Record<string, number>;
  seedMs: number;
  fillMs: number;
  /** Lots to trace: the active-ingredient lots and formulated batches made, as `{material, lot}`. */
  ai: { material: string; lot: string }[];
  products: { material: string; lot: string }[];
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Fills `store` (prepared, empty) with demo master data and about `target` events of connected operations. */
export async function fillTrace(reg: Registry, store: Store, target: number, admin: { email: string; password: string }): Promise<TraceFillResult> {
  let t = performance.now();
  for (const spec of traceCollections(reg)) await store.ensureCollection(spec);
  await ensureAdmin(reg, store, admin.email, admin.password);
  const end = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12);
  await seedDemo(reg, store, 1, new Date(end));
  const seedMs = performance.now() - t;
  t = performance.now();

  const [user] = await store.find('user', { filter: { access: reg.access.superadmin }, limit: 1 });
  const materials = await store.find('material', {});
  const ais = materials.filter((m) => m.raw === true);
  const products = materials.filter((m) => m.raw !== true);
  const companies = new Map((await store.find('company', {})).map((c) => [c.id, c]));
  const typeOf = (companyId: unknown) => text((companies.get(text(companyId))?.extensions as { companyInfo?: { company_type?: string } } | undefined)?.companyInfo?.company_type);
  const divisions = await store.find('company_division', { filter: { division_type: 'deposit' } });
  const plants = divisions.filter((d) => typeOf(d.company_id) === 'producer');
  const receivers = divisions.filter((d) => ['customer', 'distributor'].includes(typeOf(d.company_id)));
  const suppliers = [...companies.values()].filter((c) => typeOf(c.id) === 'distributor');
  const countries = await store.find('country', {});
  const fleet = await store.find('ibc_container', { projection: { id: 1, serial_number: 1 } });
  const deposits = Object.fromEntries(divisions.map((d) => [d.id, { gln: text(d.gln) || undefined }]));
  const mats = Object.fromEntries(materials.map((m) => [m.id, { gtin: text(m.gtin) || undefined }]));
  const loc = (d: string) => locationUri(d, { deposits });
  const cls = (material: string, lot: string) => lotClassUri(material, lot, { materials: mats });
  const uomOf = (m: StoredDoc) => text(m.uom);
  const epcisUnit = (m: StoredDoc) => (m.raw === true ? 'KGM' : 'LTR');

  const w = new Writer(store);
  const r = rng(20261919);
  const between = (a: number, b: number) => a + Math.floor(r() * (b - a + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  let serial = 0;
  const idAt = (ms: number) => encodeTime(ms) + (serial++).toString(32).toUpperCase().padStart(16, '0');
  let events = 0;
  let n = 0;
  const doc = (prefix: string) => `${prefix}-${String(++n).padStart(7, '0')}`;
  const stamp = (ms: number) => ({ createdAt: new Date(ms).toISOString(), createdBy: user.id, updatedAt: new Date(ms).toISOString(), updatedBy: user.id });
  const history = (entries: [string, string, string, number][]) => entries.map(([transition, from, to, ms]) => ({ transition, from, to, by: user.id, byName: 'Bench', at: new Date(ms).toISOString() }));
  const balances = new Map<string, { material: string; batch: string; deposit: string; quantity: number; unit: string }>();
  const aiOut: TraceFillResult['ai'] = [];
  const productOut: TraceFillResult['products'] = [];

  /** One transition's writes: its movements (ids `<op>.<n>`, as the ledger names them) and its events (eventRecord). */
  const transition = async (workflow: string, recordId: string, name: string, ms: number, movements: { m: StoredDoc; lot: string; deposit: string; q: number }[], evs: Json[]) => {
    const opId = idAt(ms);
    const at = new Date(ms).toISOString();
    const operation = { workflow, id: recordId, transition: name };
    for (const [i, x] of movements.entries()) {
      const key = balanceId({ material: x.m.id, batch: x.lot, deposit: x.deposit });
      const b = balances.get(key) ?? { material: x.m.id, batch: x.lot, deposit: x.deposit, quantity: 0, unit: uomOf(x.m) };
      b.quantity = Math.round((b.quantity + x.q) * 1e9) / 1e9;
      if (b.quantity < 0) throw new Error(`the bench history took ${key} below 0`);
      balances.set(key, b);
      await w.put('stock_movement', { id: `${opId}.${i}`, key, material: x.m.id, batch: x.lot, deposit: x.deposit, quantity: x.q, unit: uomOf(x.m), operation, at });
    }
    const p = { opId, workflow, recordId, transition: name, at, userId: user.id } as unknown as PreparedTransition;
    for (const [i, body] of evs.entries()) {
      const ev: Json = { '@context': [EPCIS_CONTEXT], eventID: stableUuid(`${workflow}:${recordId}:${name}:${i}`), eventTime: at, eventTimeZoneOffset: '+00:00', ...body };
      await w.put(ev.type === 'TransformationEvent' ? 'transformation_events' : 'object_events', eventRecord(ev, p, i) as Json & { id: string });
      events++;
    }
  };
  const q = (m: StoredDoc, lot: string, quantity: number) => ({ epcClass: cls(m.id, lot), quantity, uom: epcisUnit(m) });
  const objectEvent = (o: Json) => ({ type: 'ObjectEvent', action: 'OBSERVE', ...o });
  const at = (d: string) => ({ readPoint: { id: loc(d) }, bizLocation: { id: loc(d) } });
  const lotDoc = async (m: StoredDoc, number: string, ms: number) => {
    const expirationDate = dayOf(ms + between(540, 900) * DAY);
    await w.put('lot', { id: idAt(ms), material: m.id, number, elaborationDate: dayOf(ms), expirationDate, ...stamp(ms), state: 1 });
    return expirationDate;
  };

  /** A formulated or bulk batch declared from active-ingredient lots (each `[lot, kg]`). */
  const declare = async (workflow: 'product_declaration' | 'bulk_declaration', plant: string, ai: StoredDoc, inputs: [string, number][], product: StoredDoc, quantity: number, ms: number) => {
    const id = idAt(ms);
    const batchId = doc(workflow === 'bulk_declaration' ? 'BLK' : 'FG');
    const expirationDate = await lotDoc(product, batchId, ms);
    const title = workflow === 'bulk_declaration' ? 'bulkDeclarationId' : 'productDeclarationId';
    await w.put(workflow, {
      id, [title]: doc(workflow === 'bulk_declaration' ? 'BD' : 'PD'), [workflow === 'bulk_declaration' ? 'declarationDate' : 'productionDate']: dayOf(ms), deposit: plant, material: product.id, batchId,
      quantity, uom: uomOf(product), elaborationDate: dayOf(ms), expirationDate, status: 'Declared',
      consumption: inputs.map(([lot, kg]) => ({ material: ai.id, batchId: lot, quantity: kg, uom: uomOf(ai), consumptionStatus: 'Consumed' })),
      history: history([['declare', 'Draft', 'Declared', ms]]), sync: { status: 'synced' }, ...stamp(ms),
    });
    await transition(workflow, id, 'declare', ms, [...inputs.map(([lot, kg]) => ({ m: ai, lot, deposit: plant, q: -kg })), { m: product, lot: batchId, deposit: plant, q: quantity }], [{
      type: 'TransformationEvent', inputQuantityList: inputs.map(([lot, kg]) => q(ai, lot, kg)), outputQuantityList: [q(product, batchId, quantity)],
      transformationID: `urn:tracemesh:transformation:${id}`, bizStep: 'commissioning', disposition: 'active', ...at(plant),
      bizTransactionList: [{ type: 'prodorder', bizTransaction: `urn:tracemesh:bt:prodorder:${id}` }],
    }]);
    return batchId;
  };

  /** A delivery of a formulated batch to a receiver: confirmed, then accepted, or rejected in part and the rejection accepted. */
  const deliver = async (plant: string, product: StoredDoc, lot: string, amount: number, ms: number) => {
    const id = idAt(ms);
    const to = pick(receivers);
    const shipmentID = doc('R0001');
    const partial = r() < 0.15;
    const rejected = partial ? Math.round(amount * 0.1) : 0;
    const received = ms + between(1, 3) * DAY;
    const states: [string, string, string, number][] = [['confirm', 'Draft', 'In-Progress', ms], [partial ? 'partialReject' : 'acceptAll', 'In-Progress', partial ? 'Partial Reject' : 'Accepted', received]];
    if (partial) states.push(['acceptRejection', 'Partial Reject', 'Rejection Accepted', received + DAY]);
    const line = { material: product.id, batchId: lot, amount, uom: uomOf(product), rejected, accepted: amount - rejected };
    await w.put('delivery', {
      id, shipmentID, sendDate: dayOf(ms), deposit: plant, receiverDeposit: to.id, receiverCompanyType: typeOf(to.company_id), shipmentType: 'external',
      productData: [line], noOfItems: 1, totalQuantity: amount, deliveryStatus: states[states.length - 1][2], receivedDate: dayOf(received),
      history: history(states), sync: { status: 'synced' }, ...stamp(ms),
    });
    const desadv = [{ type: 'desadv', bizTransaction: `urn:tracemesh:bt:desadv:${shipmentID}` }];
    const route = { sourceList: [{ type: 'location', source: loc(plant) }], destinationList: [{ type: 'location', destination: loc(to.id) }] };
    await transition('delivery', id, 'confirm', ms, [{ m: product, lot, deposit: plant, q: -amount }], [
      objectEvent({ bizStep: 'shipping', disposition: 'in_transit', readPoint: { id: loc(plant) }, quantityList: [q(product, lot, amount)], ...route, bizTransactionList: desadv }),
    ]);
    await transition('delivery', id, partial ? 'partialReject' : 'acceptAll', received, [{ m: product, lot, deposit: to.id, q: amount - rejected }], [
      objectEvent({ bizStep: 'receiving', disposition: 'in_progress', ...at(to.id), quantityList: [q(product, lot, amount - rejected)], ...route, bizTransactionList: desadv }),
      ...(partial ? [objectEvent({ bizStep: 'inspecting', disposition: 'non_conformant', ...at(to.id), quantityList: [q(product, lot, rejected)], bizTransactionList: desadv })] : []),
    ]);
    if (partial) {
      await transition('delivery', id, 'acceptRejection', received + DAY, [{ m: product, lot, deposit: plant, q: rejected }], [
        objectEvent({ bizStep: 'receiving', disposition: 'returned', ...at(plant), quantityList: [q(product, lot, rejected)], sourceList: [{ type: 'location', source: loc(to.id) }], destinationList: [{ type: 'location', destination: loc(plant) }], bizTransactionList: desadv }),
      ]);
    }
  };

  /** An IBC batch filled into IBCs (a preparation keeping its lot) and shipped in them to a customer, who receives it. */
  const fillAndShip = async (plant: string, product: StoredDoc, lot: string, ibcs: StoredDoc[], each: number, ms: number) => {
    const prep = idAt(ms);
    await w.put('ibc_batch_preparation', {
      id: prep, batchNumber: doc('IBP'), preparedDate: dayOf(ms), deposit: plant, sourceMaterial: product.id, sourceBatch: lot, material: product.id, batchId: lot, uom: uomOf(product),
      containers: ibcs.map((i) => ({ ibc: i.id, ibcNumber: i.serial_number, quantity: each, topSeal: `T${serial}`, bottomSeal: `B${serial}` })),
      noOfItems: ibcs.length, totalQuantity: each * ibcs.length, ibcStatus: 'Prepared', history: history([['confirm', 'Draft', 'Prepared', ms]]), ...stamp(ms),
    });
    await transition('ibc_batch_preparation', prep, 'confirm', ms, [
      ...ibcs.map(() => ({ m: product, lot, deposit: plant, q: -each })), ...ibcs.map(() => ({ m: product, lot, deposit: plant, q: each })),
    ], ibcs.map((i) => objectEvent({ bizStep: 'packing', disposition: 'container_closed', epcList: [assetUri('ibc_container', String(i.serial_number))], ...at(plant), quantityList: [q(product, lot, each)] })));
    const sent = ms + DAY;
    const received = sent + between(1, 2) * DAY;
    const to = pick(receivers);
    const id = idAt(sent);
    await w.put('ibc_delivery', {
      id, shipmentID: doc('RI0001'), sendDate: dayOf(sent), deposit: plant, receiverDeposit: to.id, receiver: to.company_id, receiverCompanyType: typeOf(to.company_id),
      containers: ibcs.map((i) => ({ ibc: i.id, ibcNumber: i.serial_number })), noOfItems: ibcs.length, deliveryStatus: 'Received', receivedDate: dayOf(received),
      history: history([['confirm', 'Draft', 'In-Progress', sent], ['receive', 'In-Progress', 'Received', received]]), ...stamp(sent),
    });
    const route = (from: string, dest: string) => ({ sourceList: [{ type: 'location', source: loc(from) }], destinationList: [{ type: 'location', destination: loc(dest) }] });
    await transition('ibc_delivery', id, 'confirm', sent, ibcs.map(() => ({ m: product, lot, deposit: plant, q: -each })),
      ibcs.map((i) => objectEvent({ bizStep: 'shipping', disposition: 'in_transit', epcList: [assetUri('ibc_container', String(i.serial_number))], ...at(plant), ...route(plant, to.id), quantityList: [q(product, lot, each)] })));
    await transition('ibc_delivery', id, 'receive', received, ibcs.map(() => ({ m: product, lot, deposit: to.id, q: each })),
      ibcs.map((i) => objectEvent({ bizStep: 'receiving', disposition: 'in_progress', epcList: [assetUri('ibc_container', String(i.serial_number))], ...at(to.id), ...route(plant, to.id), quantityList: [q(product, lot, each)] })));
  };

  // Two years of history, a day at a time, until the events are there.
  const days = 730;
  const perDay = Math.max(1, Math.ceil(target / days / 90));
  let ibcTurn = 0;
  for (let d = 0; events < target; d++) {
    const base = end - (days - (d % days)) * DAY + Math.floor(d / days) * 3_600_000;
    for (let k = 0; k < perDay && events < target; k++) {
      let ms = base + k * 60_000;
      const plant = pick(plants).id;
      const ai = pick(ais);
      // The active-ingredient lot: imported, or synthesised from an imported precursor.
      const aiLot = doc('AI');
      const kg = 10_000;
      const imp = idAt(ms);
      const synthesised = r() < 0.25;
      const precursor = synthesised ? pick(ais.filter((x) => x.id !== ai.id)) : ai;
      const inLot = synthesised ? doc('PRE') : aiLot;
      const supplier = pick(suppliers);
      await lotDoc(precursor, inLot, ms);
      await w.put('product_import', {
        id: imp, importID: doc('IMP'), importDate: dayOf(ms), deposit: plant, originCountry: pick(countries).id, supplier: supplier.id,
        productData: [{ material: precursor.id, batchId: inLot, quantity: kg, uom: uomOf(precursor), elaborationDate: dayOf(ms - 20 * DAY), expirationDate: dayOf(ms + 700 * DAY) }],
        totalQuantity: kg, status: 'Imported', history: history([['confirm', 'Draft', 'Imported', ms]]), sync: { status: 'synced' }, ...stamp(ms),
      });
      await transition('product_import', imp, 'confirm', ms, [{ m: precursor, lot: inLot, deposit: plant, q: kg }], [
        objectEvent({ bizStep: 'receiving', disposition: 'in_progress', ...at(plant), quantityList: [q(precursor, inLot, kg)] }),
      ]);
      if (synthesised) {
        ms += 3 * DAY;
        const syn = idAt(ms);
        await lotDoc(ai, aiLot, ms);
        await w.put('synthesis', {
          id: syn, synthesisID: doc('SYN'), synthesisDate: dayOf(ms), deposit: plant, material: ai.id, batchId: aiLot, quantity: kg, uom: uomOf(ai), elaborationDate: dayOf(ms), expirationDate: dayOf(ms + 720 * DAY),
          consumption: [{ material: precursor.id, batchId: inLot, quantity: kg, uom: uomOf(precursor), consumptionStatus: 'Consumed' }], status: 'Declared',
          history: history([['declare', 'Draft', 'Declared', ms]]), sync: { status: 'synced' }, ...stamp(ms),
        });
        await transition('synthesis', syn, 'declare', ms, [{ m: precursor, lot: inLot, deposit: plant, q: -kg }, { m: ai, lot: aiLot, deposit: plant, q: kg }], [{
          type: 'TransformationEvent', inputQuantityList: [q(precursor, inLot, kg)], outputQuantityList: [q(ai, aiLot, kg)], transformationID: `urn:tracemesh:transformation:${syn}`,
          bizStep: 'commissioning', disposition: 'active', ...at(plant),
        }]);
      }
      aiOut.push({ material: ai.id, lot: aiLot });
      // Four formulated batches of 5,000 L, 500 kg each; each shipped in eight deliveries.
      for (let f = 0; f < 4; f++) {
        ms += DAY;
        const product = pick(products);
        const lot = await declare('product_declaration', plant, ai, [[aiLot, 500]], product, 5000, ms);
        productOut.push({ material: product.id, lot });
        for (let s = 0; s < 8; s++) await deliver(plant, product, lot, 400, ms + (s + 1) * DAY);
      }
      // One bulk batch of 3,000 L from 1,000 kg, fractionated into three IBC batches, each filled into IBCs shipped to a customer.
      if (r() < 0.5) {
        ms += 2 * DAY;
        const product = pick(products);
        const bulk = await declare('bulk_declaration', plant, ai, [[aiLot, 1000]], product, 3000, ms);
        ms += DAY;
        const fr = idAt(ms);
        const fractions = [1, 2, 3].map((x) => `${bulk}-IBC${x}`);
        for (const f of fractions) await lotDoc(product, f, ms);
        await w.put('bulk_fractionation', {
          id: fr, fractionationId: doc('FR'), fractionationDate: dayOf(ms), deposit: plant, material: product.id, batchId: bulk, quantity: 3000, uom: uomOf(product),
          ibcBatches: fractions.map((b) => ({ material: product.id, batchId: b, quantity: 1000, uom: uomOf(product) })), status: 'Fractionated',
          history: history([['fractionate', 'Draft', 'Fractionated', ms]]), sync: { status: 'synced' }, ...stamp(ms),
        });
        await transition('bulk_fractionation', fr, 'fractionate', ms, [{ m: product, lot: bulk, deposit: plant, q: -3000 }, ...fractions.map((b) => ({ m: product, lot: b, deposit: plant, q: 1000 }))], [{
          type: 'TransformationEvent', inputQuantityList: [q(product, bulk, 3000)], outputQuantityList: fractions.map((b) => q(product, b, 1000)),
          transformationID: `urn:tracemesh:transformation:${fr}`, bizStep: 'repackaging', disposition: 'active', ...at(plant),
        }]);
        for (const f of fractions) {
          const count = between(2, 4);
          const ibcs = Array.from({ length: count }, () => fleet[ibcTurn++ % fleet.length]);
          await fillAndShip(plant, product, f, ibcs, Math.floor(1000 / count), ms + DAY);
        }
      }
    }
  }
  for (const b of balances.values()) await w.put('stock_balance', { id: balanceId(b), ...b, lastOp: idAt(end) });
  await w.flushAll();
  // Written behind the transitions' back: the summaries they keep are built here, as on a boot.
  await rebuildBatchStock(store);
  await indexForEpcisQuery(store);
  return { events, counts: w.counts, seedMs, fillMs: performance.now() - t, ai: aiOut, products: productOut };
}

/**
 * The EPCIS query API's headers and identifier rows of the events written here, which the
 * transitions would have written beside them — where that API is (server/src/epcis, issue 19,
 * built in parallel): a path the type checker does not resolve, so the bench runs without it too.
 */
async function indexForEpcisQuery(store: Store): Promise<void> {
  const path = '../../server/src/epcis/indexing';
  const missing = (e: { code?: string }) => e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND';
  const epcis = (await import(path).catch((e) => { if (missing(e)) return null; throw e; })) as { rebuildEpcisIndex?: (s: Store) => Promise<void> } | null;
  await epcis?.rebuildEpcisIndex?.(store);
}
