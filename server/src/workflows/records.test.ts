/**
 * Workflows over master data and operations over their records, through the real HTTP API on
 * the crate fixture (testing/crate.ts): a crate is master data whose life cycle is a workflow
 * with a log; a shipment takes every crate it lists through that workflow's `ship`, all or
 * nothing; keys listing backend operations grant the routes and transitions declaring them; a
 * unique value set by a transition and a registered vehicle are checked; a workflow without
 * deposit fields is not narrowed by the selected warehouse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { crateRegistry, seedCrates, type CrateWorld } from './testing/crate';

let h: Harness;
let w: CrateWorld;
let staff: Record<string, string>;
let southStaff: Record<string, string>;
let handheld: Record<string, string>;
let driver: Record<string, string>;
let admin: Record<string, string>;
let seq = 0;

type Method = 'GET' | 'POST' | 'PUT';
const call = async (method: Method, url: string, headers: Record<string, string>, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Record<string, any> };
};
const ok = async (method: Method, url: string, headers: Record<string, string>, payload?: unknown, status = 200) => {
  const r = await call(method, url, headers, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const take = (wf: string, id: string, t: string, headers: Record<string, string>, payload: unknown = {}) =>
  call('POST', `/api/v3/operations/${wf}/${id}/transitions/${t}`, headers, payload);
/** A crate registered in master data, at the North depot unless told. */
const crate = async (over: Record<string, unknown> = {}) =>
  (await ok('POST', '/api/v3/masterdata/crate', admin, { serial: `C-${++seq}`, depot: w.north, ...over }, 201)) as { id: string; serial: string };
const filled = async (over: Record<string, unknown> = {}) => {
  const c = await crate(over);
  const r = await take('crate', c.id, 'fill', staff);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return c;
};
const shipment = (crates: { id: string; serial: string }[], over: Record<string, unknown> = {}, headers = staff) => call('POST', '/api/v3/operations/crate_shipment', headers, {
  shipmentNo: `S-${++seq}`, sendDate: '2025-06-01', deposit: w.north, receiver: w.customer, vehicle: { plate: w.lorry },
  crates: crates.map((c) => ({ crate: c.id, serial: c.serial })), ...over,
});
const events = (record: string) => h.store.find('crate_event', { filter: { record }, sort: { at: 1, id: 1 } });
/** Everything a refused request must leave as it was. */
const snapshot = async () => JSON.stringify(await Promise.all(['crate', 'crate_event', 'crate_shipment', 'crate_return'].map((c) => h.store.find(c, { sort: { id: 1 } }))));

