/**
 * The mobile API under hostile input (issue 20): warehouse narrowing and keys as the operations
 * routes apply them, fields the action does not ask, odd record ids, replayed and concurrent
 * seqs, other users' verdicts, and bad values, each refused with a 4xx or a rejected verdict that
 * changes nothing and leaks nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { dayOf, IBC_ENTITY } from '../ibc/dates';
import { ibcWorld } from '../testing/ibcFleet';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { apiCaller } from '../testing/inject';
import { StoreError } from '../store/types';
import { VERDICTS } from './verdicts';

type Body = Record<string, any>;
let h: Harness;
let admin: Record<string, string>;
/** The IBC world's deposits, customer and IBC maker (testing/ibcFleet.ts). */
let plant: string, custDep: string, customer: string, put: (serial: string, doc: Body) => Promise<string>;
const TODAY = dayOf(new Date());
const AT = new Date().toISOString();
const MAP = 'ibc.mobile.maplocation';

const { call: request, ok } = apiCaller(() => h.app);
/** A string payload is sent as it is: raw JSON a client could write. */
const call = (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  request(method, url, typeof payload === 'string' ? { 'content-type': 'application/json', ...headers } : headers, payload);
const send = async (headers: Record<string, string>, deviceId: string, actions: Body[]) =>
  (await ok('POST', '/api/v3/mobile/actions', headers, { deviceId, actions })).results as Body[];
const act = (seq: number, feature: string, workflow: string, recordId: string, kind: 'create' | 'transition', more: Body = {}): Body =>
  ({ seq, feature, workflow, recordId, kind, at: AT, offline: false, ...more });
const mapLoc = (seq: number, recordId: string, fields: Body = { location: { lat: -34.6, lng: -58.4 } }) =>
  act(seq, 'mapLocation', 'ibc', recordId, 'transition', { transition: 'mapLocation', fields });
const ibcOf = (id: string) => h.store.get(IBC_ENTITY, id);
const group = async (name: string, access: string[], warehouses: string[]) =>
  (await h.store.insert('group', { name, access, warehouses, state: 1 } as never)).id;

beforeAll(async () => {
  h = await startHarness();
  admin = (await h.userWith(['superadmin'])).headers;
  const world = await ibcWorld(h.store);
  ({ plant, customer, custDep, put } = world);
});
afterAll(async () => { await h?.close(); });

describe('access: keys, groups and the selected warehouse', () => {
  it('a record outside the selected warehouse group is not found, as on the operations routes; inside it is applied', async () => {
    const yard = await group('Yard', [MAP], [plant]);
    const far = await group('Far', [MAP], [custDep]);
    const id = await put('W-1', { status: 'prepared' });
    const outside = { ...(await h.userWith([MAP], { groups: [far] })).headers, [WAREHOUSE_HEADER]: 'Far' };
    const before = await ibcOf(id);
    const [refused] = await send(outside, 'w-1', [mapLoc(1, id)]);
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'RECORD_NOT_FOUND' } });
    expect(await ibcOf(id)).toEqual(before);
    // The operations route answers alike.
    const web = await call(outside, 'POST', `/api/v3/operations/ibc/${id}/transitions/mapLocation`, { fields: { location: { lat: 1, lng: 2 } } });
    expect(web.status).toBe(404);
    const inside = { ...(await h.userWith([MAP], { groups: [yard] })).headers, [WAREHOUSE_HEADER]: 'Yard' };
    const [ok] = await send(inside, 'w-2', [mapLoc(1, id)]);
    expect(ok).toMatchObject({ status: 'applied' });
  });

  it('a group not the user\'s is refused; a selected group whose keys lack the feature\'s narrows it away', async () => {
    const id = await put('W-2', { status: 'prepared' });
    await group('NoMap', ['ibc.mobile.returns'], [plant]);
    const [other] = await h.store.find('group', { filter: { name: 'NoMap' } });
    const user = (await h.userWith([MAP], { groups: [other.id] })).headers;
    const [narrowed] = await send({ ...user, [WAREHOUSE_HEADER]: 'NoMap' }, 'w-3', [mapLoc(1, id)]);
    expect(narrowed).toMatchObject({ status: 'rejected', error: { code: 'FORBIDDEN' } });
    const app = await call({ ...user, [WAREHOUSE_HEADER]: 'NoMap' }, 'GET', '/api/v3/mobile/app');
    // Only what the selected group's keys also hold: its returns, not the map.
    expect(app.body.features.map((f: Body) => f.id)).toEqual(['ibcReturns']);
    const [notMine] = await send({ ...user, [WAREHOUSE_HEADER]: 'Yard' }, 'w-3', [mapLoc(2, id)]);
    expect(notMine).toMatchObject({ status: 'rejected', error: { code: 'WAREHOUSE_NOT_YOURS' } });
    expect((await ibcOf(id))!.location).toBeUndefined();
  });

  it('a key granted only through a group is held; a superadmin holds every feature; no key: FORBIDDEN whatever the record', async () => {
    const g = await group('MapCrew', [MAP], [plant]);
    const viaGroup = (await h.userWith([], { groups: [g] })).headers;
    const id = await put('W-3', { status: 'prepared' });
    expect((await call(viaGroup, 'GET', '/api/v3/mobile/app')).body.features.map((f: Body) => f.id)).toEqual(['mapIbc', 'mapLocation']);
    expect((await send(viaGroup, 'g-1', [mapLoc(1, id)]))[0]).toMatchObject({ status: 'applied' });
    expect((await send(admin, 'a-1', [mapLoc(1, id, { location: { lat: 1, lng: 2 } })]))[0]).toMatchObject({ status: 'applied' });
    const none = (await h.userWith(['ibc.mobile.returns'])).headers;
    const [a, b] = await send(none, 'n-1', [mapLoc(1, id), mapLoc(2, 'no-such-ibc')]);
    expect(a.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(b.error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await ibcOf(id))!.location).toMatchObject({ lat: 1, lng: 2 });
  });
});

