/**
 * The two bulk features of the mobile app (issue 20) through POST /api/v3/mobile/actions on the
 * real definitions: Bulk Deliveries confirms a shipment planned in the office with the truck and
 * ISO tank read at the gate, once they are found in the registers (verifyTruckMapping: a truck
 * not registered is refused with the reason and nothing changes; another registered truck than
 * the planned one is what left, and is recorded); Bulk Reception accepts it at the receiver's
 * deposit. Both done offline: the shipment is marked so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { bulkWorld } from '../testing/bulkWorld';

type Body = Record<string, any>;
let h: Harness;
let office: Record<string, string>;
let gate: Record<string, string>;
let receiverStaff: Record<string, string>;
let plant: string;
let dist: string;
let receiver: string;
let bulk: string;
let litre: string;
const TODAY = new Date().toISOString().slice(0, 10);
const AT = new Date().toISOString();

const call = async (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Body };
};
const ok = async (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: unknown, status = 200) => {
  const r = await call(headers, method, url, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const send = async (headers: Record<string, string>, deviceId: string, actions: Body[]) => (await ok(headers, 'POST', '/api/v3/mobile/actions', { deviceId, actions })).results as Body[];
const act = (seq: number, feature: string, recordId: string, transition: string, fields: Body) =>
  ({ seq, feature, workflow: 'bulk_delivery', recordId, kind: 'transition', transition, fields, at: AT, offline: true });
const stockAt = async () => Object.fromEntries((await ok(office, 'GET', `/api/v3/stock?material=${bulk}`)).data.map((r: Body) => [r.deposit, r.quantity]));

beforeAll(async () => {
  h = await startHarness();
  office = (await h.userWith(['Master Data', 'Imports', 'Bulk Deliveries', 'productTraceability'])).headers;
  gate = (await h.userWith(['bulk.mobile.delivery'])).headers;
  receiverStaff = (await h.userWith(['bulk.mobile.reception'])).headers;
  ({ plant, dist, receiver, bulk, litre } = await bulkWorld(h, office, 'BULK-M', ['TRK-1', 'TRK-2']));
});
afterAll(async () => { await h?.close(); });

describe('bulk on the phone', () => {
  it('the gate confirms a drafted shipment only with a registered truck and tank; the receiver accepts it; both marked offline', async () => {
    // Planned in the office with a truck; the gate reads the one that arrives.
    const planned = { truckNo: 'TRK-1', isoTankLicense: 'ISO-1' };
    const draft = await ok(office, 'POST', '/api/v3/operations/bulk_delivery', {
      sendDate: TODAY, shipmentID: 'R-BULK-M', deposit: plant, receiverDeposit: dist, receiver, material: bulk, batchId: 'BULK-M', quantity: 12000, uom: litre, truckMapping: planned,
    }, 201);
    const app = await ok(gate, 'GET', '/api/v3/mobile/app');
    expect(app.features.map((f: Body) => f.id)).toEqual(['bulkDeliveries']);
    expect(app.features[0].transitions.map((t: Body) => [t.transition, t.fields])).toEqual([['confirm', ['truckMapping.truckNo', 'truckMapping.isoTankLicense']]]);

    const [unknownTruck] = await send(gate, 'gate-1', [act(1, 'bulkDeliveries', draft.id, 'confirm', { truckMapping: { truckNo: 'TRK-404', isoTankLicense: 'ISO-1' } })]);
    expect(unknownTruck).toMatchObject({ status: 'rejected', error: { code: 'NOT_REGISTERED' } });
    expect(unknownTruck.error.message).toContain('TRK-404');
    expect(typeof unknownTruck.error.hint).toBe('string');
    expect((await h.store.get('bulk_delivery', draft.id))!).toMatchObject({ deliveryStatus: 'Draft' });
    expect((await h.store.get('bulk_delivery', draft.id))!.truckMapping).toEqual(planned);
    expect(await stockAt()).toEqual({ [plant]: 30000 });

    const [confirmed] = await send(gate, 'gate-1', [act(2, 'bulkDeliveries', draft.id, 'confirm', { truckMapping: { truckNo: 'TRK-2', isoTankLicense: 'ISO-1' } })]);
    expect(confirmed).toMatchObject({ status: 'applied', record: { id: draft.id, state: 'In-Progress' } });
    expect(await h.store.get('bulk_delivery', draft.id)).toMatchObject({ truckMapping: { truckNo: 'TRK-2', isoTankLicense: 'ISO-1' }, offline: true, offlineDevice: 'gate-1' });
    expect(await stockAt()).toEqual({ [plant]: 18000 });

    // The gate cannot receive: Bulk Reception is another key.
    const [notHeld] = await send(gate, 'gate-1', [act(3, 'bulkReception', draft.id, 'accept', { receivedDate: TODAY })]);
    expect(notHeld).toMatchObject({ status: 'rejected', error: { code: 'FORBIDDEN' } });
    const [accepted] = await send(receiverStaff, 'dock-1', [act(1, 'bulkReception', draft.id, 'accept', { receivedDate: TODAY })]);
    expect(accepted).toMatchObject({ status: 'applied', record: { state: 'Received' } });
    expect(await stockAt()).toEqual({ [plant]: 18000, [dist]: 12000 });
  });
});
