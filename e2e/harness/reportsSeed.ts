import { requireDefinitions } from '../../definitions/read';
import { hashPassword } from '../../server/src/auth/passwords';
import { encodeTime } from '../../server/src/store/ids';
import { Writer } from '../../scripts/bench/reportsFill';
import { servicePort } from '../../scripts/seed/activity';
import { stamp, withSeedStore } from './seed';
import { PASSWORD, USERS } from './users';

/** The master data and people the reports story names on screen. */
export const REPORT_DATA = {
  company: 'Agro Informes S.A.',
  customer: 'Cooperativa Llanura',
  sender: 'Depósito Central Informes',
  receiver: 'Depósito Cooperativa Llanura',
  products: ['Fungicida Llanura 25% E2E', 'Insecticida Llanura 10% E2E'],
  litre: 'Litre',
  group: 'Gerencia Informes',
  /** The clones' send dates: every day of this year, in turn. */
  year: 2025,
} as const;

export const REPORT_USERS = {
  manager: { email: 'marta.manager@e2e.local', password: PASSWORD, name: 'Marta Manager', language: 'en', access: ['Reports', 'Alerts'] },
} as const;

/** The delivery states the seed leaves records in, each played once through the workflow. */
export const DELIVERY_STATES = ['Draft', 'In-Progress', 'Accepted', 'Partial Reject', 'Total Reject', 'Rejection Accepted', 'Cancelled'] as const;

/** What the seed wrote, for the story to assert against: deliveries by state and send date. */
export interface ReportsSeeded {
  deliveries: number;
  byStateAndDay: Map<string, number>;
  alerts: number;
  seedMs: number;
}

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
type Json = Record<string, unknown> & { id: string };

/** How many deliveries of `states` the seed sent between `from` and `to` (inclusive, YYYY-MM-DD). */
export function seededCount(s: ReportsSeeded, states: readonly string[], from = '0000-01-01', to = '9999-12-31'): number {
  let n = 0;
  for (const [k, count] of s.byStateAndDay) {
    const [state, day] = k.split('|');
    if (states.includes(state) && day >= from && day <= to) n += count;
  }
  return n;
}

/**
 * The reports story's data directory: a sender's and a customer's deposit (the manager's
 * warehouse group holds the sender's), two products, the manager (keys Reports and Alerts), an
 * import putting the lots in stock, one delivery played through the operations service into
 * each state (the rejections raise the alerts), then those deliveries cloned with
 * insertManyJson until `total` deliveries exist: clone i is a copy of state i mod 7's delivery,
 * sent on day i mod 365 of REPORT_DATA.year, with its own id and remito number.
 */