describe('fields the action does not ask', () => {
  let mapper: Record<string, string>;
  let id: string;
  beforeAll(async () => {
    mapper = (await h.userWith([MAP])).headers;
    id = await put('F-1', { status: 'prepared' });
  });

  it('state, offline, history, createdBy, _id, id and unasked nested paths are refused and nothing changes', async () => {
    const before = await ibcOf(id);
    const strays: Body[] = [
      { status: 'disposed' }, { offline: true }, { history: [] }, { createdBy: 'x' }, { _id: 'x' }, { id: 'x' }, { location: { lat: 1, lng: 2, alt: 3 } },
      { location: { lat: 1, lng: 2, constructor: 1 } }, { constructor: 1 }, { toString: 'x' }, { location: [1, 2] }, { location: 'here' },
    ];
    const results = await send(mapper, 'f-1', strays.map((fields, i) => mapLoc(i + 1, id, fields)));
    for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ status: 'rejected', error: { code: 'INVALID_REQUEST' } });
    expect(results[0].error.message).toBe('status is not asked by Map Location');
    expect(await ibcOf(id)).toEqual(before);
    expect(({} as Body).polluted).toBeUndefined();
  });

  it('__proto__ and constructor.prototype keys in the body are refused whole with a 400', async () => {
    for (const raw of [
      `{"deviceId":"f-2","actions":[{"seq":1,"feature":"mapLocation","workflow":"ibc","recordId":"${id}","kind":"transition","transition":"mapLocation","at":"${AT}","offline":false,"fields":{"location":{"__proto__":{"lat":1}}}}]}`,
      `{"deviceId":"f-2","__proto__":{"polluted":1},"actions":[]}`,
      `{"deviceId":"f-2","actions":[{"seq":1,"feature":"mapLocation","workflow":"ibc","recordId":"${id}","kind":"transition","transition":"mapLocation","at":"${AT}","offline":false,"fields":{"location":{"lat":1,"lng":2},"constructor":{"prototype":{"polluted":1}}}}]}`,
    ]) {
      const r = await call(mapper, 'POST', '/api/v3/mobile/actions', raw);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
    }
    expect(({} as Body).polluted).toBeUndefined();
    expect(await h.store.count(VERDICTS, { deviceId: 'f-2' })).toBe(0);
  });

  it('wrong value types are a rejected verdict with the field named, never a 5xx', async () => {
    const before = await ibcOf(id);
    const results = await send(mapper, 'f-3', [
      mapLoc(1, id, { location: { lat: 'north', lng: 2 } }),
      mapLoc(2, id, { location: { lat: { x: 1 }, lng: [1] } }),
      mapLoc(3, id, { location: { lat: 1e308 * 10 > 0 ? 999 : 0, lng: 2 } }),
    ]);
    for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ status: 'rejected' });
    expect(await ibcOf(id)).toEqual(before);
  });

  it('deep nesting is refused whole; a huge array is judged or refused, never a 5xx', async () => {
    let deep: Body = { lat: 1 };
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const r = await call(mapper, 'POST', '/api/v3/mobile/actions', { deviceId: 'f-4', actions: [mapLoc(1, id, { location: deep })] });
    expect(r.status).toBe(400);
    const big = await call(mapper, 'POST', '/api/v3/mobile/actions', { deviceId: 'f-4', actions: [mapLoc(1, id, { location: { lat: Array.from({ length: 50_000 }, () => 1), lng: 2 } })] });
    expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBeLessThan(500);
    const huge = await call(mapper, 'POST', '/api/v3/mobile/actions', { deviceId: 'f-4', actions: [mapLoc(2, id, { location: { lat: 'x'.repeat(2_000_000), lng: 2 } })] });
    expect(huge.status).toBe(413);
  });
});

