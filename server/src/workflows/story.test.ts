/**
 * The story of issue 15 through the real HTTP API on the real product definitions: an active
 * ingredient imported, a production batch declared consuming it, part shipped to a distributor
 * who rejects some of it, the sender accepting the rejection; and a total rejection returning
 * everything. After each step: stock by material, batch and deposit from GET /api/v3/stock, the
 * record's state and history, and the EPCIS events stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { WAREHOUSE_HEADER } from '../plugins/access';

let h: Harness;
let plant: string;
let dist: string;
let ai: string;
let product: string;
let kg: string;
let litre: string;
let sender: Record<string, string>;
let receiver: Record<string, string>;
let viewer: Record<string, string>;

const call = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Record<string, any> };
};
const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown, status = 200) => {
  const r = await call(method, url, headers, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
/** What GET /api/v3/stock says of one material, batch and deposit (0 when it lists nothing). */
const stock = async (material: string, batch: string, deposit: string) => {
  const r = await ok('GET', `/api/v3/stock?material=${material}&batch=${encodeURIComponent(batch)}&deposit=${deposit}`, viewer);
  expect(r.total).toBeLessThanOrEqual(1);
  return Number(r.data[0]?.quantity ?? 0);
};
const expectStock = async (rows: [string, string, string, number][]) => {
  for (const [material, batch, deposit, q] of rows) expect(await stock(material, batch, deposit), `${batch} at ${deposit}`).toBe(q);
};
const events = async (coll: string, id: string) => h.store.find(coll, { filter: { 'operation.id': id }, sort: { id: 1 } });
const transitionsOf = (history: { transition: string; from: string; to: string }[]) => history.map((e) => `${e.from} -${e.transition}-> ${e.to}`);

