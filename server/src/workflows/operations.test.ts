/**
 * The operations API over real HTTP on the store the tests run on: drafts, transitions all or
 * nothing, concurrent transitions, warehouse narrowing, and every bad input of issue 15
 * answered 4xx with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { BALANCES, MOVEMENTS } from '../ledger/ledger';
import { operationRoutes } from './routes';
import { seedShipping, shipmentRegistry } from './testing/fixture';

let h: PluginHarness;
let s: Awaited<ReturnType<typeof seedShipping>>;
let shipper: Record<string, string>;
let receiver: Record<string, string>;
let seq = 0;
const base = '/api/v3/operations/test_shipment';

const body = (over: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
  shipmentID: `R-${seq++}`, sendDate: '2025-05-01', deposit: s.from, receiverDeposit: s.to,
  productData: [{ material: s.material, batchId: s.lot, amount: 10, uom: s.uom, ...line }], ...over,
});
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) =>
  h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
const create = async (over: Record<string, unknown> = {}, headers = shipper) => {
  const r = await inject('POST', base, headers, body(over));
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: string; status: string };
};
const stock = async (deposit: string) => Number((await h.store.find(BALANCES, { filter: { deposit, batch: s.lot } }))[0]?.quantity ?? 0);
/** Everything a refused request must leave as it was. */
const snapshot = async () => JSON.stringify([
  await h.store.find('test_shipment', { sort: { id: 1 } }), await h.store.find(MOVEMENTS, { sort: { id: 1 } }), await h.store.find(BALANCES, { sort: { id: 1 } }),
]);

beforeAll(async () => {
  h = await startWithPlugins((ctx) => [(a) => operationRoutes(a, { ...ctx })], { registry: shipmentRegistry() });
  s = await seedShipping(h.store);
  await h.store.insert('group', { name: 'South', access: 'Reception', warehouses: [s.to], state: 1 });
  const [south] = await h.store.find('group', { filter: { name: 'South' } });
  shipper = { ...(await h.userWith(['Deliveries'], { groups: [s.group.id] })), [WAREHOUSE_HEADER]: 'North' };
  receiver = { ...(await h.userWith(['Deliveries', 'Reception'], { groups: [south.id] })), [WAREHOUSE_HEADER]: 'South' };
  await h.store.insert(BALANCES, { id: `${s.material}|${s.lot}|${s.from}`, material: s.material, batch: s.lot, deposit: s.from, quantity: 100, unit: s.uom });
});
afterAll(async () => { await h?.close(); });

describe('drafts', () => {
  it('creates a record in the initial state whatever the body says, with an empty history', async () => {
    const rec = await create({ status: 'Accepted' });
    expect(rec).toMatchObject({ status: 'Draft', history: [] });
    const got = await inject('GET', `${base}/${rec.id}`, shipper);
    expect(got.statusCode).toBe(200);
    expect(got.json().transitions.map((t: { id: string }) => t.id)).toEqual(['confirm', 'cancel']);
  });

  it('edits a draft, and refuses to edit one past Draft with 409 naming the states', async () => {
    const rec = await create();
    const put = await inject('PUT', `${base}/${rec.id}`, shipper, body({ shipmentID: 'R-edited' }));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().shipmentID).toBe('R-edited');
    expect((await inject('POST', `${base}/${rec.id}/transitions/cancel`, shipper, {})).statusCode).toBe(200);
    const before = await snapshot();
    const late = await inject('PUT', `${base}/${rec.id}`, shipper, body());
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'OPERATION_NOT_DRAFT', params: { state: 'Cancelled', initial: 'Draft' } });
    expect(await snapshot()).toBe(before);
  });
});

describe('transitions', () => {
  it('confirms: stock leaves the sender deposit, the movements name the operation, the history says who and when', async () => {
    const before = await stock(s.from);
    const rec = await create();
    const r = await inject('POST', `${base}/${rec.id}/transitions/confirm`, shipper, { comment: 'on the truck' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().record).toMatchObject({ status: 'In-Progress', history: [{ transition: 'confirm', from: 'Draft', to: 'In-Progress', comment: 'on the truck' }] });
    expect(await stock(s.from)).toBe(before - 10);
    const moves = await h.store.find(MOVEMENTS, { filter: { 'operation.id': rec.id } });
    expect(moves).toMatchObject([{ quantity: -10, deposit: s.from, operation: { workflow: 'test_shipment', transition: 'confirm' } }]);
    // The receiver's side: the transition needs the Reception key and happens at the receiver's deposit.
    expect((await inject('POST', `${base}/${rec.id}/transitions/acceptAll`, shipper, {})).statusCode).toBe(403);
    const accepted = await inject('POST', `${base}/${rec.id}/transitions/acceptAll`, receiver, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await stock(s.to)).toBe(10);
  });

  it('lets exactly one of concurrent transitions of one record through; the others get 409 and change nothing', async () => {
    const rec = await create();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => inject('POST', `${base}/${rec.id}/transitions/${i % 2 ? 'cancel' : 'confirm'}`, shipper, {})));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
    const winner = results.find((r) => r.statusCode === 200)!.json().record;
    const moves = await h.store.count(MOVEMENTS, { 'operation.id': rec.id });
    expect(moves).toBe(winner.status === 'In-Progress' ? 1 : 0);
    expect(winner.history).toHaveLength(1);
  });

  it('never takes stock below zero under concurrent confirmations', async () => {
    const left = await stock(s.from);
    const n = Math.floor(left / 10) + 4;
    const recs = await Promise.all(Array.from({ length: n }, () => create()));
    const results = await Promise.all(recs.map((r) => inject('POST', `${base}/${r.id}/transitions/confirm`, shipper, {})));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(Math.floor(left / 10));
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.json().error).toMatchObject({ code: 'STOCK_INSUFFICIENT', params: { material: 'Glyphosate 48', batch: s.lot, deposit: 'North depot', requested: 10 } });
    expect(await stock(s.from)).toBe(left % 10);
    // Refused confirmations leave their records in Draft with no movement.
    for (const [i, r] of results.entries()) if (r.statusCode !== 200) expect((await h.store.get('test_shipment', recs[i].id))!.status).toBe('Draft');
  });
});

