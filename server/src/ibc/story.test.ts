/**
 * The IBC story of issue 16 through the real HTTP API on the real definitions: IBCs registered in
 * master data, a batch of three prepared from a product lot, shipped to a customer, received,
 * asked back, returned, checked (one quarantined); after each step the IBCs, the stock, the
 * life-cycle log, the EPCIS events and the holdings and fleet measures. Then the ADR refusals
 * and the bad input of the issue, each leaving every collection it touches as it was.
 */
import { WAREHOUSE_HEADER } from '../plugins/access';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { addMonths, dayOf, IBC_ENTITY } from './dates';
import { IBC_EVENT } from './summary';

let h: Harness;
let staff: Record<string, string>;
let plant: string;
let plant2: string;
let custDep: string;
let customer: string;
let product: string;
let litre: string;
const ibc: Record<string, string> = {};
const TODAY = dayOf(new Date());
const SERIALS = ['IBC-1', 'IBC-2', 'IBC-3', 'IBC-4', 'IBC-5'];

type Body = Record<string, any>;
const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = staff) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Body };
};
const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, status = 200, headers = staff) => {
  const r = await call(method, url, payload, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const take = (wf: string, id: string, t: string, fields?: Body) => ok('POST', `/api/v3/operations/${wf}/${id}/transitions/${t}`, fields ? { fields } : {});
const stock = async (deposit: string) => Number((await ok('GET', `/api/v3/stock?material=${product}&batch=P-001&deposit=${deposit}`)).data[0]?.quantity ?? 0);
const ibcs = async (...serials: string[]) => Promise.all(serials.map(async (s) => (await ok('GET', `/api/v3/ibc/lookup?serial=${s}`))));
const holding = async () => (await ok('GET', `/api/v3/ibc/holdings?customer=${customer}`)).data[0];
const measures = () => ok('GET', '/api/v3/ibc/measures');
const epc = (serial: string) => `urn:tracemesh:asset:ibc_container:${serial}`;
/** The EPCIS events naming an IBC, oldest first, as bizStep/disposition. */
const ibcEvents = async (serial: string) => (await h.store.find('object_events', { sort: { id: 1 } }))
  .filter((e) => ((e.epcis as Body).epcList ?? []).includes(epc(serial))).map((e) => `${e.biz_step}/${e.disposition}`);
const logOf = async (serial: string) => (await h.store.find(IBC_EVENT, { filter: { serial }, sort: { id: 1 } })).map((r) => r.transition);
/** Every collection a refused operation could have written, counted. */
const COLLECTIONS = [IBC_ENTITY, IBC_EVENT, 'object_events', 'transformation_events', 'stock_movement', 'ibc_batch_preparation', 'ibc_delivery', 'return_request'];
const counts = async () => Object.fromEntries(await Promise.all(COLLECTIONS.map(async (c) => [c, await h.store.count(c)] as const)));
/** Runs `fn` and checks it wrote nothing: the same counts, the same IBCs. */
const unchanged = async (fn: () => Promise<void>) => {
  const [before, stored] = [await counts(), await h.store.find(IBC_ENTITY, { sort: { id: 1 } })];
  await fn();
  expect(await counts()).toEqual(before);
  expect(await h.store.find(IBC_ENTITY, { sort: { id: 1 } })).toEqual(stored);
};
const refused = async (r: { status: number; body: Body }, status: number, code: string, ...named: string[]) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.code).toBe(code);
  for (const n of named) expect(r.body.error.message).toContain(n);
};

const batchPreparation = (batchNumber: string, containers: Body[], deposit = plant) => ({
  batchNumber, preparedDate: TODAY, deposit, sourceMaterial: product, sourceBatch: 'P-001', material: product, batchId: 'P-001', uom: litre, containers,
});
const companyBody = (name: string) => ({ company_name: name, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } }, state: 1 });
const line = (serial: string, quantity = 1000) => ({ ibcNumber: serial, quantity, topSeal: `T-${serial}`, bottomSeal: `B-${serial}` });