beforeAll(async () => {
  h = await startHarness();
  const unit = (code: string) => h.store.insert('units_of_measurement', { name: code, code, state: 1 });
  kg = (await unit('KG')).id;
  litre = (await unit('LT')).id;
  ai = (await h.store.insert('material', { name: 'Glyphosate technical', uom: kg, state: 1 })).id;
  product = (await h.store.insert('material', { name: 'Glyphosate 48 SL', uom: litre, state: 1 })).id;
  const company = async (name: string, type: string) => (await h.store.insert('company', { company_name: name, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: type } }, state: 1 })).id;
  const division = async (name: string, company_id: string) => (await h.store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id, country: 'AR', state: 1,
  })).id;
  plant = await division('Plant deposit', await company('Agro SA', 'producer'));
  dist = await division('Distributor deposit', await company('Dist SRL', 'distributor'));
  // A group's keys are its members' too: the distributor's group holds none of the sender's.
  const plantGroup = await h.store.insert('group', { name: 'Plant', access: ['Imports', 'Product Declaration', 'Deliveries'], warehouses: [plant], state: 1 });
  const distGroup = await h.store.insert('group', { name: 'Distributor', access: ['Reception'], warehouses: [dist], state: 1 });
  sender = { ...(await h.userWith(['Imports', 'Product Declaration', 'Deliveries'], { groups: [plantGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Plant' };
  receiver = { ...(await h.userWith(['Reception'], { groups: [distGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Distributor' };
  viewer = (await h.userWith(['productTraceability'])).headers;
});
afterAll(async () => { await h?.close(); });

const ship = async (shipmentID: string, amount: number) => {
  const d = await ok('POST', '/api/v3/operations/delivery', sender, {
    sendDate: '2025-03-10', shipmentID, deposit: plant, receiverDeposit: dist, receiverCompanyType: 'distributor',
    truckMapping: { truckNo: 'AB123CD', isoTankLicense: 'ISO-9' },
    productData: [{ material: product, batchId: 'P-001', amount, uom: litre }],
  }, 201);
  expect(d.deliveryStatus).toBe('Draft');
  const confirmed = (await ok('POST', `/api/v3/operations/delivery/${d.id}/transitions/confirm`, sender, {})).record;
  expect(confirmed.deliveryStatus).toBe('In-Progress');
  expect(confirmed.sync).toEqual({ status: '', deadline: expect.any(String) });
  const shipping = await events('object_events', d.id);
  expect(shipping.map((e) => e.biz_step)).toEqual(['shipping']);
  return d.id as string;
};

describe('import → declaration → delivery → partial reject → rejection accepted', () => {
  let deliveryId: string;

  it('imports an active ingredient: stock arrives at the deposit, the lot gets its dates, a receiving event is stored', async () => {
    const rec = await ok('POST', '/api/v3/operations/product_import', sender, {
      importDate: '2025-03-01', importID: 'IMP-001', deposit: plant,
      productData: [{ material: ai, batchId: 'AI-001', quantity: 500, uom: kg, elaborationDate: '2025-01-15', expirationDate: '2027-01-15' }],
    }, 201);
    expect(rec.status).toBe('Draft');
    await expectStock([[ai, 'AI-001', plant, 0]]);
    const done = (await ok('POST', `/api/v3/operations/product_import/${rec.id}/transitions/confirm`, sender, { comment: 'arrived' })).record;
    expect(done.status).toBe('Imported');
    // Who took it, by id and by the name the reader of the record can show without reading users.
    expect(done.history).toMatchObject([{ transition: 'confirm', from: 'Draft', to: 'Imported', comment: 'arrived', byName: 'Test User' }]);
    await expectStock([[ai, 'AI-001', plant, 500]]);
    const row = (await ok('GET', `/api/v3/stock?material=${ai}`, viewer)).data[0];
    expect(row).toMatchObject({ expirationDate: '2027-01-15', elaborationDate: '2025-01-15', unit: kg });
    const evs = await events('object_events', rec.id);
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ biz_step: 'receiving', read_point: expect.any(String) });
  });

  it('declares a production batch: the active ingredient is consumed, the new batch arrives, a transformation event is stored', async () => {
    const rec = await ok('POST', '/api/v3/operations/product_declaration', sender, {
      productionDate: '2025-03-05', productDeclarationId: 'PD-001', deposit: plant, material: product, batchId: 'P-001', quantity: 1000, uom: litre,
      elaborationDate: '2025-03-05', expirationDate: '2027-03-05',
      consumption: [{ material: ai, batchId: 'AI-001', quantity: 200, uom: kg }],
    }, 201);
    const done = (await ok('POST', `/api/v3/operations/product_declaration/${rec.id}/transitions/declare`, sender, {})).record;
    expect(done.status).toBe('Declared');
    expect(done.consumption[0].consumptionStatus).toBe('Consumed');
    expect(transitionsOf(done.history)).toEqual(['Draft -declare-> Declared']);
    await expectStock([[ai, 'AI-001', plant, 300], [product, 'P-001', plant, 1000]]);
    const lot = await h.store.find('lot', { filter: { material: product, number: 'P-001' } });
    expect(lot).toMatchObject([{ expirationDate: '2027-03-05' }]);
    const evs = await events('transformation_events', rec.id);
    expect(evs).toHaveLength(1);
    expect(evs[0].epcis).toMatchObject({ type: 'TransformationEvent', bizStep: 'commissioning' });
  });

  it('ships part of the batch: it leaves the plant and is not yet at the distributor', async () => {
    deliveryId = await ship('R-0001-00000001', 400);
    await expectStock([[product, 'P-001', plant, 600], [product, 'P-001', dist, 0]]);
  });

  it('the distributor rejects part: the accepted quantity arrives, the rejected one is in limbo, an alert is raised', async () => {
    const got = await ok('GET', `/api/v3/operations/delivery/${deliveryId}`, receiver);
    expect(got.transitions.map((t: { id: string }) => t.id)).toEqual(['acceptAll', 'partialReject', 'totalReject']);
    const r = (await ok('POST', `/api/v3/operations/delivery/${deliveryId}/transitions/partialReject`, receiver, {
      comment: 'damaged drums', fields: { productData: [{ rejected: 100 }], receivedDate: '2025-03-11' },
    })).record;
    expect(r.deliveryStatus).toBe('Partial Reject');
    expect(r.productData[0]).toMatchObject({ amount: 400, rejected: 100, accepted: 300 });
    expect(r.receivedDate).toBe('2025-03-11');
    await expectStock([[product, 'P-001', plant, 600], [product, 'P-001', dist, 300]]);
    const steps = (await events('object_events', deliveryId)).map((e) => e.biz_step);
    expect(steps).toEqual(['shipping', 'receiving', 'inspecting']);
    // For the sender, when it was raised: what the alerts report narrows on and shows.
    const [alert] = await h.store.find('alert', { filter: { 'operation.id': deliveryId } });
    expect(alert).toMatchObject({ deposit: plant, severity: 'warning', read: false });
    expect(typeof alert.timestamp === 'string' && alert.timestamp === alert.createdAt).toBe(true);
  });

  it('the sender accepts the rejection: the rejected quantity returns to the plant', async () => {
    // The receiver may not take the sender's step.
    const refused = await call('POST', `/api/v3/operations/delivery/${deliveryId}/transitions/acceptRejection`, receiver, {});
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    const r = (await ok('POST', `/api/v3/operations/delivery/${deliveryId}/transitions/acceptRejection`, sender, {})).record;
    expect(r.deliveryStatus).toBe('Rejection Accepted');
    expect(transitionsOf(r.history)).toEqual([
      'Draft -confirm-> In-Progress', 'In-Progress -partialReject-> Partial Reject', 'Partial Reject -acceptRejection-> Rejection Accepted',
    ]);
    await expectStock([[product, 'P-001', plant, 700], [product, 'P-001', dist, 300], [ai, 'AI-001', plant, 300]]);
    const last = (await events('object_events', deliveryId)).at(-1)!;
    expect(last).toMatchObject({ biz_step: 'receiving', disposition: 'returned' });
    // Nothing left to do on it.
    expect((await ok('GET', `/api/v3/operations/delivery/${deliveryId}`, sender)).transitions).toEqual([]);
  });

  it('a total rejection, once accepted, returns everything to the sender', async () => {
    const id = await ship('R-0001-00000002', 50);
    await expectStock([[product, 'P-001', plant, 650]]);
    const noComment = await call('POST', `/api/v3/operations/delivery/${id}/transitions/totalReject`, receiver, {});
    expect(noComment.status).toBe(400);
    expect(noComment.body.error.code).toBe('TRANSITION_FIELD_REQUIRED');
    const r = (await ok('POST', `/api/v3/operations/delivery/${id}/transitions/totalReject`, receiver, { comment: 'wrong product' })).record;
    expect(r.deliveryStatus).toBe('Total Reject');
    expect(r.productData[0]).toMatchObject({ amount: 50, rejected: 50, accepted: 0 });
    await expectStock([[product, 'P-001', plant, 650], [product, 'P-001', dist, 300]]);
    await ok('POST', `/api/v3/operations/delivery/${id}/transitions/acceptRejection`, sender, {});
    await expectStock([[product, 'P-001', plant, 700], [product, 'P-001', dist, 300]]);
    const rec = await h.store.get('delivery', id);
    expect(rec!.deliveryStatus).toBe('Rejection Accepted');
    expect((await events('object_events', id)).map((e) => e.disposition)).toEqual(['in_transit', 'non_conformant', 'returned']);
  });
});

describe('the receivers\' screens read deliveries by their own keys, and nobody else does', () => {
  it('Reception alone lists, reads and accepts; Active Receptions alone lists and reads; other keys get 403', async () => {
    const id = await ship('R-0001-00000003', 5);
    // A group of the distributor's deposit holding just this key (a group's keys are its members').
    const only = async (key: string) => {
      const name = `Distributor (${key})`;
      const group = (await h.store.find('group', { filter: { name } }))[0] ?? await h.store.insert('group', { name, access: [key], warehouses: [dist], state: 1 });
      return { ...(await h.userWith([key], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: name };
    };
    for (const key of ['Reception', 'Active Receptions']) {
      const headers = await only(key);
      const tray = await ok('GET', '/api/v3/operations/delivery?state=In-Progress&depositField=receiverDeposit', headers);
      expect(tray.data.map((d: { id: string }) => d.id)).toContain(id);
      const got = await ok('GET', `/api/v3/operations/delivery/${id}`, headers);
      expect(got.transitions.map((t: { id: string }) => t.id)).toEqual(key === 'Reception' ? ['acceptAll', 'partialReject', 'totalReject'] : []);
      // Reading is not writing: a draft is the sender's.
      expect((await call('POST', '/api/v3/operations/delivery', headers, {})).status).toBe(403);
    }
    const activeOnly = await only('Active Receptions');
    expect((await call('POST', `/api/v3/operations/delivery/${id}/transitions/acceptAll`, activeOnly, {})).status).toBe(403);
    const r = await ok('POST', `/api/v3/operations/delivery/${id}/transitions/acceptAll`, await only('Reception'), {});
    expect(r.record.deliveryStatus).toBe('Accepted');
    for (const key of ['Imports', 'Scrapped', 'productTraceability']) {
      const other = (await h.userWith([key])).headers;
      const list = await call('GET', '/api/v3/operations/delivery', other);
      expect(list.status).toBe(403);
      expect(list.body.error.code).toBe('FORBIDDEN_ANY');
      expect((await call('GET', `/api/v3/operations/delivery/${id}`, other)).status).toBe(403);
    }
  });
});

describe('a delivery\'s shipment type is the server\'s (SPEC 6)', () => {
  it('internal iff the receiver company type is internal, on create and on edit, whatever the body says', async () => {
    const body = (receiverCompanyType: string) => ({
      sendDate: '2025-04-01', shipmentID: `R-TYPE-${receiverCompanyType}`, deposit: plant, receiverDeposit: dist, receiverCompanyType, shipmentType: 'external',
      productData: [{ material: product, batchId: 'P-001', amount: 1, uom: litre }],
    });
    const d = await ok('POST', '/api/v3/operations/delivery', sender, body('internal'), 201);
    expect(d.shipmentType).toBe('internal');
    expect((await h.store.get('delivery', d.id))!.shipmentType).toBe('internal');
    for (const type of ['distributor', 'customer', 'carrier']) {
      const edited = await ok('PUT', `/api/v3/operations/delivery/${d.id}`, sender, { ...body(type), shipmentID: d.shipmentID, shipmentType: 'internal' });
      expect(edited.shipmentType, type).toBe('external');
    }
    const back = await ok('PUT', `/api/v3/operations/delivery/${d.id}`, sender, { ...body('internal'), shipmentID: d.shipmentID });
    expect(back.shipmentType).toBe('internal');
  });
});

describe('stock narrowed to the selected warehouse group', () => {
  it('shows only the deposits of the selected group on stock, batches and movements, now and on a past date', async () => {
    const group = await h.store.insert('group', { name: 'Plant stock', access: ['productTraceability'], warehouses: [plant], state: 1 });
    const scoped = { ...(await h.userWith(['productTraceability'], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'Plant stock' };
    const all = await ok('GET', '/api/v3/stock?pageSize=200', viewer);
    expect(new Set(all.data.map((r: { deposit: string }) => r.deposit))).toEqual(new Set([plant, dist]));
    const mine = await ok('GET', '/api/v3/stock?pageSize=200', scoped);
    expect(mine.data).toEqual(all.data.filter((r: { deposit: string }) => r.deposit === plant));
    expect(mine.total).toBe(mine.data.length);
    expect((await ok('GET', `/api/v3/stock?deposit=${dist}`, scoped))).toEqual({ data: [], total: 0 });
    expect((await ok('GET', `/api/v3/stock?material=${product}&batch=P-001&deposit=${dist}&at=2030-01-01`, scoped)).total).toBe(0);
    expect((await ok('GET', `/api/v3/stock?material=${product}&batch=P-001&deposit=${dist}&at=2030-01-01`, viewer)).total).toBe(1);
    const past = await ok('GET', '/api/v3/stock?at=2030-01-01&pageSize=200', scoped);
    expect(past.data.map((r: { deposit: string }) => r.deposit)).toEqual(mine.data.map(() => plant));
    const batches = await ok('GET', `/api/v3/stock/batches?material=${product}`, scoped);
    expect(batches.data.map((r: { batch: string; deposit: string }) => `${r.batch}@${r.deposit}`)).toEqual([`P-001@${plant}`]);
    expect((await ok('GET', `/api/v3/stock/batches?material=${product}`, viewer)).data).toHaveLength(2);
    const moves = await ok('GET', '/api/v3/stock/movements?pageSize=200', scoped);
    expect(moves.total).toBe(await h.store.count('stock_movement', { deposit: plant }));
    expect(moves.data.every((m: { deposit: string }) => m.deposit === plant)).toBe(true);
    expect((await ok('GET', '/api/v3/stock/movements?pageSize=200', viewer)).total).toBeGreaterThan(moves.total);
    const stranger = await call('GET', '/api/v3/stock', { ...viewer, [WAREHOUSE_HEADER]: 'Plant stock' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.code).toBe('WAREHOUSE_NOT_YOURS');
  });
});
