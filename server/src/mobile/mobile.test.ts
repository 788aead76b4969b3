/**
 * The mobile API of issue 20 on the real definitions and the embedded store: the app a user's
 * keys give, the terms, and queued actions judged at most once each, in seq order, by the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { dayOf, IBC_ENTITY } from '../ibc/dates';
import { VERDICTS } from './verdicts';
import { ibcWorld } from '../testing/ibcFleet';

type Body = Record<string, any>;
let h: Harness;
let admin: Record<string, string>;
let plant: string;
let custDep: string;
let customer: string;
const ibc: Record<string, string> = {};
const TODAY = dayOf(new Date());
const AT = new Date().toISOString();

const call = async (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: (r.body ? r.json() : null) as Body };
};
const send = async (headers: Record<string, string>, deviceId: string, actions: Body[]) => {
  const r = await call(headers, 'POST', '/api/v3/mobile/actions', { deviceId, actions });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.results as Body[];
};
const act = (seq: number, feature: string, workflow: string, recordId: string, kind: 'create' | 'transition', more: Body = {}) =>
  ({ seq, feature, workflow, recordId, kind, at: AT, offline: false, ...more });
const COLLECTIONS = [IBC_ENTITY, 'ibc_delivery', 'object_events', VERDICTS, 'ibc_event'];
const counts = async () => Object.fromEntries(await Promise.all(COLLECTIONS.map(async (c) => [c, await h.store.count(c)] as const)));
const delivery = (shipmentID: string, serials: string[]) => ({
  sendDate: TODAY, shipmentID, deposit: plant, receiverDeposit: custDep, receiver: customer, containers: serials.map((ibcNumber) => ({ ibcNumber })),
});

beforeAll(async () => {
  h = await startHarness();
  admin = (await h.userWith(['superadmin'])).headers;
  const world = await ibcWorld(h.store);
  ({ plant, customer, custDep } = world);
  const put = async (serial: string, doc: Body) => { ibc[serial] = await world.put(serial, doc); };
  for (const s of ['P-1', 'P-2', 'P-3', 'P-4']) await put(s, { status: 'prepared', content: { quantity: 0 } });
  await put('C-1', { status: 'at_customer', customer, lastCustomer: customer, deposit_id: custDep });
});
afterAll(async () => { await h?.close(); });

describe('GET /api/v3/mobile/app', () => {
  it('lists only the features whose key the user holds, with their fields schema and transitions', async () => {
    const user = (await h.userWith(['ibc.mobile.delivery', 'ibc.mobile.distributordelivery', 'Deliveries'])).headers;
    const r = await call({ ...user, 'accept-language': 'es' }, 'GET', '/api/v3/mobile/app');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ appVersion: '1.1.0', termsVersion: 2, termsAccepted: null, lang: 'es' });
    expect(r.body.features.map((f: Body) => f.id)).toEqual(['ibcDelivery', 'distributorDelivery']);
    const [confirm, distributor] = r.body.features;
    expect(confirm).toMatchObject({ key: 'ibc.mobile.delivery', icon: 'truck', workflow: 'ibc_delivery', scan: 'ibc', list: { states: ['Draft'] } });
    expect(confirm.label).toEqual({ en: 'IBC Delivery', es: 'Entrega de IBC', fr: "Livraison d'IBC" });
    expect(confirm).toMatchObject({ stateField: 'deliveryStatus', initial: 'Draft', states: { 'In-Progress': expect.objectContaining({ en: expect.any(String) }) } });
    // The action's field, and the list's title and subtitle fields (the app renders them by type, options and reference).
    expect(confirm.fields).toEqual({ type: 'object', properties: { sendDate: expect.objectContaining({ title: 'Fecha de envío' }), shipmentID: expect.any(Object), receiverDeposit: expect.any(Object), noOfItems: expect.any(Object) } });
    expect(confirm.fields.properties.receiverDeposit).toMatchObject({ 'x-ref': 'company_division' });
    expect(confirm.transitions).toEqual([{ transition: 'confirm', label: 'Confirmar', from: ['Draft'], to: 'In-Progress', fields: ['sendDate'], required: ['sendDate'], comment: 'optional' }]);
    expect(distributor.create.fields).toContain('receiverDeposit');
    expect(distributor.fields.properties.receiverDeposit).toMatchObject({ 'x-ref': 'company_division' });
    expect(distributor.fields.properties.containers.type).toBe('array');
    expect(distributor.transitions.map((t: Body) => [t.transition, t.to])).toEqual([['cancel', 'Cancelled']]);
  });

  it('nests dotted fields as the record is, and a superadmin gets all fifteen; a user without keys none', async () => {
    const all = await call(admin, 'GET', '/api/v3/mobile/app');
    expect(all.body.features).toHaveLength(15);
    const map = all.body.features.find((f: Body) => f.id === 'mapLocation');
    expect(map.fields.properties.location).toMatchObject({ type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } });
    expect(map.list).toMatchObject({ title: 'serial_number', map: { lat: 'location.lat', lng: 'location.lng' } });
    // A list's subtitle fields are in `fields`: the state field with its options, a reference naming its entity.
    const qc = all.body.features.find((f: Body) => f.id === 'performQc');
    expect(qc.list.subtitle).toEqual(['status', 'deposit_id', 'qcDate']);
    expect(qc.fields.properties.deposit_id).toMatchObject({ 'x-ref': 'company_division' });
    expect(qc.fields.properties.status.oneOf).toContainEqual(expect.objectContaining({ const: 'in_stock_empty' }));
    expect(qc.fields.properties.serial_number).toBeDefined();
    // The maps' tiles: the deployment's settings.map.
    expect(all.body.map).toEqual({ tileUrl: expect.stringMatching(/\{z\}.*\{x\}.*\{y\}/), attribution: expect.any(String) });
    const outbound = all.body.features.find((f: Body) => f.id === 'ibcInventoryOutbound');
    expect(outbound).toMatchObject({ source: 'stock', actions: [], transitions: [], fields: { type: 'object', properties: {} } });
    const none = (await h.userWith(['Deliveries'])).headers;
    expect((await call(none, 'GET', '/api/v3/mobile/app')).body.features).toEqual([]);
    expect((await call({}, 'GET', '/api/v3/mobile/app')).status).toBe(401);
  });
});

describe('POST /api/v3/mobile/terms', () => {
  it('records the current version; another version is a 409 saying which one to accept', async () => {
    const user = (await h.userWith(['ibc.mobile.delivery'])).headers;
    const old = await call(user, 'POST', '/api/v3/mobile/terms', { version: 1 });
    expect(old.status).toBe(409);
    expect(old.body.error).toMatchObject({ code: 'MOBILE_TERMS_VERSION', message: 'Mobile terms version 1 is not the current one: read and accept version 2' });
    expect((await call(user, 'GET', '/api/v3/mobile/app')).body.termsAccepted).toBeNull();
    expect((await call(user, 'POST', '/api/v3/mobile/terms', { version: 2 })).status).toBe(204);
    expect((await call(user, 'POST', '/api/v3/mobile/terms', { version: 2 })).status).toBe(204);
    expect((await call(user, 'GET', '/api/v3/mobile/app')).body.termsAccepted).toBe(2);
  });
});

describe('POST /api/v3/mobile/actions', () => {
  let clerk: Record<string, string>;
  const D1 = 'mobile-0001-aaaa';
  beforeAll(async () => {
    clerk = (await h.userWith(['ibc.mobile.distributordelivery', 'ibc.mobile.delivery'])).headers;
  });

  it('applies a queued batch in seq order: a draft made offline under the device\'s id, then confirmed with the date asked', async () => {
    const results = await send(clerk, D1, [
      act(2, 'ibcDelivery', 'ibc_delivery', 'dev1-d1', 'transition', { transition: 'confirm', fields: { sendDate: TODAY }, offline: true }),
      act(1, 'distributorDelivery', 'ibc_delivery', 'dev1-d1', 'create', { fields: { ...delivery('R-M-1', ['P-1', 'P-2']), sendDate: dayOf(new Date(), -1) }, offline: true }),
    ]);
    expect(results).toEqual([
      { seq: 1, status: 'applied', record: { id: 'dev1-d1', state: 'Draft' } },
      { seq: 2, status: 'applied', record: { id: 'dev1-d1', state: 'In-Progress' } },
    ]);
    const d = (await h.store.get('ibc_delivery', 'dev1-d1'))!;
    expect(d).toMatchObject({ deliveryStatus: 'In-Progress', sendDate: TODAY, offline: true, offlineDevice: D1, offlineAt: AT });
    expect((d.history as Body[]).map((x) => x.transition)).toEqual(['confirm']);
    for (const s of ['P-1', 'P-2']) expect((await h.store.get(IBC_ENTITY, ibc[s]))!.status).toBe('in_transit');
  });

  it('a seq already judged answers its stored verdict and changes nothing', async () => {
    const before = { counts: await counts(), record: await h.store.get('ibc_delivery', 'dev1-d1') };
    const again = await send(clerk, D1, [
      act(1, 'distributorDelivery', 'ibc_delivery', 'dev1-d1', 'create', { fields: delivery('R-M-1', ['P-1', 'P-2']) }),
      act(2, 'ibcDelivery', 'ibc_delivery', 'dev1-d1', 'transition', { transition: 'confirm', fields: { sendDate: TODAY } }),
    ]);
    expect(again.map((r) => [r.seq, r.status, r.record.state])).toEqual([[1, 'applied', 'Draft'], [2, 'applied', 'In-Progress']]);
    expect(await counts()).toEqual(before.counts);
    expect(await h.store.get('ibc_delivery', 'dev1-d1')).toEqual(before.record);
  });

  it('refuses an action the record no longer allows with the reason and a hint in the request\'s language, and goes on with the next', async () => {
    const r = await call({ ...clerk, 'accept-language': 'es' }, 'POST', '/api/v3/mobile/actions', {
      deviceId: D1, actions: [
        act(3, 'ibcDelivery', 'ibc_delivery', 'dev1-d1', 'transition', { transition: 'confirm', fields: { sendDate: TODAY } }),
        act(4, 'distributorDelivery', 'ibc_delivery', 'dev1-d2', 'create', { fields: delivery('R-M-2', ['P-3']) }),
        act(5, 'distributorDelivery', 'ibc_delivery', 'dev1-d3', 'create', { fields: { ...delivery('R-M-3', ['P-4']), sendDate: undefined } }),
      ],
    });
    const [refused, made, missing] = r.body.results;
    expect(refused).toMatchObject({ seq: 3, status: 'rejected', error: { code: 'OPERATION_NOT_DRAFT' } });
    expect(refused.error.message).toContain('In-Progress');
    expect(refused.error.hint).toBe('Este registro de Entrega de IBC ahora está En curso: otra persona actuó primero. Actualice, revíselo y vuelva a actuar si aún hace falta.');
    expect(made).toEqual({ seq: 4, status: 'applied', record: { id: 'dev1-d2', state: 'Draft' } });
    expect(missing).toMatchObject({ seq: 5, status: 'rejected', error: { code: 'VALIDATION_FAILED', hint: 'Revise los valores ingresados, corríjalos y vuelva a actuar.' } });
    expect(missing.error.details.map((d: Body) => d.field)).toContain('sendDate');
    expect(await h.store.get('ibc_delivery', 'dev1-d3')).toBeNull();
    // The stored verdict, read back in English.
    const back = await call(clerk, 'GET', `/api/v3/mobile/actions?deviceId=${D1}&after=2`);
    expect(back.body.results.map((v: Body) => [v.seq, v.status])).toEqual([[3, 'rejected'], [4, 'applied'], [5, 'rejected']]);
    expect(back.body.results[0].error.hint).toBe('This IBC delivery is now In progress: someone else acted on it first. Refresh, check it, and act again if still needed.');
    expect(back.body.more).toBe(false);
  });

  it('a create under an id another record has is refused', async () => {
    const [dup] = await send(clerk, D1, [act(6, 'distributorDelivery', 'ibc_delivery', 'dev1-d1', 'create', { fields: delivery('R-M-9', ['P-3']) })]);
    expect(dup).toMatchObject({ status: 'rejected', error: { code: 'DUPLICATE_KEY' } });
    expect((await h.store.get('ibc_delivery', 'dev1-d1'))!.shipmentID).toBe('R-M-1');
  });

  it('FORBIDDEN without the feature\'s key, for a transition the feature does not offer, for a create it does not make: never applied', async () => {
    const before = await counts();
    const stranger = (await h.userWith(['ibc.mobile.reception'])).headers;
    const [noKey] = await send(stranger, 'dev-x', [act(1, 'distributorDelivery', 'ibc_delivery', 'dev1-d2', 'transition', { transition: 'cancel' })]);
    expect(noKey).toMatchObject({ status: 'rejected', error: { code: 'FORBIDDEN', message: 'You do not have the ibc.mobile.distributordelivery access this needs' } });
    expect(noKey.error.hint).toBe('Ask your administrator for the IBC Delivery - Distributor access, then act again.');
    const [notOffered, noCreate, notAsked, gone] = await send(clerk, D1, [
      act(7, 'distributorDelivery', 'ibc_delivery', 'dev1-d2', 'transition', { transition: 'confirm' }),
      act(8, 'ibcDelivery', 'ibc_delivery', 'dev1-d9', 'create', { fields: delivery('R-M-8', ['P-4']) }),
      act(9, 'ibcDelivery', 'ibc_delivery', 'dev1-d2', 'transition', { transition: 'confirm', fields: { shipmentID: 'X' } }),
      // Queued under a definition that has since dropped the feature: judged, so the queue goes on.
      act(10, 'retiredFeature', 'ibc_delivery', 'dev1-d2', 'transition', { transition: 'cancel' }),
    ]);
    expect(notOffered).toMatchObject({ status: 'rejected', error: { code: 'FORBIDDEN', message: 'IBC Delivery - Distributor does not offer confirm' } });
    expect(noCreate).toMatchObject({ status: 'rejected', error: { code: 'FORBIDDEN', message: 'IBC Delivery does not create records' } });
    expect(notAsked).toMatchObject({ status: 'rejected', error: { code: 'INVALID_REQUEST', message: 'shipmentID is not asked by IBC Delivery' } });
    expect(gone).toMatchObject({ seq: 10, status: 'rejected', error: { code: 'FORBIDDEN', message: 'retiredFeature is no longer a feature of the app' } });
    expect(gone.error.hint).toMatch(/^This feature was removed from the app/);
    expect((await h.store.get('ibc_delivery', 'dev1-d2'))!.deliveryStatus).toBe('Draft');
    expect({ ...(await counts()), [VERDICTS]: 0 }).toEqual({ ...before, [VERDICTS]: 0 });
  });

  it('two devices acting on one shipment offline: the first valid action wins, the other is refused naming the state', async () => {
    const receiver = (await h.userWith(['ibc.mobile.reception'])).headers;
    const transporter = (await h.userWith(['ibc.mobile.transporterreception'])).headers;
    const [first] = await send(receiver, 'dev-a', [act(1, 'ibcReceptions', 'ibc_delivery', 'dev1-d1', 'transition', { transition: 'receive', fields: { receivedDate: TODAY }, offline: true })]);
    const [second] = await send(transporter, 'dev-b', [act(1, 'transporterReception', 'ibc_delivery', 'dev1-d1', 'transition', { transition: 'receiveByTransporter', fields: { receivedDate: TODAY }, offline: true })]);
    expect(first).toEqual({ seq: 1, status: 'applied', record: { id: 'dev1-d1', state: 'Received' } });
    expect(second).toMatchObject({ seq: 1, status: 'rejected', error: { code: 'TRANSITION_NOT_ALLOWED', message: 'Receive for the customer (transporter) cannot be taken from the state Received' } });
    expect(second.error.hint).toContain('now Received: someone else acted on it first');
    const d = (await h.store.get('ibc_delivery', 'dev1-d1'))!;
    expect((d.history as Body[]).map((x) => x.transition)).toEqual(['confirm', 'receive']);
    expect(d.offlineDevice).toBe('dev-a');
    for (const s of ['P-1', 'P-2']) expect((await h.store.get(IBC_ENTITY, ibc[s]))!.status).toBe('at_customer');
  });

  it('two devices returning one IBC: the second is refused, the IBC now returned', async () => {
    const a = (await h.userWith(['ibc.mobile.returns'])).headers;
    const b = (await h.userWith(['ibc.mobile.returns'])).headers;
    const ret = (seq: number) => act(seq, 'ibcReturns', 'ibc', ibc['C-1'], 'transition', { transition: 'return', fields: { deposit_id: plant, returnState: 'empty' }, offline: true });
    const [first] = await send(a, 'dev-a', [ret(1)]);
    const [second] = await send(b, 'dev-b', [ret(1)]);
    expect(first).toMatchObject({ status: 'applied', record: { state: 'returned' } });
    expect(second).toMatchObject({ status: 'rejected', error: { code: 'TRANSITION_NOT_ALLOWED', hint: 'This IBC container is now Returned: someone else acted on it first. Refresh, check it, and act again if still needed.' } });
    expect(await h.store.get(IBC_ENTITY, ibc['C-1'])).toMatchObject({ status: 'returned', offline: true, offlineDevice: 'dev-a' });
  });

  it('what was done offline shows in the offline reports', async () => {
    const rows = await call(admin, 'GET', '/api/v3/reports/report_app_in_offline_mode/rows');
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    const mine = (Object.values(rows.body).find(Array.isArray) as Body[]).filter((r) => r.shipmentID === 'R-M-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ offline: true, deliveryStatus: 'Received', receivedBy: 'receive', noOfItems: 2 });
    expect((Object.values((await call(admin, 'GET', '/api/v3/reports/report_app_in_offline_mode/rows')).body).find(Array.isArray) as Body[])
      .some((r) => r.shipmentID === 'R-M-2')).toBe(false);
    const ibcs = await call(admin, 'GET', '/api/v3/reports/ibcs_delivered_offline/rows');
    expect((Object.values(ibcs.body).find(Array.isArray) as Body[]).filter((r) => r.shipmentID === 'R-M-1').map((r) => r.ibcNumber).sort()).toEqual(['P-1', 'P-2']);
  });

  it('refuses malformed input whole with a 4xx naming the problem, and changes nothing', async () => {
    const before = await counts();
    const ok = act(50, 'distributorDelivery', 'ibc_delivery', 'dev1-d2', 'transition', { transition: 'cancel' });
    const bad = async (payload: unknown, needle: string) => {
      const r = await call(clerk, 'POST', '/api/v3/mobile/actions', payload);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.message).toContain(needle);
    };
    await bad({ deviceId: D1, actions: Array.from({ length: 101 }, (_, i) => ({ ...ok, seq: 100 + i })) }, 'must NOT have more than 100 items');
    await bad({ deviceId: D1, actions: [{ ...ok, seq: 'x' }] }, 'seq');
    await bad({ deviceId: D1, actions: [{ ...ok, seq: -1 }] }, 'seq');
    await bad({ deviceId: D1, actions: [{ ...ok, offline: 'maybe' }] }, 'offline');
    await bad({ deviceId: 'has space', actions: [ok] }, 'deviceId');
    await bad({ deviceId: D1, actions: [{ ...ok, at: 'yesterday' }] }, 'at');
    await bad({ deviceId: D1, actions: [{ ...ok, workflow: 'nothing' }] }, 'there is no workflow nothing');
    await bad({ deviceId: D1, actions: [{ ...ok, workflow: 'ibc' }] }, 'feature distributorDelivery acts on ibc_delivery, not ibc');
    await bad({ deviceId: D1, actions: [ok, { ...ok }] }, 'seq 50 is sent twice');
    await bad({ deviceId: D1, actions: [{ ...ok, transition: undefined }] }, 'a transition action names its transition');
    await bad({ deviceId: D1, actions: [{ ...ok, fields: { shipmentID: { $ne: null } } }] }, 'actions[0].fields.shipmentID.$ne');
    await bad({ deviceId: D1, actions: [{ ...ok, recordId: 'a\u0000b' }] }, 'NUL');
    await bad({ deviceId: D1, actions: [] }, 'actions');
    await bad({ deviceId: D1 }, 'actions');
    expect((await call(clerk, 'GET', '/api/v3/mobile/actions?deviceId=bad%20id')).status).toBe(400);
    expect(await counts()).toEqual(before);
    expect((await h.store.get('ibc_delivery', 'dev1-d2'))!.deliveryStatus).toBe('Draft');
  });
});