beforeAll(async () => {
  h = await startHarness({ registry: crateRegistry() });
  w = await seedCrates(h.store);
  const [north] = await h.store.find('group', { filter: { name: 'North' } });
  const [south] = await h.store.find('group', { filter: { name: 'South' } });
  const user = async (keys: string[], group = north) => ({ ...(await h.userWith(keys, { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: group.name as string });
  staff = await user(['Crates', 'Crate Shipments', 'Crate Returns', 'Map Crate']);
  southStaff = await user(['Crates', 'Crate Returns'], south);
  handheld = await user(['Crate Handheld']);
  driver = await user(['Crate Driver']);
  admin = (await h.userWith(['Master Data'])).headers;
});
afterAll(async () => { await h?.close(); });

describe('a workflow over master data', () => {
  it('master data creates a crate in the initial state whatever the body says, and edits its static fields only', async () => {
    const c = await ok('POST', '/api/v3/masterdata/crate', admin, { serial: 'M-1', depot: w.north, status: 'away', uses: 9, history: [{ transition: 'x' }] }, 201);
    expect(c).toMatchObject({ status: 'empty', uses: 0 });
    expect(c.history).toBeUndefined();
    const edited = await ok('PUT', `/api/v3/masterdata/crate/${c.id}`, admin, { serial: 'M-1', depot: w.south, madeOn: '2024-01-01', state: 1, status: 'disposed' });
    expect(edited).toMatchObject({ depot: w.south, madeOn: '2024-01-01', status: 'empty', uses: 0 });
  });

  it('has no drafts: create and edit through the operations routes answer 405 naming the entity, and write nothing', async () => {
    const c = await crate();
    const before = await snapshot();
    for (const [method, url] of [['POST', '/api/v3/operations/crate'], ['PUT', `/api/v3/operations/crate/${c.id}`]] as const) {
      const r = await call(method, url, staff, { serial: 'X-1', depot: w.north });
      expect(r.status, `${method} ${url}`).toBe(405);
      expect(r.body.error).toMatchObject({ code: 'WORKFLOW_NO_DRAFTS', params: { entity: 'Crate' } });
    }
    expect(await snapshot()).toBe(before);
  });

  it('lists and reads crates narrowed by the selected warehouse on the workflow\'s deposit field', async () => {
    const here = await crate();
    const there = await crate({ depot: w.south });
    const list = await ok('GET', '/api/v3/operations/crate?pageSize=200', staff);
    const ids = list.data.map((r: { id: string }) => r.id);
    expect(ids).toContain(here.id);
    expect(ids).not.toContain(there.id);
    expect((await call('GET', `/api/v3/operations/crate/${there.id}`, staff)).status).toBe(404);
    const got = await ok('GET', `/api/v3/operations/crate/${here.id}`, staff);
    expect(got.transitions.map((t: { id: string }) => t.id)).toEqual(['fill', 'mapTag', 'dispose']);
  });

  it('a transition writes the record\'s state and history and one log row naming the transition', async () => {
    const c = await crate();
    const r = await take('crate', c.id, 'fill', staff);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.record).toMatchObject({ status: 'full', uses: 1, history: [{ transition: 'fill', from: 'empty', to: 'full' }] });
    expect(await events(c.id)).toMatchObject([{ record: c.id, serial: c.serial, transition: 'fill', from: 'empty', to: 'full', depot: w.north, uses: 1 }]);
  });
});

describe('access by backend operation names', () => {
  it('a handheld key listing getCrate, fillCrate and mapCrateTag reads crates and takes those transitions, and nothing else', async () => {
    const c = await crate();
    expect((await ok('GET', '/api/v3/operations/crate', handheld)).total).toBeGreaterThan(0);
    const got = await ok('GET', `/api/v3/operations/crate/${c.id}`, handheld);
    expect(got.transitions.map((t: { id: string }) => t.id)).toEqual(['fill', 'mapTag']);
    expect((await take('crate', c.id, 'dispose', handheld, { comment: 'broken' })).status).toBe(403);
    expect((await take('crate', c.id, 'fill', handheld)).status).toBe(200);
    expect((await take('crate', c.id, 'ship', handheld, { fields: { shipmentNo: 'S' } })).status).toBe(403);
    expect((await call('GET', '/api/v3/operations/crate_shipment', handheld)).status).toBe(403);
    expect((await shipment([c], {}, handheld)).status).toBe(403);
  });

  it('a driver key listing the shipment\'s read, draft and confirm operations lists, creates and confirms shipments, and cannot cancel one', async () => {
    const c = await filled();
    expect((await call('GET', '/api/v3/operations/crate_shipment', driver)).status).toBe(200);
    const s = await shipment([c], {}, driver);
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const got = await ok('GET', `/api/v3/operations/crate_shipment/${s.body.id}`, driver);
    expect(got.transitions.map((t: { id: string }) => t.id)).toEqual(['confirm']);
    expect((await take('crate_shipment', s.body.id, 'cancel', driver)).status).toBe(403);
    expect((await call('GET', '/api/v3/operations/crate', driver)).status).toBe(403);
    const done = await take('crate_shipment', s.body.id, 'confirm', driver);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });
});

describe('unique values set by a transition', () => {
  it('maps a tag to a crate, and refuses the same tag on another with 409 naming the crate holding it, writing nothing', async () => {
    const a = await crate();
    const b = await crate();
    const mapped = await take('crate', a.id, 'mapTag', handheld, { fields: { tag: 'NFC-0001' } });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    expect(mapped.body.record).toMatchObject({ tag: 'NFC-0001', status: 'empty' });
    const before = await snapshot();
    const taken = await take('crate', b.id, 'mapTag', handheld, { fields: { tag: 'NFC-0001' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'VALUE_TAKEN', params: { label: 'NFC tag', value: 'NFC-0001', entity: 'Crate', record: a.serial } });
    expect(await snapshot()).toBe(before);
    // Mapping a crate's own tag again is no collision.
    expect((await take('crate', a.id, 'mapTag', handheld, { fields: { tag: 'NFC-0001' } })).status).toBe(200);
  });
});

describe('registered values', () => {
  it('refuses a draft whose vehicle is not a registered active lorry with 400 naming the field, and writes nothing', async () => {
    const c = await filled();
    const before = await snapshot();
    for (const plate of ['ZZ999ZZ', 'OLD-001']) {
      const r = await shipment([c], { vehicle: { plate } });
      expect(r.status, plate).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'NOT_REGISTERED', params: { label: 'Plate', value: plate }, details: [{ field: 'vehicle.plate' }] });
    }
    expect(await snapshot()).toBe(before);
    const s = await shipment([c]);
    expect(s.status).toBe(201);
    const put = await call('PUT', `/api/v3/operations/crate_shipment/${s.body.id}`, staff, { ...s.body, vehicle: { plate: 'NOPE' } });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe('NOT_REGISTERED');
  });

  it('refuses a transition once the lorry it names is disabled', async () => {
    await h.store.insert('lorry', { plate: 'SOON-OFF', state: 1 });
    const c = await filled();
    const s = await shipment([c], { vehicle: { plate: 'SOON-OFF' } });
    expect(s.status).toBe(201);
    const [lorry] = await h.store.find('lorry', { filter: { plate: 'SOON-OFF' } });
    await h.store.patch('lorry', lorry.id, { state: 3 });
    const before = await snapshot();
    const r = await take('crate_shipment', s.body.id, 'confirm', staff);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'NOT_REGISTERED', params: { value: 'SOON-OFF' } });
    expect(await snapshot()).toBe(before);
  });
});