describe('record ids', () => {
  let clerk: Record<string, string>;
  beforeAll(async () => { clerk = (await h.userWith([MAP, 'ibc.mobile.distributordelivery'])).headers; });

  it('a record that does not exist, another workflow\'s record and weird ids: not found or 400, nothing written', async () => {
    const ibcId = await put('R-1', { status: 'prepared' });
    const [drafted] = await send(clerk, 'r-1', [act(1, 'distributorDelivery', 'ibc_delivery', 'r1-d', 'create', {
      fields: { sendDate: TODAY, shipmentID: 'R-ID-1', deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'R-1' }] },
    })]);
    expect(drafted, JSON.stringify(drafted)).toMatchObject({ status: 'applied' });
    const results = await send(clerk, 'r-1', [mapLoc(2, 'no-such'), mapLoc(3, 'r1-d'), mapLoc(4, '__proto__'), mapLoc(5, 'constructor'), mapLoc(6, 'toString')]);
    for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ status: 'rejected', error: { code: 'RECORD_NOT_FOUND' } });
    for (const bad of ['x'.repeat(101), 'ünï', '../etc/passwd', 'a/b', 'a b', '']) {
      const r = await call(clerk, 'POST', '/api/v3/mobile/actions', { deviceId: 'r-1', actions: [mapLoc(9, bad)] });
      expect(r.status, bad).toBe(400);
    }
    expect((await ibcOf(ibcId))!.location).toBeUndefined();
  });

  it('a create whose id is an existing record of another entity makes its own record; __proto__ as an id is harmless', async () => {
    const ibcId = await put('R-2', { status: 'prepared' });
    const fields = (n: string, serial: string) => ({ sendDate: TODAY, shipmentID: n, deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: serial }] });
    await put('R-3', { status: 'prepared' });
    const [a, b] = await send(clerk, 'r-2', [
      act(1, 'distributorDelivery', 'ibc_delivery', ibcId, 'create', { fields: fields('R-ID-2', 'R-2') }),
      act(2, 'distributorDelivery', 'ibc_delivery', '__proto__', 'create', { fields: fields('R-ID-3', 'R-3') }),
    ]);
    expect(a).toMatchObject({ status: 'applied', record: { id: ibcId } });
    expect(b.status === 'applied' || b.error?.code !== undefined, JSON.stringify(b)).toBe(true);
    expect((await ibcOf(ibcId))!.serial_number).toBe('R-2');
    expect(({} as Body).shipmentID).toBeUndefined();
  });
});

