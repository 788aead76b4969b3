/**
 * A bulk delivery through the real HTTP API on the real definitions: the truck and ISO tank
 * registered in master data, a bulk lot imported, shipped in the tank (the stock leaves),
 * accepted at the receiver (the stock arrives); another rejected, the rejection accepted (the
 * stock back); the EPCIS events of each; bulk inventory read from the ledger. A truck or tank
 * not registered is refused on the draft and by verify-truck, writing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { bulkWorld } from '../testing/bulkWorld';

let h: Harness;
let staff: Record<string, string>;
let plant: string;
let dist: string;
let receiver: string;
let bulk: string;
let litre: string;
const TODAY = new Date().toISOString().slice(0, 10);

type Body = Record<string, any>;
const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers: staff, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Body };
};
const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown, status = 200) => {
  const r = await call(method, url, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const take = (id: string, t: string, body: Body = {}) => ok('POST', `/api/v3/operations/bulk_delivery/${id}/transitions/${t}`, body);
/** Bulk inventory: the stock route filtered to the bulk material, per deposit. */
const inventory = async () => Object.fromEntries((await ok('GET', `/api/v3/stock?material=${bulk}`)).data.map((r: Body) => [r.deposit, r.quantity]));
const steps = async (id: string) => (await h.store.find('object_events', { filter: { 'operation.id': id }, sort: { id: 1 } })).map((e) => `${e.biz_step}/${e.disposition}`);
const delivery = (shipmentID: string, quantity: number, truckMapping = { truckNo: 'TRK-1', isoTankLicense: 'ISO-1' }) => ({
  sendDate: TODAY, shipmentID, deposit: plant, receiverDeposit: dist, receiver, material: bulk, batchId: 'BULK-1', quantity, uom: litre, truckMapping,
});

beforeAll(async () => {
  h = await startHarness();
  staff = (await h.userWith(['Master Data', 'Imports', 'Bulk Deliveries', 'Bulk Reception', 'productTraceability'])).headers;
  ({ plant, dist, receiver, bulk, litre } = await bulkWorld(h, staff, 'BULK-1'));
});
afterAll(async () => { await h?.close(); });

describe('bulk deliveries with truck mapping', () => {
  it('a truck or tank not registered: 400 NOT_REGISTERED on the draft and on verify-truck, nothing written', async () => {
    for (const [mapping, named] of [[{ truckNo: 'TRK-404', isoTankLicense: 'ISO-1' }, 'TRK-404'], [{ truckNo: 'TRK-1', isoTankLicense: 'ISO-404' }, 'ISO-404']] as const) {
      const r = await call('POST', '/api/v3/operations/bulk_delivery', delivery('R-BAD', 100, mapping));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'NOT_REGISTERED' });
      expect(r.body.error.message).toContain(named);
      const v = await call('POST', '/api/v3/bulk/verify-truck', mapping);
      expect(v.status).toBe(400);
      expect(v.body.error.message).toContain(named);
    }
    expect(await h.store.count('bulk_delivery')).toBe(0);
    expect((await ok('POST', '/api/v3/bulk/verify-truck', { truckNo: 'TRK-1', isoTankLicense: 'ISO-1' })).truck.plate).toBe('AB 123 CD');
  });

  it('confirmed: the bulk leaves the deposit; accepted at the receiver: it arrives there', async () => {
    expect(await inventory()).toEqual({ [plant]: 30000 });
    const d = await ok('POST', '/api/v3/operations/bulk_delivery', delivery('R-BULK-1', 20000), 201);
    expect((await take(d.id, 'confirm')).record.deliveryStatus).toBe('In-Progress');
    expect(await inventory()).toEqual({ [plant]: 10000 });
    const accepted = (await take(d.id, 'accept', { fields: { receivedDate: TODAY } })).record;
    expect(accepted).toMatchObject({ deliveryStatus: 'Received', rejected: 0, accepted: 20000 });
    expect(await inventory()).toEqual({ [plant]: 10000, [dist]: 20000 });
    expect(await steps(d.id)).toEqual(['shipping/in_transit', 'receiving/in_progress']);
    const [shipping] = await h.store.find('object_events', { filter: { 'operation.id': d.id, biz_step: 'shipping' } });
    expect((shipping.epcis as Body).bizTransactionList).toEqual([expect.objectContaining({ bizTransaction: expect.stringContaining('R-BULK-1') })]);
  });

  it('rejected at the receiver, the rejection accepted: the bulk is back at the deposit', async () => {
    const d = await ok('POST', '/api/v3/operations/bulk_delivery', delivery('R-BULK-2', 4000), 201);
    await take(d.id, 'confirm');
    expect(await inventory()).toEqual({ [plant]: 6000, [dist]: 20000 });
    const rejected = (await take(d.id, 'reject', { comment: 'contaminated sample', fields: { receivedDate: TODAY } })).record;
    expect(rejected).toMatchObject({ deliveryStatus: 'Rejected', rejected: 4000 });
    expect(await inventory()).toEqual({ [plant]: 6000, [dist]: 20000 });
    expect(await h.store.count('alert', { 'operation.id': d.id })).toBe(1);
    expect((await take(d.id, 'acceptRejection')).record.deliveryStatus).toBe('Rejection Accepted');
    expect(await inventory()).toEqual({ [plant]: 10000, [dist]: 20000 });
    expect(await steps(d.id)).toEqual(['shipping/in_transit', 'inspecting/non_conformant', 'receiving/returned']);
  });

  it('a rejection needs its comment: 400, nothing written', async () => {
    const d = await ok('POST', '/api/v3/operations/bulk_delivery', delivery('R-BULK-3', 1000), 201);
    await take(d.id, 'confirm');
    const before = await h.store.count('object_events');
    expect((await call('POST', `/api/v3/operations/bulk_delivery/${d.id}/transitions/reject`, {})).status).toBe(400);
    expect(await h.store.count('object_events')).toBe(before);
    expect((await h.store.get('bulk_delivery', d.id))!.deliveryStatus).toBe('In-Progress');
  });
});
