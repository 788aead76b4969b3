/**
 * The configurator's proof (issue 15 item 11): the donation of docs/workflows.md, added to a
 * copy of the repository's definitions as JSON files only, loaded the way the server loads
 * them, and run end to end through the API — no code change.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../definitions/read';
import { startHarness, type Harness } from '../testing/harness';
import { WAREHOUSE_HEADER } from '../plugins/access';

const FIXTURE = join(process.cwd(), 'server/src/workflows/fixtures/donation');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURE, name), 'utf8'));

/** The repository's definitions plus the donation's six pieces, in a temp dir. */
function definitionsWithDonation(root: string): void {
  for (const dir of ['schemas', 'reports']) cpSync(join(process.cwd(), dir), join(root, dir), { recursive: true });
  const edit = (path: string, change: (json: any) => void) => {
    const file = join(root, path);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    change(json);
    writeFileSync(file, JSON.stringify(json, null, 2));
  };
  edit('schemas/access.json', (a) => {
    a.keys.push(...fixture('access-keys.json'));
    a.templates.find((t: { id: string }) => t.id === 'traceabilityOperator').keys.push('Donations');
  });
  edit('schemas/features.json', (f) => { f.features.push(...fixture('features.json')); });
  edit('schemas/deployment.json', (d) => {
    Object.assign(d.features, fixture('deployment-features.json'));
    // Declared to the authority: its legal deadline, as every declarable operation has one.
    Object.assign(d.settings.sync.deadlineMinutes, fixture('deadline-minutes.json'));
  });
  cpSync(join(FIXTURE, 'entities/donation.json'), join(root, 'schemas/entities/donation.json'));
  cpSync(join(FIXTURE, 'workflows/donation.json'), join(root, 'schemas/workflows/donation.json'));
}

let root: string;
let h: Harness;
let operator: Record<string, string>;
let viewer: Record<string, string>;
let deposit: string;
let recipient: string;
let material: string;
let kg: string;

const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  return { status: r.statusCode, body: r.json() as Record<string, any> };
};
const ok = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown, status = 200) => {
  const r = await call(method, url, headers, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const stock = async () => Number((await ok('GET', `/api/v3/stock?material=${material}&batch=D-LOT-1&deposit=${deposit}`, viewer)).data[0]?.quantity ?? 0);
const transition = (id: string, t: string, payload: unknown = {}) => call('POST', `/api/v3/operations/donation/${id}/transitions/${t}`, operator, payload);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tm-donation-'));
  definitionsWithDonation(root);
  const loaded = loadDefinitions(root);
  expect(loaded.problems).toEqual([]);
  h = await startHarness({ registry: loaded.registry! });
  kg = (await h.store.insert('units_of_measurement', { name: 'Kilogram', code: 'KG', state: 1 })).id;
  material = (await h.store.insert('material', { name: 'Seed treatment', uom: kg, state: 1 })).id;
  const company = (await h.store.insert('company', { company_name: 'Agro SA', extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'producer' } }, state: 1 })).id;
  recipient = (await h.store.insert('company', { company_name: 'Food Bank', extensions: { companyInfo: { cuit: '30-71234567-2', company_type: 'customer' } }, state: 1 })).id;
  deposit = (await h.store.insert('company_division', {
    division_name: 'Main deposit', division_type: 'deposit', senasa_id_type: 'x', erp_id: 'MAIN', company_id: company, country: 'AR', state: 1,
  })).id;
  const group = await h.store.insert('group', { name: 'Main', access: ['Donations', 'Imports'], warehouses: [deposit], state: 1 });
  operator = { ...(await h.userWith(['Donations', 'Imports'], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'Main' };
  viewer = (await h.userWith(['productTraceability'])).headers;
  // Stock to give: an import, through its own workflow.
  const imp = await ok('POST', '/api/v3/operations/product_import', operator, {
    importDate: '2025-05-01', importID: 'IMP-D1', deposit,
    productData: [{ material, batchId: 'D-LOT-1', quantity: 100, uom: kg, expirationDate: '2027-05-01' }],
  }, 201);
  await ok('POST', `/api/v3/operations/product_import/${imp.id}/transitions/confirm`, operator, {});
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

const donate = async (donationId: string, quantity: number) => ok('POST', '/api/v3/operations/donation', operator, {
  donationDate: '2025-05-10', donationId, deposit, recipient, productData: [{ material, batchId: 'D-LOT-1', quantity, uom: kg }],
}, 201);

describe('a donation added as JSON only', () => {
  it('has its routes, in the OpenAPI document, behind its own key', async () => {
    const paths = Object.keys((await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v3/operations/donation', '/api/v3/operations/donation/{id}/transitions/dispatch']));
    const stranger = await call('GET', '/api/v3/operations/donation', (await h.userWith(['Imports'])).headers);
    expect(stranger.status).toBe(403);
    expect(h.registry.features.features.find((f) => f.id === 'donations')?.operation).toMatchObject({ workflow: 'donation', create: true });
  });

  it('is dispatched (stock leaves the deposit, a shipping event is stored) and acknowledged by the recipient with a certificate', async () => {
    expect(await stock()).toBe(100);
    const d = await donate('DON-1', 30);
    expect(d.status).toBe('Draft');
    const dispatched = await transition(d.id, 'dispatch');
    expect(dispatched.status, JSON.stringify(dispatched.body)).toBe(200);
    expect(dispatched.body.record).toMatchObject({ status: 'Dispatched', sync: { status: '' } });
    expect(await stock()).toBe(70);
    const events = await h.store.find('object_events', { filter: { 'operation.id': d.id } });
    expect(events.map((e) => [e.biz_step, e.disposition])).toEqual([['shipping', 'in_transit']]);
    expect((await ok('GET', `/api/v3/operations/donation/${d.id}`, operator)).transitions.map((t: { id: string }) => t.id)).toEqual(['acknowledge', 'return']);
    // The certificate is required, and nothing else of the request is taken.
    const bare = await transition(d.id, 'acknowledge');
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe('TRANSITION_FIELD_REQUIRED');
    const done = await transition(d.id, 'acknowledge', { fields: { receiptCertificate: 'CERT-77', deposit: 'elsewhere' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.record).toMatchObject({ status: 'Acknowledged', receiptCertificate: 'CERT-77', deposit });
    expect(done.body.record.history.map((e: { to: string }) => e.to)).toEqual(['Dispatched', 'Acknowledged']);
    expect(await stock()).toBe(70);
  });

  it('when returned by the recipient the goods come back, with an alert; more than the stock is refused whole', async () => {
    const d = await donate('DON-2', 20);
    await transition(d.id, 'dispatch');
    expect(await stock()).toBe(50);
    expect((await transition(d.id, 'return')).status).toBe(400);
    const back = await transition(d.id, 'return', { comment: 'the recipient had no storage' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.record.status).toBe('Returned');
    expect(await stock()).toBe(70);
    expect(await h.store.count('alert', { 'operation.id': d.id })).toBe(1);
    // Dispatched, then returned: two declarations to the authority, each under a key of its own.
    expect((await h.store.find('sync_job', { filter: { recordId: d.id }, sort: { key: 1 } })).map((j) => j.key)).toEqual([`donation:${d.id}:declare`, `donation:${d.id}:declare:2`]);
    const big = await donate('DON-3', 71);
    const refused = await transition(big.id, 'dispatch');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'STOCK_INSUFFICIENT', params: { available: 70, requested: 71 } });
    expect((await h.store.get('donation', big.id))!.status).toBe('Draft');
    expect(await stock()).toBe(70);
  });
});
