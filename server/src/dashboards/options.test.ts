/**
 * A reference filter's options as a careless configurator could write them: a dashboard filter
 * picking users, or shipments, added by a JSON edit. Anyone who may see the dashboard may pick a
 * deposit of their group; any other record is offered only to who may read it, within the selected
 * warehouse group as its own list is. Real definitions copied and edited, the real server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDefinitions, loadDefinitions } from '../../../definitions/read';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { startHarness, type Harness } from '../testing/harness';

const root = mkdtempSync(join(tmpdir(), 'tm-dash-options-'));
let h: Harness;
const ids: Record<string, string> = {};

const t = (en: string, es: string, fr: string) => ({ en, es, fr });

beforeAll(async () => {
  copyDefinitions(process.cwd(), root);
  const file = join(root, 'schemas', 'dashboards', 'home.json');
  const home = JSON.parse(readFileSync(file, 'utf8'));
  home.filters.push(
    { id: 'owner', label: t('Owner', 'Responsable', 'Responsable'), type: 'reference', ref: 'user' },
    { id: 'shipment', label: t('Shipment', 'Envío', 'Expédition'), type: 'reference', ref: 'delivery' },
  );
  writeFileSync(file, JSON.stringify(home));
  const { registry, problems } = loadDefinitions(root);
  expect(problems).toEqual([]);
  h = await startHarness({ registry: registry! });
  const company = await h.store.insert('company', { company_name: 'Agro SA', state: 1 });
  const division = (name: string) => h.store.insert('company_division', { division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id: company.id, country: 'ar', state: 1 });
  ids.A = (await division('Depósito A')).id;
  ids.B = (await division('Depósito B')).id;
  ids.group = (await h.store.insert('group', { name: 'Norte', access: [], warehouses: [ids.A], state: 1 })).id;
  await h.store.insert('user', { email: 'zoe@example.com', display_name: 'Zoe Hidden', state: 1, access: [], groups: [], templates: [], profiles: [] } as never);
  for (const [n, deposit] of [['R-A-1', ids.A], ['R-B-1', ids.B]]) await h.store.insert('delivery', { shipmentID: n, deposit, receiverDeposit: deposit, sendDate: '2025-03-01', status: 'draft', state: 1 });
}, 120_000);
afterAll(async () => { await h?.close(); rmSync(root, { recursive: true, force: true }); });

const options = async (filter: string, headers: Record<string, string>, q = '') => {
  const r = await h.app.inject({ url: `/api/v3/dashboards/home/filters/${filter}/options${q}`, headers });
  return { status: r.statusCode, body: r.json() };
};

describe('a dashboard filter that picks records other than deposits', () => {
  it('offers users only to who may read them', async () => {
    const viewer = (await h.userWith(['Dashboards'])).headers;
    const r = await options('owner', viewer, '?q=zoe');
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
    expect(JSON.stringify(r.body)).not.toContain('Zoe Hidden');
    const admin = (await h.userWith(['Dashboards', 'User Management'])).headers;
    expect((await options('owner', admin, '?q=zoe')).body.data.map((x: { title: string }) => x.title)).toEqual(['Zoe Hidden']);
  });

  it('offers shipments only to who may read them, and only those of the selected warehouse group', async () => {
    expect((await options('shipment', (await h.userWith(['Dashboards'])).headers)).status).toBe(403);
    const all = (await h.userWith(['Dashboards', 'Deliveries'])).headers;
    expect((await options('shipment', all)).body.data.map((x: { title: string }) => x.title)).toEqual(['R-A-1', 'R-B-1']);
    const north = { ...(await h.userWith(['Dashboards', 'Deliveries'], { groups: [ids.group] })).headers, [WAREHOUSE_HEADER]: 'Norte' };
    expect((await options('shipment', north)).body.data.map((x: { title: string }) => x.title)).toEqual(['R-A-1']);
  });

  it('deposits stay open to whoever sees the dashboard, within their group', async () => {
    const north = { ...(await h.userWith(['Dashboards'], { groups: [ids.group] })).headers, [WAREHOUSE_HEADER]: 'Norte' };
    expect((await options('deposit', north)).body.data).toEqual([{ id: ids.A, title: 'Depósito A' }]);
  });
});
