import { lotClassUri } from '../../engine/src/index';
import { requireDefinitions } from '../../definitions/read';
import { hashPassword } from '../../server/src/auth/passwords';
import type { Store, StoredDoc } from '../../server/src/store/types';
import { seedActivity } from '../../scripts/seed/activity';
import { seedDemo } from '../../scripts/seed/seed';
import { stamp, withSeedStore } from './seed';
import { PASSWORD } from './users';

/** The trace story's quality manager: the traceability map, the events and the product history. */
export const QUALITY_USER = { email: 'quentin.quality@e2e.local', password: PASSWORD, name: 'Quentin Quality', access: ['Dashboards', 'Reports', 'Traceability Map', 'Assets'] } as const;

/** Days of demo activity: enough for imports, synthesis, bulk batches fractionated into IBC lots, IBCs filled, shipped and received. */
export const TRACE_DAYS = 60;

/**
 * What the seed made of the active-ingredient lot the story traces, counted from the records
 * and events themselves (not through the trace): every lot made from it (declarations, bulk
 * batches and their fractions, to any depth), the IBCs filled with those, the shipments that
 * carried them and the companies they reached, and how many event quantities name the lot.
 */
export interface TraceSeeded {
  material: string;
  materialName: string;
  lot: string;
  /** `material|number` of every lot made from it, itself included. */
  lots: string[];
  ibcs: { id: string; serial: string }[];
  /** `arrived`: some of it entered the receiver's deposit (not in transit, not rejected in full). */
  shipments: { workflow: string; id: string; shipmentID: string; receiverDeposit: string; receiverCompany: string; arrived: boolean }[];
  customers: string[];
  /** Event quantities (one CSV row each) naming the traced lot. */
  lotRows: number;
  seedMs: number;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const CLOSED = ['Draft', 'Cancelled'];

/** The lots made from `start`, closed under declarations (consumption → batch) and fractionations (batch → IBC batches). */
async function madeFrom(store: Store, start: string): Promise<Set<string>> {
  const lots = new Set([start]);
  const declared = [
    ...(await store.find('product_declaration', { filter: { status: 'Declared' } })),
    ...(await store.find('bulk_declaration', { filter: { status: 'Declared' } })),
    ...(await store.find('synthesis', { filter: { status: 'Declared' } })),
  ];
  const fractions = await store.find('bulk_fractionation', { filter: { status: 'Fractionated' } });
  for (let grew = true; grew;) {
    grew = false;
    const add = (key: string) => { if (!lots.has(key)) { lots.add(key); grew = true; } };
    for (const d of declared) {
      if ((d.consumption as StoredDoc[] | undefined ?? []).some((c) => lots.has(`${text(c.material)}|${text(c.batchId)}`))) add(`${text(d.material)}|${text(d.batchId)}`);
    }
    for (const f of fractions) {
      if (lots.has(`${text(f.material)}|${text(f.batchId)}`)) for (const b of f.ibcBatches as StoredDoc[]) add(`${text(b.material)}|${text(b.batchId)}`);
    }
  }
  return lots;
}

/** What the lot reached, from the records: IBCs filled from its lots, shipments of them, their receivers. */
async function reached(store: Store, lots: Set<string>): Promise<Pick<TraceSeeded, 'ibcs' | 'shipments' | 'customers'>> {
  const preps = (await store.find('ibc_batch_preparation', { filter: { ibcStatus: 'Prepared' } })).filter((p) => lots.has(`${text(p.sourceMaterial)}|${text(p.sourceBatch)}`));
  const ibcs = [...new Map(preps.flatMap((p) => (p.containers as StoredDoc[]).map((c) => [text(c.ibc), { id: text(c.ibc), serial: text(c.ibcNumber) }] as const))).values()];
  const shipped = [
    ...(await store.find('delivery', {})).filter((d) => !CLOSED.includes(text(d.deliveryStatus)) && (d.productData as StoredDoc[]).some((l) => lots.has(`${text(l.material)}|${text(l.batchId)}`)))
      .map((d) => ({ workflow: 'delivery', d })),
    ...(await store.find('bulk_delivery', {})).filter((d) => !CLOSED.includes(text(d.deliveryStatus)) && lots.has(`${text(d.material)}|${text(d.batchId)}`)).map((d) => ({ workflow: 'bulk_delivery', d })),
  ];
  const divisions = new Map((await store.find('company_division', {})).map((d) => [d.id, d]));
  const companies = new Map((await store.find('company', {})).map((c) => [c.id, c]));
  // Only receivers that took some in: a delivery in transit or rejected in full reached no one.
  const arrived = (d: StoredDoc) => !['In-Progress', 'Total Reject', 'Rejected'].includes(text(d.deliveryStatus)) && !(text(d.deliveryStatus) === 'Rejection Accepted' && rejectedAll(d));
  const shipments = shipped.map(({ workflow, d }) => ({
    workflow, id: d.id, shipmentID: text(d.shipmentID), receiverDeposit: text(d.receiverDeposit), receiverCompany: text(divisions.get(text(d.receiverDeposit))?.company_id), arrived: arrived(d),
  }));
  const senders = new Set(shipped.map(({ d }) => text(divisions.get(text(d.deposit))?.company_id)));
  const customers = [...new Set(shipments.filter((x) => x.arrived).map((x) => x.receiverCompany).filter((c) => c && !senders.has(c)))].map((c) => text(companies.get(c)?.company_name)).sort();
  return { ibcs, shipments, customers };
}

/** A delivery whose every line came back (a total rejection, accepted by the sender). */
function rejectedAll(d: StoredDoc): boolean {
  const lines = Array.isArray(d.productData) ? (d.productData as StoredDoc[]) : [d];
  return lines.every((l) => Number(l.accepted ?? 0) === 0);
}

/**
 * The trace story's data directory: demo master data and TRACE_DAYS of demo activity played
 * through the operations service, and the quality manager. The lot it traces is the imported
 * active-ingredient lot whose products reached the most IBCs (then shipments); `seeded` is
 * filled with what the records say it reached.
 */
export function traceSeed(): { seed: (appRoot: string, dataDir: string) => Promise<void>; seeded: TraceSeeded } {
  const seeded = {} as TraceSeeded;
  const seed = (appRoot: string, dataDir: string) => withSeedStore(appRoot, dataDir, async (store) => {
    const t0 = performance.now();
    const reg = requireDefinitions(appRoot);
    const end = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000 + 12 * 3_600_000);
    await seedDemo(reg, store, 1, end);
    await seedActivity(reg, store, TRACE_DAYS, end);
    await store.insert('user', {
      email: QUALITY_USER.email, display_name: QUALITY_USER.name, state: 1, access: [...QUALITY_USER.access], groups: [], templates: [], profiles: [],
      language: 'en', notification_channel: 'local', password_hash: await hashPassword(QUALITY_USER.password), ...stamp(),
    });
    const imported = (await store.find('product_import', { filter: { status: 'Imported' }, sort: { importDate: 1 } }))
      .flatMap((r) => (r.productData as StoredDoc[]).map((l) => `${text(l.material)}|${text(l.batchId)}`));
    // A lot that reached both IBCs and shipped batches first, then the one that reached the most.
    const score = (r: Awaited<ReturnType<typeof reached>>) => (r.ibcs.length > 0 && r.shipments.length > 0 ? 1e6 : 0) + r.ibcs.length + r.shipments.length;
    let best: { key: string; lots: Set<string>; r: Awaited<ReturnType<typeof reached>> } | undefined;
    for (const key of imported) {
      const lots = await madeFrom(store, key);
      const r = await reached(store, lots);
      if (!best || score(r) > score(best.r)) best = { key, lots, r };
    }
    if (!best || best.r.ibcs.length === 0 || best.r.shipments.length === 0) throw new Error('no imported lot reached both IBCs and shipments: lengthen TRACE_DAYS');
    const [material, lot] = [best.key.slice(0, best.key.indexOf('|')), best.key.slice(best.key.indexOf('|') + 1)];
    const m = await store.get('material', material);
    const uri = lotClassUri(material, lot, { materials: { [material]: { gtin: text(m?.gtin) || undefined } } });
    let lotRows = 0;
    for (const coll of ['object_events', 'transformation_events']) {
      for (const e of await store.find(coll, {})) {
        const body = (e.epcis ?? {}) as Record<string, unknown>;
        for (const list of ['quantityList', 'inputQuantityList', 'outputQuantityList']) {
          lotRows += ((body[list] as { epcClass?: string }[] | undefined) ?? []).filter((q) => q.epcClass === uri).length;
        }
      }
    }
    Object.assign(seeded, { material, materialName: text(m?.name), lot, lots: [...best.lots], ...best.r, lotRows, seedMs: performance.now() - t0 });
  });
  return { seed, seeded };
}