describe('at most once', () => {
  it('a seq judged answers its verdict, whatever a replay carries', async () => {
    const user = (await h.userWith([MAP])).headers;
    const id = await put('S-1', { status: 'prepared' });
    await send(user, 's-1', [mapLoc(1, id, { location: { lat: 1, lng: 1 } })]);
    const [again] = await send(user, 's-1', [mapLoc(1, id, { location: { lat: 9, lng: 9 } })]);
    expect(again).toMatchObject({ seq: 1, status: 'applied' });
    const [other] = await send(user, 's-1', [act(1, 'mapIbc', 'ibc', id, 'transition', { transition: 'mapNfc', fields: { nfcTagNumber: 'TAG-S1' } })]);
    expect(other).toMatchObject({ seq: 1, status: 'applied' });
    const now = (await ibcOf(id))!;
    expect(now.location).toMatchObject({ lat: 1, lng: 1 });
    expect(now.nfcTagNumber).toBeUndefined();
    expect((now.history as Body[]).length).toBe(1);
  });

  it('concurrent duplicate batches apply each seq once, with no 5xx', async () => {
    const user = (await h.userWith([MAP, 'ibc.mobile.distributordelivery'])).headers;
    const ids = await Promise.all(['C-1', 'C-2', 'C-3'].map((s) => put(s, { status: 'prepared' })));
    const batch = [
      ...ids.map((id, i) => mapLoc(i + 1, id, { location: { lat: i, lng: i } })),
      act(4, 'distributorDelivery', 'ibc_delivery', 'conc-d', 'create', {
        fields: { sendDate: TODAY, shipmentID: 'C-D', deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'C-1' }] },
      }),
    ];
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(user, 'POST', '/api/v3/mobile/actions', { deviceId: 'c-1', actions: batch })));
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body.results.map((r: Body) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    }
    for (const id of ids) expect(((await ibcOf(id))!.history as Body[]).length).toBe(1);
    expect(await h.store.count(VERDICTS, { deviceId: 'c-1' })).toBe(4);
    // The same seqs from two devices of one user at once: each device its own, the draft made once.
    const two = await Promise.all(['c-2', 'c-3'].map((d) => call(user, 'POST', '/api/v3/mobile/actions', { deviceId: d, actions: [{ ...batch[3], recordId: 'conc-e', fields: { ...(batch[3] as Body).fields, shipmentID: 'C-E' } }] })));
    expect(two.map((a) => a.status)).toEqual([200, 200]);
    expect(two.map((a) => a.body.results[0].status).sort()).toEqual(['applied', 'rejected']);
  });
});

describe('reading verdicts', () => {
  it('another user\'s device shows nothing of theirs; after is checked', async () => {
    const owner = (await h.userWith([MAP])).headers;
    const spy = (await h.userWith([MAP])).headers;
    await send(owner, 'shared-dev', [mapLoc(1, 'nothing-here')]);
    expect((await call(owner, 'GET', '/api/v3/mobile/actions?deviceId=shared-dev')).body.results).toHaveLength(1);
    expect((await call(spy, 'GET', '/api/v3/mobile/actions?deviceId=shared-dev')).body).toEqual({ results: [], more: false });
    for (const q of ['after=-1', 'after=abc', 'after=1e400', 'after=9007199254740993', 'after=1.5', 'after[$gt]=0', 'deviceId=x', 'after=', 'deviceId[$ne]=x']) {
      const r = await call(spy, 'GET', `/api/v3/mobile/actions?deviceId=shared-dev&${q}`);
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
      if (!['after='].includes(q)) expect(r.body.results ?? [], q).toEqual([]);
    }
    expect((await call(spy, 'GET', '/api/v3/mobile/actions?deviceId=shared-dev&deviceId=other')).status).toBe(400);
    expect((await call(spy, 'GET', '/api/v3/mobile/actions')).status).toBe(400);
  });
});