export function reportsSeed(total: number): { seed: (appRoot: string, dataDir: string) => Promise<void>; seeded: ReportsSeeded } {
  const seeded: ReportsSeeded = { deliveries: 0, byStateAndDay: new Map(), alerts: 0, seedMs: 0 };
  const tally = (state: string, day: string) => seeded.byStateAndDay.set(`${state}|${day}`, (seeded.byStateAndDay.get(`${state}|${day}`) ?? 0) + 1);
  const seed = (appRoot: string, dataDir: string) => withSeedStore(appRoot, dataDir, async (store) => {
    const t0 = performance.now();
    const reg = requireDefinitions(appRoot);
    const hash = await hashPassword(PASSWORD);
    const country = await store.insert('country', { country_name: 'Argentina', senasa_country_id: '32', sap_country_id: 'AR', sap_country_description: 'Argentina', state: 1, ...stamp() });
    const company = await store.insert('company', { company_name: REPORT_DATA.company, state: 1, ...stamp() });
    const customer = await store.insert('company', { company_name: REPORT_DATA.customer, state: 1, ...stamp() });
    const litre = await store.insert('units_of_measurement', { unit_name: REPORT_DATA.litre, sap_unit_id: 'L', state: 1, ...stamp() });
    const products = [];
    for (const name of REPORT_DATA.products) products.push(await store.insert('material', { name, uom: litre.id, is_traceable: true, raw: false, state: 1, ...stamp() }));
    const division = (name: string, owner: string, erp: string) => store.insert('company_division', {
      division_name: name, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: erp, company_id: owner, country: country.id, state: 1, ...stamp(),
    });
    const sender = await division(REPORT_DATA.sender, company.id, 'D-900');
    const receiver = await division(REPORT_DATA.receiver, customer.id, 'D-901');
    const m = REPORT_USERS.manager;
    const group = await store.insert('group', { name: REPORT_DATA.group, description: REPORT_DATA.group, access: [...m.access], warehouses: [sender.id], state: 1, ...stamp() });
    await store.insert('user', {
      email: m.email, display_name: m.name, state: 1, access: [...m.access], groups: [group.id], templates: [], profiles: [],
      language: m.language, notification_channel: 'local', password_hash: hash, ...stamp(),
    });

    // One delivery per state, through the workflow: the documents the clones copy, and the alerts.
    const [admin] = await store.find('user', { filter: { email: USERS.admin.email }, limit: 1 });
    const ops = servicePort(reg, store, { id: admin.id, email: USERS.admin.email });
    const at = new Date(Date.UTC(REPORT_DATA.year, 0, 1, 12));
    const lots = products.map((p, i) => ({ material: p.id, batchId: `LOT-RPT-${i + 1}`, uom: litre.id }));
    const imported = await ops.create('product_import', {
      importDate: dayOf(at.getTime()), importID: 'IMP-RPT-1', deposit: sender.id, productData: lots.map((l) => ({ ...l, quantity: 100_000, expirationDate: `${REPORT_DATA.year + 3}-12-31` })),
    }, at);
    await ops.transition('product_import', imported.id, 'confirm', {}, at);
    for (const [i, state] of DELIVERY_STATES.entries()) {
      const { id } = await ops.create('delivery', {
        sendDate: dayOf(at.getTime()), shipmentID: `R-RPT-${i}`, salesOrderNo: `SO-RPT-${i}`, deposit: sender.id, receiverDeposit: receiver.id,
        receiverCompanyType: 'customer', truckMapping: { truckNo: `AB${100 + i}CD`, isoTankLicense: '' },
        productData: lots.map((l, k) => ({ material: l.material, batchId: l.batchId, amount: 100 + 10 * k, uom: l.uom })),
      }, at);
      const step = (transition: string, body: { comment?: string; fields?: Record<string, unknown> } = {}) => ops.transition('delivery', id, transition, body, at);
      const received = { receivedDate: dayOf(at.getTime()) };
      if (state === 'Cancelled') await step('cancel');
      if (state !== 'Draft' && state !== 'Cancelled') await step('confirm');
      if (state === 'Accepted') await step('acceptAll', { fields: received });
      if (state === 'Partial Reject' || state === 'Rejection Accepted') await step('partialReject', { fields: { ...received, productData: [{ rejected: 5 }, { rejected: 0 }] }, comment: 'Faltante de etiquetas' });
      if (state === 'Total Reject') await step('totalReject', { fields: received, comment: 'Envases dañados en el transporte' });
      if (state === 'Rejection Accepted') await step('acceptRejection');
    }
    const samples = new Map<string, string>();
    for (const d of await store.find('delivery', {})) {
      samples.set(String(d.deliveryStatus), JSON.stringify(d));
      tally(String(d.deliveryStatus), String(d.sendDate));
    }
    for (const s of DELIVERY_STATES) if (!samples.has(s)) throw new Error(`the seed left no delivery in ${s}`);
    seeded.alerts = await store.count('alert', {});

    // The clones: as the workflow wrote them, with their own id, remito, date and times.
    const w = new Writer(store);
    const start = Date.UTC(REPORT_DATA.year, 0, 1, 9);
    for (let i = 0; i < total - DELIVERY_STATES.length; i++) {
      const state = DELIVERY_STATES[i % DELIVERY_STATES.length];
      const ms = start + (i % 365) * DAY + Math.floor(i / 365) * 50;
      const doc = JSON.parse(samples.get(state)!) as Json;
      const when = new Date(ms).toISOString();
      doc.id = encodeTime(ms) + i.toString(32).toUpperCase().padStart(16, '0');
      doc.shipmentID = `R-${String(i).padStart(7, '0')}`;
      doc.salesOrderNo = `SO-${i}`;
      doc.sendDate = dayOf(ms);
      doc.createdAt = when;
      doc.updatedAt = when;
      if (Array.isArray(doc.history)) doc.history = (doc.history as Record<string, unknown>[]).map((h) => ({ ...h, at: when }));
      await w.put('delivery', doc);
      tally(state, doc.sendDate as string);
    }
    await w.flushAll();
    if (process.env.E2E_SEED_LOG) console.log(`clones ${Math.round(performance.now() - t0)} ms`);
    // Bulk inserts index their search text later: done here, not by the server while the story runs.
    await store.find('delivery', { search: 'zzz', limit: 1 });
    seeded.deliveries = await store.count('delivery', {});
    seeded.seedMs = performance.now() - t0;
  });
  return { seed, seeded };
}
