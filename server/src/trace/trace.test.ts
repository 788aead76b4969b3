/**
 * Trace and recall through the real HTTP API over operations played through the real service
 * (testing/chain.ts draws the chain and its quantities): a lot, an IBC and a shipment traced
 * backward and forward, the nodes, edges and quantities worked out by hand from the chain; a
 * warehouse-limited user stopped at the group's edge and told; 404s and bad input leaving the
 * store as it was; the CSV and EPCIS exports. Runs on both stores (MONGODB_URI: the wire server).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import schema from '../../../../shared/epcis/EPCIS-JSON-Schema.json';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { startHarness, type Harness } from '../testing/harness';
import { playChain, type Chain } from './testing/chain';

type Body = Record<string, any>;
let h: Harness;
let c: Chain;
let plantUser: Record<string, string>;

const get = async (url: string, headers: Record<string, string> = c.admin) => {
  const r = await h.app.inject({ url, headers });
  // A CSV answer's text is under `body` as a string; any other answer is JSON.
  const body: Body = r.headers['content-type']?.toString().startsWith('text/csv') ? (r.body as unknown as Body) : (r.json() as Body);
  return { status: r.statusCode, body, headers: r.headers };
};
const ok = async (url: string, headers?: Record<string, string>) => {
  const r = await get(url, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

/** The edges as `kind from → to quantity unit`, named by the nodes' labels, sorted: what the chain's drawing says. */
const edgesOf = (t: Body) => {
  const label = new Map(t.nodes.map((n: Body) => [n.id, n.label]));
  return t.edges.map((e: Body) => `${e.kind} ${label.get(e.from)} → ${label.get(e.to)} ${e.quantity} ${e.unit}`).sort();
};

const IMPORT = [
  'produced Import IMP-1 → Precursor PMIDA · PRE-1 1000 KG',
  'consumed Precursor PMIDA · PRE-1 → Active ingredient synthesis SYN-1 800 KG',
  'produced Active ingredient synthesis SYN-1 → Glyphosate technical · AI-1 600 KG',
];
const FORMULATED = [
  'consumed Glyphosate technical · AI-1 → Product declaration PD-1 200 KG',
  'produced Product declaration PD-1 → Glyphosate 48 SL · P-1 2000 L',
];
const DELIVERY = [
  'consumed Glyphosate 48 SL · P-1 → Delivery R-0001 1000 L',
  'arrived Delivery R-0001 → Distributor deposit (Dist SRL) 900 L',
  'arrived Delivery R-0001 → Plant deposit (Agro SA) 100 L',
];
const BULK = [
  'consumed Glyphosate technical · AI-1 → Bulk product declaration BD-1 300 KG',
  'produced Bulk product declaration BD-1 → Glyphosate 48 SL · BLK-1 3000 L',
  'consumed Glyphosate 48 SL · BLK-1 → Bulk fractionation FR-1 2000 L',
  'produced Bulk fractionation FR-1 → Glyphosate 48 SL · BLK-1-A 1000 L',
];
const IBCS = [
  'consumed Glyphosate 48 SL · BLK-1-A → IBC batch preparation IBP-1 1000 L',
  'filled IBC batch preparation IBP-1 → IBC IBC-A 500 L',
  'filled IBC batch preparation IBP-1 → IBC IBC-B 500 L',
  'carried IBC IBC-A → IBC delivery RI-0001 500 L',
  'carried IBC IBC-B → IBC delivery RI-0001 500 L',
  'arrived IBC delivery RI-0001 → Campo Verde deposit (Campo Verde) 1000 L',
];
const SIBLING = 'produced Bulk fractionation FR-1 → Glyphosate 48 SL · BLK-1-B 1000 L';