beforeAll(async () => {
  h = await startHarness();
  staff = (await h.userWith([
    'Master Data', 'Imports', 'productTraceability', 'ibcTraceability', 'IBC Inventory', 'IBC Batch Preparation', 'IBC Deliveries', 'IBC Reception',
    'Return Requests', 'IBC Returns', 'Perform QC', 'Map IBC',
  ])).headers;
  litre = (await h.store.insert('units_of_measurement', { unit_name: 'Litre', code: 'LT', state: 1 })).id;
  product = (await h.store.insert('material', { name: 'Glyphosate 48 SL', uom: litre, state: 1 })).id;
  const company = async (name: string) => (await h.store.insert('company', companyBody(name))).id;
  const division = async (name: string, company_id: string) => (await h.store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id, country: 'AR', state: 1,
  })).id;
  const producer = await company('Agro SA');
  plant = await division('Plant deposit', producer);
  plant2 = await division('Second deposit', producer);
  customer = await company('Campo Verde');
  custDep = await division('Campo Verde deposit', customer);
  const made = addMonths(TODAY, -12)!;
  for (const s of SERIALS) {
    const r = await ok('POST', '/api/v3/masterdata/ibc_container', { serial_number: s, manufactured_date: made, material_type: 'rigid_plastic', capacity: 1000, deposit_id: plant, state: 1, status: 'blocked', numberOfUses: 7 }, 201);
    expect(r).toMatchObject({ status: 'in_stock_empty', numberOfUses: 0, nextInspectionDate: addMonths(made, 30), endOfLife: addMonths(made, 60) });
    ibc[s] = r.id;
  }
  const imp = await ok('POST', '/api/v3/operations/product_import', {
    importDate: TODAY, importID: 'IMP-IBC', deposit: plant, productData: [{ material: product, batchId: 'P-001', quantity: 3000, uom: litre, expirationDate: '2030-01-01' }],
  }, 201);
  await take('product_import', imp.id, 'confirm');
});
afterAll(async () => { await h?.close(); });