describe('terms and app', () => {
  it('terms of the wrong type are a 400; the app answers any Accept-Language', async () => {
    const user = (await h.userWith([MAP])).headers;
    for (const body of [{ version: 2.5 }, { version: [2] }, { version: {} }, { version: null }, { version: -1 }, {}, [], 'null', '{"version":2', { version: 'two' }]) {
      const r = await call(user, 'POST', '/api/v3/mobile/terms', body);
      expect(r.status, `${JSON.stringify(body)} ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect((await call(user, 'GET', '/api/v3/mobile/app')).body.termsAccepted).toBeNull();
    for (const lang of ['zz', '*', 'fr-CA;q=0.1, es;q=0.9', 'x'.repeat(5000), ';;;,,,', 'es-419', '__proto__', 'constructor']) {
      const r = await call({ ...user, 'accept-language': lang }, 'GET', '/api/v3/mobile/app');
      expect(r.status, lang).toBe(200);
      expect(['en', 'es', 'fr']).toContain(r.body.lang);
    }
  });
});

describe('a create under an id the user\'s own web draft has', () => {
  it('is refused as taken, not judged applied with content it never wrote', async () => {
    const user = (await h.userWith(['ibc.mobile.distributordelivery', 'IBC Deliveries'])).headers;
    await put('U-1', { status: 'prepared' });
    const fields = (shipmentID: string) => ({ sendDate: TODAY, shipmentID, deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'U-1' }] });
    const web = await call(user, 'POST', '/api/v3/operations/ibc_delivery', fields('U-WEB'));
    expect(web.status, JSON.stringify(web.body)).toBe(201);
    const [v] = await send(user, 'u-1', [act(1, 'distributorDelivery', 'ibc_delivery', web.body.id, 'create', { fields: fields('U-MOBILE') })]);
    expect(v).toMatchObject({ status: 'rejected', error: { code: 'DUPLICATE_KEY' } });
    expect((await h.store.get('ibc_delivery', web.body.id))!.shipmentID).toBe('U-WEB');
  });

  it('holding what the create wrote, with no verdict: without transactions a crash left it so, and the retry judges it applied', async () => {
    const user = (await h.userWith(['ibc.mobile.distributordelivery', 'IBC Deliveries'])).headers;
    await put('U-2', { status: 'prepared' });
    const fields = { sendDate: TODAY, shipmentID: 'U-CRASH', deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: 'U-2' }] };
    // What the create writes before its verdict, as a crash between the two would leave it.
    const left = await call(user, 'POST', '/api/v3/operations/ibc_delivery', fields);
    expect(left.status, JSON.stringify(left.body)).toBe(201);
    const [v] = await send(user, 'u-2', [act(1, 'distributorDelivery', 'ibc_delivery', left.body.id, 'create', { fields })]);
    // With transactions the draft and its verdict are one write: such a draft is never a lost create.
    if (h.store.capabilities.transactions) expect(v).toMatchObject({ status: 'rejected', error: { code: 'DUPLICATE_KEY' } });
    else expect(v).toMatchObject({ status: 'applied', record: { id: left.body.id, state: 'Draft' } });
    expect(await h.store.count('ibc_delivery', { shipmentID: 'U-CRASH' })).toBe(1);
  });
});

describe('values of every wrong type, on every feature that writes', () => {
  it('never answers a 5xx', async () => {
    const weird: unknown[] = [null, 0, -1, 1.5, 'x', '', true, [], {}, [null], [{}], [[1]], { a: 1 }, [{ ibcNumber: { a: 1 } }], [{ ibcNumber: null, quantity: 'x' }], '9'.repeat(400)];
    const reg = h.registry;
    const serial = (n: number) => `Z-${n}`;
    let n = 0;
    const problems: string[] = [];
    for (const f of reg.mobile.features) {
      if (!f.workflow) continue;
      const paths = [...(f.create?.fields ?? []), ...f.actions.flatMap((a) => a.fields)];
      for (const path of new Set(paths)) {
        for (const value of weird) {
          const seq = ++n;
          const wf = reg.workflows[f.workflow];
          const from = f.actions.find((a) => a.fields.includes(path))?.transition;
          const state = wf.transitions.find((t) => t.id === from)?.from[0] ?? 'prepared';
          const id = await put(serial(seq), { status: wf.name === 'ibc' ? state : 'prepared', lastCustomer: customer, customer });
          let target = f.workflow === 'ibc' ? id : 'nothing';
          if (f.workflow === 'ibc_delivery' && !f.create?.fields.includes(path)) {
            target = `zd-${seq}`;
            const made = await send(admin, 'z-0', [act(seq, 'distributorDelivery', 'ibc_delivery', target, 'create', {
              fields: { sendDate: TODAY, shipmentID: `Z-D-${seq}`, deposit: plant, receiverDeposit: custDep, receiver: customer, containers: [{ ibcNumber: serial(seq) }] },
            })]);
            expect(made[0].status, JSON.stringify(made)).toBe('applied');
            if (state !== 'Draft') {
              const conf = await send(admin, 'z-0', [act(100_000 + seq, 'ibcDelivery', 'ibc_delivery', target, 'transition', { transition: 'confirm', fields: { sendDate: TODAY } })]);
              expect(conf[0].status, JSON.stringify(conf)).toBe('applied');
            }
          }
          const fields: Body = {};
          const parts = path.split('.');
          let at = fields;
          for (const p of parts.slice(0, -1)) at = (at[p] = {});
          at[parts[parts.length - 1]] = value;
          const actions = f.create?.fields.includes(path)
            ? [act(seq, f.id, f.workflow, `z-${seq}`, 'create', { fields })]
            : f.actions.filter((a) => a.fields.includes(path)).map((a, i) => act(seq * 10 + i, f.id, f.workflow!, target, 'transition', { transition: a.transition, fields }));
          const r = await call(admin, 'POST', '/api/v3/mobile/actions', { deviceId: 'z-1', actions: actions.map((a, i) => ({ ...a, seq: seq * 10 + i })) });
          if (r.status >= 500 || r.status === 200 && r.body.results.some((x: Body) => x.error?.code === 'INTERNAL')) problems.push(`${f.id} ${path}=${JSON.stringify(value)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('a store failure while judging', () => {
  it('is not kept as the action\'s verdict nor shown: the retry applies it', async () => {
    const user = (await h.userWith([MAP])).headers;
    const id = await put('X-1', { status: 'prepared' });
    const broken = new StoreError('STORE_FAILURE', 'SQLITE_IOERR: disk I/O error in /srv/data/store.db');
    // The transition's first write: its transaction, or without transactions its journal entry.
    const failing = h.store.capabilities.transactions
      ? vi.spyOn(h.store, 'transaction').mockRejectedValueOnce(broken)
      : vi.spyOn(h.store, 'insert').mockRejectedValueOnce(broken);
    const r = await call(user, 'POST', '/api/v3/mobile/actions', { deviceId: 'x-1', actions: [mapLoc(1, id)] });
    failing.mockRestore();
    expect(JSON.stringify(r.body)).not.toContain('SQLITE');
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(await h.store.count(VERDICTS, { deviceId: 'x-1' })).toBe(0);
    expect((await send(user, 'x-1', [mapLoc(1, id)]))[0]).toMatchObject({ status: 'applied' });
  });
});

describe('a reference a transition takes', () => {
  it('names an existing record, resolved as a draft\'s is; anything else is refused and nothing moves (mobile and operations routes alike)', async () => {
    const mover = (await h.userWith(['ibc.mobile.containertransfer'])).headers;
    const id = await put('T-1', { status: 'in_stock_empty' });
    const before = await ibcOf(id);
    const junk: unknown[] = ['no-such-deposit', 0, 1.5, {}, { a: 1 }, { id: 'no-such-deposit' }];
    const transfer = (seq: number, deposit_id: unknown) => act(seq, 'containerTransfer', 'ibc', id, 'transition', { transition: 'transfer', fields: { deposit_id } });
    const results = await send(mover, 't-1', junk.map((v, i) => transfer(i + 1, v)));
    for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ status: 'rejected', error: { code: 'VALIDATION_FAILED', details: [{ field: 'deposit_id' }] } });
    expect(results[0].error.details[0].message).toContain('no-such-deposit');
    const web = (await h.userWith(['Container Transfer'])).headers;
    for (const v of junk) {
      const r = await call(web, 'POST', `/api/v3/operations/ibc/${id}/transitions/transfer`, { fields: { deposit_id: v } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
    }
    expect(await ibcOf(id)).toEqual(before);
    // By its key fields, as a draft may name it: stored as the id.
    const [byKey] = await send(mover, 't-1', [transfer(10, { erp_id: 'Campo Verde deposit' })]);
    expect(byKey, JSON.stringify(byKey)).toMatchObject({ status: 'applied' });
    expect((await ibcOf(id))!.deposit_id).toBe(custDep);
  });

  it('a value not a string does not slip past the selected warehouse', async () => {
    const g = await group('Movers', ['ibc.mobile.containertransfer'], [plant]);
    const mover = { ...(await h.userWith(['ibc.mobile.containertransfer'], { groups: [g] })).headers, [WAREHOUSE_HEADER]: 'Movers' };
    const id = await put('T-2', { status: 'in_stock_empty' });
    const before = await ibcOf(id);
    const results = await send(mover, 't-2', [
      act(1, 'containerTransfer', 'ibc', id, 'transition', { transition: 'transfer', fields: { deposit_id: { id: custDep } } }),
      act(2, 'containerTransfer', 'ibc', id, 'transition', { transition: 'transfer', fields: { deposit_id: custDep } }),
    ]);
    for (const r of results) expect(r, JSON.stringify(r)).toMatchObject({ status: 'rejected', error: { code: 'DEPOSIT_OUTSIDE_WAREHOUSE' } });
    expect(await ibcOf(id)).toEqual(before);
  });
});
