/**
 * The mobile feature keys of SPEC 6 are enforced on the server by the backend operations they list
 * (schemas/access.json): a holder of `ibc.mobile.performqc` (getIBC, completeQC) reads IBCs and
 * completes QCs and nothing else; a holder of `ibc.mobile.customerreturnrequest` (getIBC,
 * returnRequests, saveReturnRequest, searchReturnRequest, deleteReturnRequest) asks for returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { dayOf, IBC_ENTITY } from './dates';
import { ibcWorld } from '../testing/ibcFleet';

let h: Harness;
let qc: Record<string, string>;
let returns: Record<string, string>;
let customer: string;
let custDep: string;
let plant: string;
const ibc: Record<string, string> = {};
const TODAY = dayOf(new Date());

const call = async (headers: Record<string, string>, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Record<string, any> };
};
const status = async (...args: Parameters<typeof call>) => (await call(...args)).status;
const take = (headers: Record<string, string>, id: string, t: string, fields?: Record<string, unknown>) =>
  status(headers, 'POST', `/api/v3/operations/ibc/${id}/transitions/${t}`, fields ? { fields } : {});
const qcFields = { qcDate: TODAY, qcResult: 'checked', performedBy: 'Mobile QC' };

beforeAll(async () => {
  h = await startHarness();
  qc = (await h.userWith(['ibc.mobile.performqc'])).headers;
  returns = (await h.userWith(['ibc.mobile.customerreturnrequest'])).headers;
  const world = await ibcWorld(h.store);
  ({ plant, customer, custDep } = world);
  const put = async (serial: string, doc: Record<string, unknown>) => { ibc[serial] = await world.put(serial, doc); };
  await put('R-1', { status: 'returned' });
  await put('R-2', { status: 'returned' });
  await put('P-1', { status: 'prepared', content: { quantity: 0 } });
  await put('E-1', { status: 'in_stock_empty' });
  await put('C-1', { status: 'at_customer', customer, lastCustomer: customer, deposit_id: custDep });
  await put('C-2', { status: 'at_customer', customer, lastCustomer: customer, deposit_id: custDep });
});
afterAll(async () => { await h?.close(); });

describe('ibc.mobile.performqc', () => {
  it('reads an IBC by look-up, its record and its log', async () => {
    const found = await call(qc, 'GET', '/api/v3/ibc/lookup?serial=R-1');
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(ibc['R-1']);
    expect(await status(qc, 'GET', `/api/v3/operations/ibc/${ibc['R-1']}`)).toBe(200);
    expect(await status(qc, 'GET', `/api/v3/ibc/${ibc['R-1']}/events`)).toBe(200);
  });

  it('takes startQC, quarantine, block and passQC', async () => {
    expect(await take(qc, ibc['R-1'], 'startQC')).toBe(200);
    expect(await take(qc, ibc['R-1'], 'quarantine', qcFields)).toBe(200);
    expect(await take(qc, ibc['R-1'], 'block', qcFields)).toBe(200);
    expect(await take(qc, ibc['R-2'], 'startQC')).toBe(200);
    expect(await take(qc, ibc['R-2'], 'passQC', qcFields)).toBe(200);
    expect((await h.store.get(IBC_ENTITY, ibc['R-1']))!.status).toBe('blocked');
    expect((await h.store.get(IBC_ENTITY, ibc['R-2']))!.status).toBe('in_stock_empty');
  });

  it('gets 403 on everything its operations do not list', async () => {
    expect(await take(qc, ibc['P-1'], 'ship', { inTransitTo: custDep, deliveryId: 'X' })).toBe(403);
    expect(await take(qc, ibc['E-1'], 'fill', { topSeal: 'T', bottomSeal: 'B' })).toBe(403);
    expect(await take(qc, ibc['E-1'], 'dispose')).toBe(403);
    expect(await take(qc, ibc['E-1'], 'mapNfc', { nfcTagNumber: 'TAG' })).toBe(403);
    expect(await status(qc, 'GET', '/api/v3/operations/ibc_delivery')).toBe(403);
    expect(await status(qc, 'GET', '/api/v3/operations/return_request')).toBe(403);
    expect(await status(qc, 'POST', '/api/v3/operations/return_request', { requestNumber: 'RR-QC' })).toBe(403);
    expect(await status(qc, 'GET', '/api/v3/ibc/holdings')).toBe(403);
    expect(await status(qc, 'GET', '/api/v3/ibc/measures')).toBe(403);
    expect(await status(qc, 'GET', '/api/v3/stock')).toBe(403);
    // Nothing moved.
    expect((await h.store.get(IBC_ENTITY, ibc['P-1']))!.status).toBe('prepared');
    expect((await h.store.get(IBC_ENTITY, ibc['E-1']))!.status).toBe('in_stock_empty');
  });
});

describe('ibc.mobile.customerreturnrequest', () => {
  const request = (requestNumber: string, serials: string[]) => ({
    requestNumber, requestDate: TODAY, customer, deposit: custDep, returnTo: plant, returnState: 'empty', containers: serials.map((ibcNumber) => ({ ibcNumber })),
  });

  it('creates a return request, requests it, searches them, and withdraws or cancels one', async () => {
    const draft = await call(returns, 'POST', '/api/v3/operations/return_request', request('RR-M1', ['C-1']));
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(await status(returns, 'POST', `/api/v3/operations/return_request/${draft.body.id}/transitions/request`, {})).toBe(200);
    expect((await h.store.get(IBC_ENTITY, ibc['C-1']))!.status).toBe('return_requested');
    const found = await call(returns, 'GET', '/api/v3/operations/return_request?q=RR-M1');
    expect(found.status).toBe(200);
    expect(found.body.data.map((r: { requestNumber: string }) => r.requestNumber)).toEqual(['RR-M1']);
    expect(await status(returns, 'GET', `/api/v3/operations/return_request/${draft.body.id}`)).toBe(200);
    expect(await status(returns, 'GET', '/api/v3/ibc/lookup?serial=C-2')).toBe(200);
    expect(await status(returns, 'POST', `/api/v3/operations/return_request/${draft.body.id}/transitions/withdraw`, {})).toBe(200);
    expect((await h.store.get(IBC_ENTITY, ibc['C-1']))!.status).toBe('at_customer');
    const other = await call(returns, 'POST', '/api/v3/operations/return_request', request('RR-M2', ['C-2']));
    expect(await status(returns, 'POST', `/api/v3/operations/return_request/${other.body.id}/transitions/cancel`, {})).toBe(200);
  });

  it('and nothing else: not the return at the deposit, deliveries, QC, the fleet', async () => {
    const draft = await call(returns, 'POST', '/api/v3/operations/return_request', request('RR-M3', ['C-2']));
    expect(await status(returns, 'POST', `/api/v3/operations/return_request/${draft.body.id}/transitions/request`, {})).toBe(200);
    expect(await status(returns, 'POST', `/api/v3/operations/return_request/${draft.body.id}/transitions/receive`, {})).toBe(403);
    expect(await status(returns, 'GET', '/api/v3/operations/ibc_delivery')).toBe(403);
    expect(await status(returns, 'POST', '/api/v3/operations/ibc_delivery', {})).toBe(403);
    expect(await take(returns, ibc['C-2'], 'return', { deposit_id: plant })).toBe(403);
    expect(await take(returns, ibc['R-2'], 'startQC')).toBe(403);
    expect(await status(returns, 'GET', '/api/v3/ibc/holdings')).toBe(403);
    expect(await status(returns, 'GET', '/api/v3/ibc')).toBe(403);
    expect((await h.store.get(IBC_ENTITY, ibc['C-2']))!.status).toBe('return_requested');
  });
});

describe('the other mobile keys reach what their operations name', () => {
  it('ibc.mobile.productinventory (inventory) reads the stock and nothing of the IBCs', async () => {
    const inv = (await h.userWith(['ibc.mobile.productinventory'])).headers;
    expect(await status(inv, 'GET', '/api/v3/stock')).toBe(200);
    expect(await status(inv, 'GET', '/api/v3/stock/batches?material=x')).toBe(200);
    expect(await status(inv, 'GET', '/api/v3/ibc/lookup?serial=R-1')).toBe(403);
  });

  it('a key listing searchWarehouses and getIBC picks the deposits (master data read, not write)', async () => {
    const transfer = (await h.userWith(['ibc.mobile.containertransfer'])).headers;
    const deposits = await call(transfer, 'GET', '/api/v3/masterdata/company_division');
    expect(deposits.status).toBe(200);
    expect(deposits.body.total).toBe(2);
    expect(await status(transfer, 'POST', '/api/v3/masterdata/company_division', {})).toBe(403);
    expect(await take(transfer, ibc['E-1'], 'transfer', { deposit_id: custDep })).toBe(200);
  });
});
