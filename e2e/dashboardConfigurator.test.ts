/**
 * Issue 19, item 1: a configurator adds a widget to the home dashboard by a JSON edit; on the
 * edited definitions the server serves its data with no code change. That the guest app draws
 * it, in Chromium, is e2e/dashboards.e2e.ts (its server runs on the same edit, CONFIGURED_WIDGETS).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../engine/src/index';
import { CONFIGURED_WIDGETS as ADDED, addConfiguredWidgets } from './harness/dashboardsSeed';
import { copyDefinitions, loadDefinitions } from '../definitions/read';
import { startHarness, type Harness } from '../server/src/testing/harness';

let root: string;
let registry: Registry;
let h: Harness;
let headers: Record<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tm-dash-configurator-'));
  copyDefinitions(process.cwd(), root);
  addConfiguredWidgets(root);
  const loaded = loadDefinitions(root);
  expect(loaded.problems).toEqual([]);
  registry = loaded.registry!;
  h = await startHarness({ registry }); // "restarting the server" on the edited definitions
  headers = (await h.userWith(['Dashboards', 'Reports'])).headers;
  const company = await h.store.insert('company', { company_name: 'Campo Verde S.A.', state: 1 });
  const division = await h.store.insert('company_division', { division_name: 'Depósito Campo Verde', division_type: 'deposit', senasa_id_type: 'depositID', erp_id: 'D1', company_id: company.id, country: 'ar', state: 1 });
  const delivery = (n: number, deliveryStatus: string) => h.store.insert('delivery', {
    sendDate: '2026-03-02', shipmentID: `R-${n}`, deposit: division.id, receiverDeposit: division.id, receiverCompanyType: 'customer', deliveryStatus, productData: [],
  });
  await delivery(1, 'Draft');
  await delivery(2, 'Draft');
  await delivery(3, 'In-Progress');
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a configurator's new widget, written into the dashboard's JSON file", () => {
  it('is caught by the check when it names a row path its report does not have, with the file and the pointer', () => {
    const file = join(root, 'schemas', 'dashboards', 'home.json');
    const text = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, text.replace('"groupBy": "customerName"', '"groupBy": "customer"'));
      const at = (JSON.parse(text) as { widgets: unknown[] }).widgets.length - 1;
      expect(loadDefinitions(root).problems.map((p) => `${p.file}:${p.pointer}: ${p.message}`)).toEqual([
        `schemas/dashboards/home.json:/widgets/${at}/groupBy: field "customer" is not in the rows of report shipments_pending`,
      ]);
    } finally {
      writeFileSync(file, text);
    }
  });

  it('is served by the dashboard routes', async () => {
    const kpi = await h.app.inject({ url: '/api/v3/dashboards/home/widgets/draftShipments/data', headers });
    expect(kpi.statusCode, kpi.body).toBe(200);
    expect(kpi.json()).toEqual({ id: 'draftShipments', kind: 'kpi', value: 2 });
    const chart = await h.app.inject({ url: '/api/v3/dashboards/home/widgets/draftsByCustomer/data', headers });
    expect(chart.json()).toMatchObject({ kind: 'chart', categories: [{ key: 'Campo Verde S.A.', label: 'Campo Verde S.A.' }], series: [{ values: [2] }] });
    const config = (await h.app.inject({ url: '/api/v3/dashboards/home', headers: { ...headers, 'accept-language': 'fr' } })).json() as { widgets: { id: string; title: string }[] };
    expect(config.widgets.at(-2)).toMatchObject({ id: 'draftShipments', title: 'Expéditions en brouillon' });
  });
});