beforeAll(async () => {
  h = await startHarness();
  c = await playChain(h);
  const group = await h.store.insert('group', { name: 'Plant', access: ['Traceability Map'], warehouses: [c.deposits.plant], state: 1 });
  plantUser = { ...(await h.userWith(['Traceability Map', 'Assets'], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'Plant' };
}, 120_000);
afterAll(async () => { await h?.close(); });

describe('a lot of active ingredient traced both ways', () => {
  let t: Body;
  beforeAll(async () => { t = await ok('/api/v3/trace?lot=AI-1'); });

  it('reaches every input, supplier and import behind it and every lot, IBC, shipment and deposit after it, with the quantities', () => {
    expect(edgesOf(t)).toEqual([...IMPORT, ...FORMULATED, ...DELIVERY, ...BULK, SIBLING, ...IBCS].sort());
    expect(t.start).toEqual({ kind: 'lot', nodes: [`lot:${c.materials.ai}|AI-1`], identifier: 'AI-1' });
    expect(t.nodes.find((n: Body) => n.start)).toMatchObject({ kind: 'lot', lot: 'AI-1', materialName: 'Glyphosate technical', expirationDate: '2027-03-01', deposit: c.deposits.plant });
    expect(t.summary).toMatchObject({
      lots: 6, shipments: 2, ibcs: 2, events: 15,
      customers: [{ id: c.companies.farm, name: 'Campo Verde' }, { id: c.companies.dist, name: 'Dist SRL' }],
      suppliers: [{ id: c.companies.supplier, name: 'Shanghai Chem' }],
      countries: [{ id: c.country, name: 'China' }],
    });
    expect(t.boundary).toEqual({ links: 0, nodes: 0, warehouse: null });
    expect(t.limits).toEqual({ maxDepth: 64, depth: 4, truncated: null });
  });

  it('names each operation by its document and places every node where its deposit is', () => {
    const imp = t.nodes.find((n: Body) => n.document === 'IMP-1');
    expect(imp).toMatchObject({ kind: 'operation', category: 'import', workflow: 'product_import', record: c.ops.imp, date: '2025-03-01', state: 'Imported', location: c.places.agro });
    expect(imp.companies).toEqual([{ id: c.companies.supplier, name: 'Shanghai Chem', role: 'supplier' }]);
    expect(imp.countries).toEqual([{ id: c.country, name: 'China', role: 'originCountry' }]);
    expect(t.nodes.find((n: Body) => n.document === 'R-0001')).toMatchObject({ category: 'shipment', state: 'Rejection accepted' });
    expect(t.nodes.find((n: Body) => n.document === 'IBP-1')).toMatchObject({ category: 'transformation' });
    expect(t.nodes.find((n: Body) => n.label === 'IBC IBC-A')).toMatchObject({ kind: 'ibc', record: c.ibcs.A, serial: 'IBC-A', location: c.places.agro });
    expect(t.nodes.find((n: Body) => n.kind === 'deposit' && n.deposit === c.deposits.farm)).toMatchObject({ companyName: 'Campo Verde', location: c.places.farm });
    for (const n of t.nodes) expect(n.location, n.label).toBeDefined();
  });

  it('draws the map: the located places and the goods flowing between them, from the supplier abroad to the customers', () => {
    const name = new Map(t.places.map((p: Body) => [p.id, p.label]));
    expect(t.flows.map((f: Body) => `${name.get(f.from)} → ${name.get(f.to)} ${f.lot} ${f.quantity} ${f.unit}`).sort()).toEqual([
      'Plant deposit (Agro SA) → Campo Verde deposit (Campo Verde) BLK-1-A 1000 L',
      'Plant deposit (Agro SA) → Distributor deposit (Dist SRL) P-1 900 L',
      'Shanghai Chem → Plant deposit (Agro SA) PRE-1 1000 KG',
    ]);
    expect(t.places.find((p: Body) => p.kind === 'company')).toMatchObject({ label: 'Shanghai Chem', location: c.places.supplier });
  });

  it('one direction at a time: forward from the precursor leaves its import out, backward from the formulated lot its bulk sibling', async () => {
    expect(edgesOf(await ok('/api/v3/trace?lot=PRE-1&direction=forward'))).toEqual([...IMPORT.slice(1), ...FORMULATED, ...DELIVERY, ...BULK, SIBLING, ...IBCS].sort());
    // Backward from P-1 at the distributor goes back through the delivery that brought it there.
    expect(edgesOf(await ok('/api/v3/trace?lot=P-1&direction=backward'))).toEqual([...IMPORT, ...FORMULATED, ...DELIVERY].sort());
  });

  it('stops at the depth asked and says so', async () => {
    const short = await ok('/api/v3/trace?lot=AI-1&maxDepth=1');
    expect(short.limits).toEqual({ maxDepth: 1, depth: 1, truncated: 'depth' });
    // One hop: from the lot's positions through each operation to the positions it touched (SYN-1's input among them).
    expect(edgesOf(short)).toEqual([IMPORT[1], IMPORT[2], ...FORMULATED, BULK[0], BULK[1]].sort());
  });
});

describe('an IBC and a shipment as starting points', () => {
  it('an IBC: what was filled into it, back to the import, and where it was carried', async () => {
    const t = await ok('/api/v3/trace?ibc=IBC-A');
    expect(t.start).toEqual({ kind: 'ibc', nodes: [`ibc:${c.ibcs.A}`], identifier: 'IBC-A' });
    expect(edgesOf(t)).toEqual([...IMPORT, ...BULK, ...IBCS].sort());
    expect(t.summary.customers).toEqual([{ id: c.companies.farm, name: 'Campo Verde' }]);
  });

  it('a shipment by its remito number: the lots in it back to their inputs, and where they arrived; nothing of the bulk branch', async () => {
    const t = await ok('/api/v3/trace?shipment=R-0001');
    expect(t.start).toEqual({ kind: 'shipment', nodes: [`op:delivery:${c.ops.delivery}`], identifier: 'R-0001' });
    expect(edgesOf(t)).toEqual([...IMPORT, ...FORMULATED, ...DELIVERY].sort());
    expect(edgesOf(await ok(`/api/v3/trace?shipment=${c.ops.delivery}&direction=forward`))).toEqual(DELIVERY.slice().sort());
  });

  it('an IBC delivery by its record id, forward only', async () => {
    expect(edgesOf(await ok(`/api/v3/trace?shipment=${c.ops.ibcDelivery}&direction=forward`))).toEqual(IBCS.slice(3).sort());
  });
});

describe('access: the selected warehouse group', () => {
  it('a plant user traces within the plant and is told how many links continue beyond it, and nothing of what is there', async () => {
    const r = await get('/api/v3/trace?lot=AI-1', plantUser);
    expect(r.status).toBe(200);
    const t = r.body as Body;
    expect(edgesOf(t)).toEqual([...IMPORT, ...FORMULATED, ...DELIVERY.filter((e) => !e.includes('Distributor')), ...BULK, SIBLING, ...IBCS.filter((e) => !e.includes('Campo Verde'))].sort());
    expect(t.boundary).toEqual({ links: 2, nodes: 2, warehouse: 'Plant' });
    expect(t.nodes.filter((n: Body) => n.beyond).map((n: Body) => [n.document, n.beyond]).sort()).toEqual([['R-0001', 1], ['RI-0001', 1]]);
    expect(t.summary.customers).toEqual([]);
    const text = JSON.stringify(t);
    for (const hidden of ['Dist SRL', 'Campo Verde', c.deposits.dist, c.deposits.farm, c.companies.farm]) expect(text).not.toContain(hidden);
  });

  it('its CSV leaves out the events read beyond the plant and names no place there', async () => {
    const csv = String((await get('/api/v3/trace/csv?lot=AI-1', plantUser)).body);
    const rows = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((x) => `${x['Business step']} ${x.Lot} ${x.Quantity}`)).not.toContain('inspecting P-1 100');
    expect(rows.filter((x) => x['Reference document'] === 'RI-0001').map((x) => x['Business step'])).toEqual(['shipping', 'shipping']);
    expect(rows.find((x) => x['Business step'] === 'receiving' && x.Lot === 'P-1')).toMatchObject({ Quantity: '100', From: 'Beyond your access', To: 'Plant deposit (Agro SA)' });
    expect(csv).not.toContain('Dist SRL');
    expect(csv).not.toContain('Campo Verde');
  });

  it('a lot only at another group\'s deposit is not found for it, as one that does not exist', async () => {
    expect((await get(`/api/v3/trace?lot=${c.distLot}`)).status).toBe(200);
    const r = await get(`/api/v3/trace?lot=${c.distLot}`, plantUser);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'TRACE_LOT_NOT_FOUND', message: `There is no lot ${c.distLot} to trace` } });
  });

  it('the keys: the trace needs Traceability Map; the events list takes Dashboards too, the history Assets', async () => {
    const dash = (await h.userWith(['Dashboards'])).headers;
    const assets = (await h.userWith(['Assets'])).headers;
    expect((await get('/api/v3/trace?lot=AI-1', dash)).status).toBe(403);
    expect((await get('/api/v3/trace/csv?lot=AI-1', dash)).status).toBe(403);
    expect((await get('/api/v3/trace/events?lot=AI-1', dash)).status).toBe(200);
    expect((await get('/api/v3/trace/history?lot=AI-1', assets)).status).toBe(200);
    expect((await get('/api/v3/trace/events?lot=AI-1', assets)).status).toBe(403);
    expect((await get('/api/v3/trace/search?q=AI', assets)).status).toBe(200);
  });
});