describe('transitions over referenced records', () => {
  it('a shipment ships every crate it lists: each crate\'s state, fields, history and log row, all in one commit', async () => {
    const crates = [await filled(), await filled()];
    const s = await shipment(crates);
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const r = await take('crate_shipment', s.body.id, 'confirm', staff);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.record.status).toBe('Shipped');
    for (const c of crates) {
      const stored = (await h.store.get('crate', c.id))!;
      expect(stored).toMatchObject({ status: 'away', shipmentNo: s.body.shipmentNo, customer: w.customer, uses: 1 });
      expect(stored.history).toMatchObject([{ transition: 'fill' }, { transition: 'ship', from: 'full', to: 'away' }]);
      expect(stored.updatedAt).toBe(r.body.record.updatedAt);
      const rows = await events(c.id);
      expect(rows.map((e) => e.transition)).toEqual(['fill', 'ship']);
      expect(rows[1]).toMatchObject({ customer: w.customer, operation: { workflow: 'crate_shipment', id: s.body.id, transition: 'confirm' } });
    }
  });

  it('refuses the whole shipment when one crate is not where or as it should be, naming where it is, and writes nothing', async () => {
    const good = await filled();
    const empty = await crate();
    // Full, at a deposit of another warehouse: this user cannot fill it there.
    const elsewhere = await crate({ depot: w.south });
    await h.store.patch('crate', elsewhere.id, { status: 'full' });
    for (const [bad, place, state] of [[empty, 'North depot', 'empty'], [elsewhere, 'South depot', 'full']] as const) {
      const s = await shipment([good, bad]);
      expect(s.status).toBe(201);
      const before = await snapshot();
      const r = await take('crate_shipment', s.body.id, 'confirm', staff);
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'RECORD_NOT_AVAILABLE', params: { entity: 'Crate', record: bad.serial, state, place } });
      expect(r.body.error.details).toMatchObject([{ field: 'crates.1.crate' }]);
      expect(await snapshot()).toBe(before);
    }
  });

  it('a return names the customer holding a crate it cannot take back', async () => {
    const c = await filled();
    const s = await shipment([c]);
    expect((await take('crate_shipment', s.body.id, 'confirm', staff)).status).toBe(200);
    const other = (await h.store.insert('company', { company_name: 'Other Coop', state: 1 })).id;
    const ret = await ok('POST', '/api/v3/operations/crate_return', staff, {
      returnNo: `RT-${++seq}`, returnDate: '2025-07-01', customer: other, returnTo: w.south, crates: [{ crate: c.id, serial: c.serial }],
    }, 201);
    const r = await take('crate_return', ret.id, 'receive', staff);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'RECORD_NOT_AVAILABLE', params: { record: c.serial, state: 'away', place: 'Farm Coop' } });
  });
});

describe('a workflow without deposit fields', () => {
  it('is listed and read whatever warehouse is selected, and takes its crates back to the deposit it names', async () => {
    const c = await filled();
    const s = await shipment([c]);
    expect((await take('crate_shipment', s.body.id, 'confirm', staff)).status).toBe(200);
    const ret = await ok('POST', '/api/v3/operations/crate_return', staff, {
      returnNo: `RT-${++seq}`, returnDate: '2025-07-01', customer: w.customer, returnTo: w.south, crates: [{ crate: c.id, serial: c.serial }],
    }, 201);
    // Created in North, seen from South.
    const list = await ok('GET', '/api/v3/operations/crate_return?pageSize=200', southStaff);
    expect(list.data.map((r: { id: string }) => r.id)).toContain(ret.id);
    expect((await call('GET', `/api/v3/operations/crate_return/${ret.id}?deposit=${w.north}`, southStaff)).status).toBe(200);
    const r = await take('crate_return', ret.id, 'receive', southStaff);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await h.store.get('crate', c.id)).toMatchObject({ status: 'empty', depot: w.south, customer: null, shipmentNo: null });
    expect((await events(c.id)).map((e) => `${e.transition}:${e.from}>${e.to}`)).toEqual(['fill:empty>full', 'ship:full>away', 'back:away>empty']);
  });
});