describe('an IBC cycle: prepare → ship → receive → return request → return → QC', () => {
  it('starts with five empty IBCs in stock and nothing held', async () => {
    expect(await stock(plant)).toBe(3000);
    const m = await measures();
    expect(m).toMatchObject({ fleetSize: 5, fillCountDistribution: [{ uses: 0, count: 5 }], lost: 0, pastInspection: 0 });
    expect(m.byStatus.in_stock_empty).toBe(5);
    expect((await ok('GET', '/api/v3/ibc/holdings')).data).toEqual([]);
  });

  it('a batch preparation larger than the stock is refused STOCK_INSUFFICIENT and writes nothing', async () => {
    const draft = await ok('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation('BP-BIG', [line('IBC-1', 2000), line('IBC-2', 1500)]), 201);
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc_batch_preparation/${draft.id}/transitions/confirm`, {}), 400, 'STOCK_INSUFFICIENT', '1000 available', '1500 requested'));
    await take('ibc_batch_preparation', draft.id, 'cancel');
  });

  let prepared: string;
  it('container lines name IBCs by serial or by id, each filled from the other; an unknown serial is a 404 naming it', async () => {
    await unchanged(async () => refused(await call('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation('BP-X', [line('IBC-1'), line('IBC-404')])), 404, 'VALUE_NOT_FOUND', 'IBC-404'));
    const { ibcNumber: _, ...byId } = { ...line('IBC-3'), ibc: ibc['IBC-3'] };
    const draft = await ok('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation('BP-1', [line('IBC-1'), line('IBC-3')]), 201);
    prepared = draft.id;
    expect(draft.containers.map((c: Body) => [c.ibc, c.ibcNumber])).toEqual([[ibc['IBC-1'], 'IBC-1'], [ibc['IBC-3'], 'IBC-3']]);
    const edited = await ok('PUT', `/api/v3/operations/ibc_batch_preparation/${draft.id}`, batchPreparation('BP-1', [line('IBC-1'), line('IBC-2'), byId]));
    expect(edited.containers.map((c: Body) => [c.ibc, c.ibcNumber])).toEqual([[ibc['IBC-1'], 'IBC-1'], [ibc['IBC-2'], 'IBC-2'], [ibc['IBC-3'], 'IBC-3']]);
    await unchanged(async () => refused(await call('PUT', `/api/v3/operations/ibc_batch_preparation/${draft.id}`, batchPreparation('BP-1', [line('IBC-9')])), 404, 'VALUE_NOT_FOUND', 'IBC-9'));
  });

  it('confirming the batch fills the three IBCs: prepared, one use, sealed, the lot inside; the stock is unchanged by a plain fill', async () => {
    expect((await take('ibc_batch_preparation', prepared, 'confirm')).record.ibcStatus).toBe('Prepared');
    for (const r of await ibcs('IBC-1', 'IBC-2', 'IBC-3')) {
      expect(r).toMatchObject({
        status: 'prepared', numberOfUses: 1, topSeal: `T-${r.serial_number}`, bottomSeal: `B-${r.serial_number}`, preparedDate: TODAY,
        content: { material: product, batch: 'P-001', quantity: 1000, uom: litre },
      });
    }
    expect(await stock(plant)).toBe(3000);
    expect(await h.store.count('transformation_events')).toBe(0);
    expect(await logOf('IBC-1')).toEqual(['fill']);
    expect(await ibcEvents('IBC-1')).toEqual(['packing/container_closed']);
    const m = await measures();
    expect(m.byStatus).toMatchObject({ prepared: 3, in_stock_empty: 2 });
    expect(m.fillCountDistribution).toEqual([{ uses: 0, count: 2 }, { uses: 1, count: 3 }]);
  });

  let delivery: string;
  it('an IBC delivery ships them: in transit to the customer, the product leaves the deposit', async () => {
    const d = await ok('POST', '/api/v3/operations/ibc_delivery', {
      sendDate: TODAY, shipmentID: 'R-IBC-0001', deposit: plant, receiverDeposit: custDep, receiver: customer, receiverCompanyType: 'customer',
      containers: [{ ibcNumber: 'IBC-1' }, { ibcNumber: 'IBC-2' }, { ibc: ibc['IBC-3'] }],
    }, 201);
    expect(d.containers.map((c: Body) => c.ibcNumber)).toEqual(['IBC-1', 'IBC-2', 'IBC-3']);
    delivery = d.id;
    expect((await take('ibc_delivery', delivery, 'confirm')).record.deliveryStatus).toBe('In-Progress');
    for (const r of await ibcs('IBC-1', 'IBC-2', 'IBC-3')) expect(r).toMatchObject({ status: 'in_transit', inTransitTo: custDep, deliveryId: 'R-IBC-0001' });
    expect(await stock(plant)).toBe(0);
    expect(await stock(custDep)).toBe(0);
    expect((await measures()).byStatus).toMatchObject({ in_transit: 3, prepared: 0 });
    expect(await ibcEvents('IBC-2')).toEqual(['packing/container_closed', 'shipping/in_transit']);
  });

  it('the customer receives them: at the customer, who holds three to return; the product is at its deposit', async () => {
    expect((await take('ibc_delivery', delivery, 'receive', { receivedDate: TODAY })).record.deliveryStatus).toBe('Received');
    for (const r of await ibcs('IBC-1', 'IBC-2', 'IBC-3')) expect(r).toMatchObject({ status: 'at_customer', customer, lastCustomer: customer, deposit_id: custDep });
    expect(await stock(custDep)).toBe(3000);
    expect(await holding()).toMatchObject({ customer, customerName: 'Campo Verde', totalIbcTaken: 3, totalIbcReturned: 0, ibcToReturn: 3, avgReturnTime: null });
    expect((await measures()).byStatus).toMatchObject({ at_customer: 3, in_transit: 0 });
    const rows = await h.store.find(IBC_EVENT, { filter: { serial: 'IBC-1' }, sort: { id: 1 } });
    expect(rows.map((r) => [r.transition, r.from, r.to])).toEqual([['fill', 'in_stock_empty', 'prepared'], ['ship', 'prepared', 'in_transit'], ['receive', 'in_transit', 'at_customer']]);
    expect(rows[2]).toMatchObject({ customer, deposit: custDep, uses: 1, operation: { workflow: 'ibc_delivery', id: delivery, transition: 'receive' } });
  });

  let request: string;
  it("the owner's warehouse group still lists, opens, looks up and reads the log of its IBCs at the customer; another group none of them", async () => {
    const owner = String((await h.store.get('company_division', plant))!.company_id);
    for (const s of ['IBC-1', 'IBC-2', 'IBC-3']) await h.store.patch(IBC_ENTITY, ibc[s], { company_id: owner });
    const other = (await h.store.insert('company', companyBody('Lejos SA'))).id;
    const far = (await h.store.insert('company_division', { division_name: 'Far deposit', division_type: 'deposit', senasa_id_type: 'x', erp_id: 'far', company_id: other, country: 'AR', state: 1 })).id;
    const member = async (name: string, warehouses: string[]) => {
      const g = await h.store.insert('group', { name, access: [], warehouses, state: 1 });
      return { ...(await h.userWith(['ibcTraceability', 'IBC Inventory'], { groups: [g.id] })).headers, [WAREHOUSE_HEADER]: name };
    };
    const ownerStaff = await member('Owner plant', [plant]);
    const farStaff = await member('Far', [far]);
    const listed = await ok('GET', `/api/v3/ibc?customer=${customer}`, undefined, 200, ownerStaff);
    expect(listed.data.map((r: Body) => r.serial_number).sort()).toEqual(['IBC-1', 'IBC-2', 'IBC-3']);
    expect((await ok('GET', `/api/v3/operations/ibc/${ibc['IBC-1']}`, undefined, 200, ownerStaff)).record.status).toBe('at_customer');
    expect((await ok('GET', `/api/v3/ibc?customer=${customer}`, undefined, 200, farStaff)).total).toBe(0);
    expect((await call('GET', `/api/v3/operations/ibc/${ibc['IBC-1']}`, undefined, farStaff)).status).toBe(404);
    // The look-up and the IBC's log answer the same: seen by the owner's group, unknown to another.
    expect((await ok('GET', '/api/v3/ibc/lookup?serial=IBC-1', undefined, 200, ownerStaff)).status).toBe('at_customer');
    expect((await ok('GET', `/api/v3/ibc/${ibc['IBC-1']}/events`, undefined, 200, ownerStaff)).total).toBeGreaterThan(0);
    await refused(await call('GET', '/api/v3/ibc/lookup?serial=IBC-1', undefined, farStaff), 404, 'VALUE_NOT_FOUND', 'IBC-1');
    await refused(await call('GET', `/api/v3/ibc/${ibc['IBC-1']}/events`, undefined, farStaff), 404, 'RECORD_NOT_FOUND');
  });

  it('a return request asks them back: return requested, still held', async () => {
    const rr = await ok('POST', '/api/v3/operations/return_request', {
      requestNumber: 'RR-0001', requestDate: TODAY, customer, deposit: custDep, returnTo: plant, returnState: 'empty',
      containers: SERIALS.slice(0, 3).map((s) => ({ ibcNumber: s })),
    }, 201);
    request = rr.id;
    expect((await take('return_request', request, 'request')).record.status).toBe('Requested');
    for (const r of await ibcs('IBC-1', 'IBC-2', 'IBC-3')) expect(r).toMatchObject({ status: 'return_requested', returnRequestId: 'RR-0001', returnState: 'empty' });
    expect(await holding()).toMatchObject({ ibcToReturn: 3 });
    expect((await measures()).byStatus).toMatchObject({ return_requested: 3, at_customer: 0 });
  });

  it('receiving the return brings them back to our deposit, empty: returned, nothing left to return', async () => {
    expect((await take('return_request', request, 'receive')).record.status).toBe('Returned');
    for (const r of await ibcs('IBC-1', 'IBC-2', 'IBC-3')) {
      expect(r).toMatchObject({ status: 'returned', deposit_id: plant, lastCustomer: customer });
      expect(r.customer ?? null).toBeNull();
      expect(r.content ?? null).toBeNull();
    }
    const held = await holding();
    expect(held).toMatchObject({ totalIbcTaken: 3, totalIbcReturned: 3, ibcToReturn: 0 });
    expect(held.avgReturnTime).toBeGreaterThanOrEqual(0);
    expect(held.avgReturnTime).toBeLessThan(0.1);
    expect((await measures()).byStatus).toMatchObject({ returned: 3, return_requested: 0 });
    expect(await ibcEvents('IBC-3')).toEqual(['packing/container_closed', 'shipping/in_transit', 'receiving/in_progress', 'holding/reserved', 'receiving/returned']);
  });

  it('the QC quarantines one and passes the others (one recording an inspection); the measures follow', async () => {
    for (const s of ['IBC-1', 'IBC-2', 'IBC-3']) expect((await take('ibc', ibc[s], 'startQC')).record.status).toBe('in_qc');
    expect((await measures()).byStatus).toMatchObject({ in_qc: 3, returned: 0 });
    const q = (await take('ibc', ibc['IBC-1'], 'quarantine', { qcDate: TODAY, qcResult: 'valve leaking', performedBy: 'QC team' })).record;
    expect(q).toMatchObject({ status: 'quarantine', qcStatus: 'quarantine', qcResult: 'valve leaking', qcLeadTime: 0 });
    expect(q.returnedAt.slice(0, 10)).toBe(TODAY);
    const passed = (await take('ibc', ibc['IBC-2'], 'passQC', { qcDate: TODAY, qcResult: 'ok', performedBy: 'QC team', inspection: true })).record;
    expect(passed).toMatchObject({ status: 'in_stock_empty', qcStatus: 'passed', lastInspectionDate: TODAY, nextInspectionDate: addMonths(TODAY, 30) });
    expect(passed.topSeal ?? null).toBeNull();
    expect((await take('ibc', ibc['IBC-3'], 'passQC', { qcDate: TODAY, qcResult: 'ok', performedBy: 'QC team' })).record.status).toBe('in_stock_empty');
    const m = await measures();
    expect(m.byStatus).toMatchObject({ quarantine: 1, in_stock_empty: 4, in_qc: 0, returned: 0 });
    expect(m.fillCountDistribution).toEqual([{ uses: 0, count: 2 }, { uses: 1, count: 3 }]);
    expect(m.fleetSize).toBe(5);
    expect(await logOf('IBC-1')).toEqual(['fill', 'ship', 'receive', 'requestReturn', 'return', 'startQC', 'quarantine']);
    expect(await ibcEvents('IBC-1')).toContain('inspecting/non_conformant');
    expect(await holding()).toMatchObject({ totalIbcTaken: 3, totalIbcReturned: 3, ibcToReturn: 0 });
  });
});

describe('ADR dates refuse a fill', () => {
  const register = async (serial: string, fields: Body) => {
    const r = await ok('POST', '/api/v3/masterdata/ibc_container', { serial_number: serial, material_type: 'rigid_plastic', deposit_id: plant, state: 1, ...fields }, 201);
    return r as Body;
  };
  const tryFill = async (serial: string, attempt = 1) => {
    const draft = await ok('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation(`BP-${serial}-${attempt}`, [line(serial, 10)]), 201);
    return { draft: draft.id as string, result: () => call('POST', `/api/v3/operations/ibc_batch_preparation/${draft.id}/transitions/confirm`, {}) };
  };
  beforeAll(async () => {
    const imp = await ok('POST', '/api/v3/operations/product_import', { importDate: TODAY, importID: 'IMP-ADR', deposit: plant, productData: [{ material: product, batchId: 'P-001', quantity: 100, uom: litre }] }, 201);
    await take('product_import', imp.id, 'confirm');
  });

  it('past its periodic inspection date: 409 TRANSITION_REFUSED naming the IBC and the date; nothing written', async () => {
    const old = await register('IBC-OLD', { manufactured_date: addMonths(TODAY, -31) });
    expect(old.nextInspectionDate < TODAY).toBe(true);
    const { result } = await tryFill('IBC-OLD');
    await unchanged(async () => refused(await result(), 409, 'TRANSITION_REFUSED', 'IBC-OLD', old.nextInspectionDate, 'inspect'));
    expect((await measures()).pastInspection).toBe(1);
  });

  it('once inspected in stock (a QC recording the inspection), the same IBC fills', async () => {
    const { draft, result } = await tryFill('IBC-OLD', 2);
    expect((await take('ibc', (await ibcs('IBC-OLD'))[0].id, 'startQC')).record.status).toBe('in_qc');
    const inspected = (await take('ibc', (await ibcs('IBC-OLD'))[0].id, 'passQC', { qcDate: TODAY, qcResult: 'hydraulic test passed', inspection: true })).record;
    expect(inspected).toMatchObject({ status: 'in_stock_empty', lastInspectionDate: TODAY, nextInspectionDate: addMonths(TODAY, 30) });
    expect((await result()).status).toBe(200);
    expect((await ok('GET', `/api/v3/operations/ibc_batch_preparation/${draft}`)).record.ibcStatus).toBe('Prepared');
    expect((await ibcs('IBC-OLD'))[0]).toMatchObject({ status: 'prepared', numberOfUses: 1 });
  });

  it('past its end of life: 409 naming the IBC and the date; nothing written', async () => {
    const eol = await register('IBC-EOL', { manufactured_date: addMonths(TODAY, -61), lastInspectionDate: addMonths(TODAY, -2) });
    expect(eol.nextInspectionDate > TODAY).toBe(true);
    const { result } = await tryFill('IBC-EOL');
    await unchanged(async () => refused(await result(), 409, 'TRANSITION_REFUSED', 'IBC-EOL', eol.endOfLife, 'end of life'));
  });
});

describe('bad input changes nothing', () => {
  it('an unknown serial number or NFC tag: 404 with the value', async () => {
    await refused(await call('GET', '/api/v3/ibc/lookup?serial=NOPE-1'), 404, 'VALUE_NOT_FOUND', 'NOPE-1');
    await refused(await call('GET', '/api/v3/ibc/lookup?nfc=TAG-404'), 404, 'VALUE_NOT_FOUND', 'TAG-404');
    await unchanged(async () => refused(await call('POST', '/api/v3/operations/ibc_delivery', {
      sendDate: TODAY, shipmentID: 'R-404', deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'NOPE-2' }],
    }), 404, 'VALUE_NOT_FOUND', 'NOPE-2'));
  });

  it('a tag already mapped to another IBC: 409 naming that IBC', async () => {
    await take('ibc', ibc['IBC-4'], 'mapNfc', { nfcTagNumber: 'TAG-4' });
    expect((await ok('GET', '/api/v3/ibc/lookup?nfc=TAG-4')).serial_number).toBe('IBC-4');
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc/${ibc['IBC-5']}/transitions/mapNfc`, { fields: { nfcTagNumber: 'TAG-4' } }), 409, 'VALUE_TAKEN', 'TAG-4', 'IBC-4'));
  });

  it('an IBC not where the operation says: 409 RECORD_NOT_AVAILABLE naming where it is', async () => {
    // Wrong deposit: IBC-4 is at the plant deposit, the batch is prepared at the second one.
    const elsewhere = await ok('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation('BP-ELSEWHERE', [line('IBC-4', 10)], plant2), 201);
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc_batch_preparation/${elsewhere.id}/transitions/confirm`, {}), 409, 'RECORD_NOT_AVAILABLE', 'IBC-4', 'Plant deposit'));
    // In QC (quarantined): it cannot be shipped.
    const shipQuarantined = await ok('POST', '/api/v3/operations/ibc_delivery', {
      sendDate: TODAY, shipmentID: 'R-Q', deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'IBC-1' }],
    }, 201);
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc_delivery/${shipQuarantined.id}/transitions/confirm`, {}), 409, 'RECORD_NOT_AVAILABLE', 'IBC-1', 'Quarantine', 'Plant deposit'));
    // At a customer: a return request for an IBC that another customer holds.
    await h.store.patch(IBC_ENTITY, ibc['IBC-5'], { status: 'at_customer', customer, lastCustomer: customer, deposit_id: custDep });
    const other = (await h.store.insert('company', companyBody('Otro SA'))).id;
    const wrongCustomer = await ok('POST', '/api/v3/operations/return_request', {
      requestNumber: 'RR-WRONG', requestDate: TODAY, customer: other, deposit: custDep, returnTo: plant, returnState: 'empty', containers: [{ ibcNumber: 'IBC-5' }],
    }, 201);
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/return_request/${wrongCustomer.id}/transitions/request`, {}), 409, 'RECORD_NOT_AVAILABLE', 'IBC-5', 'Campo Verde'));
    // And a batch cannot fill an IBC at a customer.
    const atCustomer = await ok('POST', '/api/v3/operations/ibc_batch_preparation', batchPreparation('BP-ATCUST', [line('IBC-5', 10)]), 201);
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc_batch_preparation/${atCustomer.id}/transitions/confirm`, {}), 409, 'RECORD_NOT_AVAILABLE', 'IBC-5', 'At customer', 'Campo Verde'));
  });

  it('an IBC taken back or shipped without naming where to: refused, so it never stays at a customer\'s deposit as ours', async () => {
    // IBC-5 is at the customer (the test above put it there).
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc/${ibc['IBC-5']}/transitions/return`, { fields: {} }), 409, 'TRANSITION_REFUSED', 'IBC-5'));
    await h.store.patch(IBC_ENTITY, ibc['IBC-2'], { status: 'prepared' });
    await unchanged(async () => refused(await call('POST', `/api/v3/operations/ibc/${ibc['IBC-2']}/transitions/ship`, { fields: {} }), 400, 'TRANSITION_FIELD_REQUIRED'));
  });
});