describe('lists', () => {
  it('narrows to the selected warehouse group, filters by state, and refuses a group the user is not in', async () => {
    const mine = await inject('GET', `${base}?state=Draft,Cancelled&pageSize=200`, shipper);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().total).toBeGreaterThan(0);
    for (const r of mine.json().data) expect(['Draft', 'Cancelled']).toContain(r.status);
    // The receiver's group sees only what comes to its deposit, on the field it names.
    const tray = await inject('GET', `${base}?state=In-Progress&depositField=receiverDeposit`, receiver);
    expect(tray.json().data.every((r: { receiverDeposit: string }) => r.receiverDeposit === s.to)).toBe(true);
    await h.store.insert('group', { name: 'Elsewhere', access: 'Deliveries', warehouses: [], state: 1 });
    const other = await inject('GET', base, { ...shipper, [WAREHOUSE_HEADER]: 'Elsewhere' });
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toMatchObject({ code: 'WAREHOUSE_NOT_YOURS', params: { warehouse: 'Elsewhere' } });
    const pending = await inject('GET', `${base}?sync=pending`, shipper);
    expect(pending.json().total).toBe(mine.json().total + (await inject('GET', `${base}?state=In-Progress,Accepted`, shipper)).json().total);
    expect((await inject('GET', `${base}?sync=failed`, shipper)).json().total).toBe(0);
  });

  it('takes a line\'s unit from its material when the line names none', async () => {
    const rec = await create({ productData: [{ material: s.material, batchId: s.lot, amount: 10 }] }) as unknown as { productData: { uom?: string }[] };
    expect(rec.productData[0].uom).toBe(s.uom);
  });

  it('answers 404 naming an unknown workflow', async () => {
    const r = await inject('GET', '/api/v3/operations/nothing_here', shipper);
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('UNKNOWN_WORKFLOW');
  });

  it('refuses dates of the right shape that name no day (month 77, 31 February) with 400, in lists and stock', async () => {
    const both = await h.userWith(['Deliveries', 'productTraceability']);
    for (const url of [`${base}?from=7182-77-54T03%3A50Z`, `${base}?to=2025-02-31`, '/api/v3/stock?at=6126-53-34T89%3A90', '/api/v3/stock?at=2025-13-01']) {
      const r = await inject('GET', url, both);
      expect(r.statusCode, `${url}: ${r.body}`).toBe(400);
      expect(r.json().error.code).toBe('INVALID_REQUEST');
    }
    expect((await inject('GET', `${base}?from=2025-02-28&to=2025-03-01T10:00:00Z`, shipper)).statusCode).toBe(200);
  });
});

describe('bad input: 4xx naming the field, nothing written', () => {
  const cases: [string, () => Record<string, unknown>, number, string, string?][] = [
    ['a quantity of zero', () => body({}, { amount: 0 }), 400, 'QUANTITY_NOT_POSITIVE', 'productData.0.amount'],
    ['a negative quantity', () => body({}, { amount: -3 }), 400, 'QUANTITY_NOT_POSITIVE', 'productData.0.amount'],
    ['an unknown material', () => body({}, { material: 'no-such-material' }), 400, 'VALIDATION_FAILED', 'productData.0.material'],
    ['an unknown batch', () => body({}, { batchId: 'NOPE' }), 400, 'UNKNOWN_BATCH', 'productData.0.batchId'],
    ['a unit not the material\'s', () => body({}, { uom: 'litre' }), 400, 'UNIT_MISMATCH', 'productData.0.uom'],
    ['a deposit outside the selected warehouse', () => body({ deposit: s.to }), 400, 'DEPOSIT_OUTSIDE_WAREHOUSE', 'deposit'],
  ];
  it.each(cases)('%s', async (_, make, status, code, field) => {
    const before = await snapshot();
    const r = await inject('POST', base, shipper, make());
    expect(r.statusCode, r.body).toBe(status);
    expect(r.json().error.code).toBe(code);
    if (field) expect(r.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await snapshot()).toBe(before);
  });

  it('a transition not allowed from the state: 409 naming both; an unknown one too', async () => {
    const rec = await create();
    const before = await snapshot();
    for (const t of ['acceptAll', 'fly']) {
      const x = await inject('POST', `${base}/${rec.id}/transitions/${t}`, receiver, {});
      expect(x.statusCode, x.body).toBe(409);
      expect(x.json().error).toMatchObject({ code: 'TRANSITION_NOT_ALLOWED', params: { transition: t === 'acceptAll' ? 'Accept' : t, state: 'Draft' } });
    }
    expect(await snapshot()).toBe(before);
  });

  it('a transition without its key: 403, nothing written', async () => {
    const rec = await create();
    const before = await snapshot();
    const noKey = { ...(await h.userWith(['Reception'], { groups: [s.group.id] })), [WAREHOUSE_HEADER]: 'North' };
    const r = await inject('POST', `${base}/${rec.id}/transitions/confirm`, noKey, {});
    expect(r.statusCode).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});