describe('bad input', () => {
  const COLLECTIONS = ['stock_movement', 'stock_balance', 'object_events', 'transformation_events', 'lot', 'delivery', 'ibc_container'];
  const counts = async () => Object.fromEntries(await Promise.all(COLLECTIONS.map(async (x) => [x, await h.store.count(x)] as const)));

  it('a trace from an identifier that names nothing is a 404 naming it', async () => {
    for (const [q, code, message] of [
      ['lot=NOPE-1', 'TRACE_LOT_NOT_FOUND', 'There is no lot NOPE-1 to trace'],
      ['ibc=NOPE-2', 'TRACE_IBC_NOT_FOUND', 'There is no IBC NOPE-2 to trace'],
      ['shipment=NOPE-3', 'TRACE_SHIPMENT_NOT_FOUND', 'There is no shipment NOPE-3 to trace'],
    ]) {
      const r = await get(`/api/v3/trace?${q}`);
      expect(r.status, q).toBe(404);
      expect(r.body.error).toMatchObject({ code, message });
    }
  });

  it('no start, two starts, a material alone, unknown or hostile values: 4xx with a clear message, the store unchanged', async () => {
    const before = await counts();
    for (const q of ['', 'lot=AI-1&ibc=IBC-A', 'material=x', 'lot=AI-1&direction=sideways', 'lot=AI-1&maxDepth=0', 'lot=AI-1&maxDepth=5000', 'lot[$gt]=', 'lot=%00', 'lot=x&lot=y']) {
      for (const path of ['/api/v3/trace', '/api/v3/trace/csv', '/api/v3/trace/epcis']) {
        const r = await get(`${path}?${q}`);
        expect(r.status, `${path}?${q}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${path}?${q}`).toBeLessThan(500);
        expect(typeof r.body.error?.message, `${path}?${q}`).toBe('string');
      }
    }
    expect((await get('/api/v3/trace')).body.error.code).toBe('TRACE_START_REQUIRED');
    expect((await get('/api/v3/trace/events?sort=lot&page=1')).status).toBe(400);
    expect((await get('/api/v3/trace/events?page=9000&pageSize=500')).status).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe('exports', () => {
  let csv: string;
  let rows: Record<string, string>[];
  beforeAll(async () => {
    const r = await get('/api/v3/trace/csv?lot=AI-1');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="trace-lot-AI-1-\d{4}-\d{2}-\d{2}\.csv"$/);
    csv = String(r.body);
    rows = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
  });

  it('the CSV has one row per event and lot, with what, lot, quantity, unit, from, to, when and the document', () => {
    expect(Object.keys(rows[0])).toEqual([
      'Date', 'Time (UTC)', 'Event type', 'Business step', 'Disposition', 'Material', 'GTIN', 'Lot', 'IBC', 'Role', 'Quantity', 'Unit', 'From', 'To', 'Reference document', 'Operation', 'Step', 'Event ID',
    ]);
    const line = (x: Record<string, string>) => [x['Reference document'], x['Business step'], x.Lot, x.IBC, x.Role, x.Quantity, x.Unit, x.From, x.To].join(' | ');
    expect(rows.map(line).sort()).toEqual([
      'IMP-1 | receiving | PRE-1 |  |  | 1000 | KG | Shanghai Chem, China | Plant deposit (Agro SA)',
      'SYN-1 | commissioning | PRE-1 |  | Input | 800 | KG | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'SYN-1 | commissioning | AI-1 |  | Output | 600 | KG | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'PD-1 | commissioning | AI-1 |  | Input | 200 | KG | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'PD-1 | commissioning | P-1 |  | Output | 2000 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'BD-1 | commissioning | AI-1 |  | Input | 300 | KG | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'BD-1 | commissioning | BLK-1 |  | Output | 3000 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'FR-1 | repackaging | BLK-1 |  | Input | 2000 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'FR-1 | repackaging | BLK-1-A |  | Output | 1000 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'FR-1 | repackaging | BLK-1-B |  | Output | 1000 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'IBP-1 | packing | BLK-1-A | IBC-A |  | 500 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'IBP-1 | packing | BLK-1-A | IBC-B |  | 500 | L | Plant deposit (Agro SA) | Plant deposit (Agro SA)',
      'RI-0001 | shipping | BLK-1-A | IBC-A |  | 500 | L | Plant deposit (Agro SA) | Campo Verde deposit (Campo Verde)',
      'RI-0001 | shipping | BLK-1-A | IBC-B |  | 500 | L | Plant deposit (Agro SA) | Campo Verde deposit (Campo Verde)',
      'RI-0001 | receiving | BLK-1-A | IBC-A |  | 500 | L | Plant deposit (Agro SA) | Campo Verde deposit (Campo Verde)',
      'RI-0001 | receiving | BLK-1-A | IBC-B |  | 500 | L | Plant deposit (Agro SA) | Campo Verde deposit (Campo Verde)',
      'R-0001 | shipping | P-1 |  |  | 1000 | L | Plant deposit (Agro SA) | Distributor deposit (Dist SRL)',
      'R-0001 | receiving | P-1 |  |  | 900 | L | Plant deposit (Agro SA) | Distributor deposit (Dist SRL)',
      'R-0001 | inspecting | P-1 |  |  | 100 | L | Distributor deposit (Dist SRL) | Distributor deposit (Dist SRL)',
      'R-0001 | receiving | P-1 |  |  | 100 | L | Distributor deposit (Dist SRL) | Plant deposit (Agro SA)',
    ].sort());
    const today = new Date().toISOString().slice(0, 10);
    for (const x of rows) {
      expect(x.Date).toBe(today);
      expect(x['Time (UTC)']).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    }
    expect(rows.find((x) => x.Lot === 'P-1')).toMatchObject({ GTIN: '07791234567898', Material: 'Glyphosate 48 SL' });
  });

  it('sorts by any column and speaks the user\'s language', async () => {
    const sorted = Papa.parse<string[]>(String((await get('/api/v3/trace/csv?lot=AI-1&sort=-quantity')).body).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(sorted.slice(1).map((x) => Number(x[10]))).toEqual(rows.map((x) => Number(x.Quantity)).sort((a, b) => b - a));
    const r = await h.app.inject({ url: '/api/v3/trace/csv?lot=AI-1', headers: { ...c.admin, 'accept-language': 'es' } });
    expect(r.body.split('\r\n')[0]).toBe('\uFEFFFecha,Hora (UTC),Tipo de evento,Paso de negocio,Disposición,Material,GTIN,Lote,IBC,Rol,Cantidad,Unidad,Desde,Hacia,Documento de referencia,Operación,Paso,ID de evento');
    expect(r.body).toContain(',Insumo,');
    expect(r.body).toContain('Importación');
  });

  it('the EPCIS document holds the same events and validates against the EPCIS 2.0 schema', async () => {
    const r = await h.app.inject({ url: '/api/v3/trace/epcis?lot=AI-1', headers: c.admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('application/ld+json');
    const doc = r.json();
    const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(doc.type).toBe('EPCISDocument');
    expect(new Set(doc.epcisBody.eventList.map((e: Body) => e.eventID))).toEqual(new Set(rows.map((x) => x['Event ID'])));
    expect(doc.epcisBody.eventList).toHaveLength(15);
  });

  it('the events list pages and sorts the same rows; without a trace it lists every event, narrowed to the group', async () => {
    const page = await ok('/api/v3/trace/events?lot=AI-1&sort=-quantity&page=2&pageSize=5');
    expect(page.total).toBe(20);
    expect(page.data.map((x: Body) => x.quantity)).toEqual(rows.map((x) => Number(x.Quantity)).sort((a, b) => b - a).slice(5, 10));
    const all = await ok('/api/v3/trace/events?pageSize=100');
    const stored = (await h.store.count('object_events')) + (await h.store.count('transformation_events'));
    expect(all.total).toBe(stored);
    expect(all.data.map((x: Body) => x.time)).toEqual([...all.data.map((x: Body) => x.time)].sort().reverse());
    const mine = await ok('/api/v3/trace/events?pageSize=100&sort=time', plantUser);
    expect(mine.total).toBeLessThan(stored);
    expect(mine.data.some((x: Body) => x.document === 'IMP-DIST')).toBe(false);
    expect(mine.data.some((x: Body) => x.document === 'IMP-1')).toBe(true);
  });
});

describe('search and history', () => {
  it('finds lots, IBCs and shipments by part of their number, within the group', async () => {
    const kinds = async (q: string, headers = c.admin) => (await ok(`/api/v3/trace/search?q=${encodeURIComponent(q)}`, headers)).data.map((x: Body) => `${x.kind} ${x.label}`);
    expect(await kinds('AI-1')).toEqual(['lot AI-1']);
    expect(await kinds('IBC-A')).toEqual(['ibc IBC-A']);
    expect(await kinds('R-0001')).toContain('shipment R-0001');
    expect(await kinds('RI-0001')).toContain('shipment RI-0001');
    expect(await kinds('D-9')).toContain('lot D-9');
    expect(await kinds('D-9', plantUser)).not.toContain('lot D-9');
    expect(await kinds('x')).toEqual([]);
  });

  it('a lot\'s history: made, shipped, partly received, the rejection back, with the stock after each step', async () => {
    const r = await ok('/api/v3/trace/history?lot=P-1');
    expect(r.lot).toMatchObject({ lot: 'P-1', materialName: 'Glyphosate 48 SL', gtin: '07791234567898', expirationDate: '2027-03-02' });
    expect(r.steps.map((s: Body) => [s.document, s.transition, s.depositName, s.quantity, s.unit, s.balance])).toEqual([
      ['PD-1', 'Declare', 'Plant deposit (Agro SA)', 2000, 'L', 2000],
      ['R-0001', 'Confirm', 'Plant deposit (Agro SA)', -1000, 'L', 1000],
      ['R-0001', 'Reject in part', 'Distributor deposit (Dist SRL)', 900, 'L', 1900],
      ['R-0001', 'Accept the rejection', 'Plant deposit (Agro SA)', 100, 'L', 2000],
    ]);
    const mine = await ok('/api/v3/trace/history?lot=P-1', plantUser);
    expect(mine.steps.map((s: Body) => s.balance)).toEqual([2000, 1000, 1100]);
    expect(mine.beyond).toBe(1);
  });
});

describe('a formula in a document number', () => {
  it('is neutralised in the CSV', async () => {
    const ship = await h.app.inject({ method: 'POST', url: '/api/v3/operations/delivery', headers: c.admin, payload: {
      sendDate: '2025-03-05', shipmentID: '=HYPERLINK("x")', deposit: c.deposits.plant, receiverDeposit: c.deposits.dist, receiverCompanyType: 'distributor',
      productData: [{ material: c.materials.product, batchId: 'P-1', amount: 10, uom: c.units.litre }],
    } });
    expect(ship.statusCode, ship.body).toBe(201);
    expect((await h.app.inject({ method: 'POST', url: `/api/v3/operations/delivery/${ship.json().id}/transitions/confirm`, headers: c.admin, payload: {} })).statusCode).toBe(200);
    const csv = String((await get('/api/v3/trace/csv?lot=P-1&direction=forward')).body);
    expect(csv).toContain('"\'=HYPERLINK(""x"")"');
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
