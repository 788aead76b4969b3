/**
 * The dashboard routes on a small hand-made world (on the embedded store, or MongoDB when
 * MONGODB_URI is set): which dashboards a user sees, the named queries' figures and groups
 * counted independently from the records, the selected warehouse group's narrowing, a widget
 * refused in its own slot, bad input answered 4xx and changing nothing. Every report-fed widget
 * over the demo activity: scripts/dashboards/demo.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doc } from '../store/types';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { SYNC_JOB } from '../sync/collections';
import { startHarness, type Harness } from '../testing/harness';

type Headers = Record<string, string>;
const DAY = 86_400_000;
const NOW = Date.now();
const iso = (daysFromNow: number) => new Date(NOW + daysFromNow * DAY).toISOString();

let h: Harness;
/** Dashboards and Reports; Dashboards alone; a member of the group of deposit A1 alone; no dashboard key. */
let full: Headers;
let dashOnly: Headers;
let limited: Headers;
let none: Headers;
const ids: Record<string, string> = {};
let jobs: Doc[];
let ibcs: Doc[];
let balances: Doc[];

beforeAll(async () => {
  h = await startHarness();
  const s = h.store;
  const located = await s.insert('company', { company_name: 'Agro Norte S.A.', state: 1, address: { location: { lat: -32.95, lng: -60.65 } } });
  const nowhere = await s.insert('company', { company_name: 'Sin Lugar S.R.L.', state: 1 });
  const division = (name: string, company: string) => s.insert('company_division', { division_name: name, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: name, company_id: company, country: 'ar', state: 1 });
  ids.A1 = (await division('Depósito A1', located.id)).id;
  ids.A2 = (await division('Depósito A2', located.id)).id;
  ids.B1 = (await division('Depósito B1', nowhere.id)).id;
  ids.companyA = located.id;
  ids.companyB = nowhere.id;
  const kg = await s.insert('units_of_measurement', { unit_name: 'Kilogram', sap_unit_id: 'KG', state: 1 });
  const litre = await s.insert('units_of_measurement', { unit_name: 'Litre', sap_unit_id: 'L', state: 1 });
  ids.kg = kg.id;
  ids.litre = litre.id;

  // The outbox: jobs past their deadline, due soon, on time, failed, done, at each deposit.
  const job = (n: number, state: string, deposit: string, deadlineDays: number, dueSoonDays: number) => s.insert(SYNC_JOB, {
    key: `job-${n}`, workflow: 'product_declaration', entity: 'product_declaration', recordId: `r${n}`, kind: 'declare', state, rev: 1, attempts: 0,
    nextAt: iso(0), declaredAt: iso(-10), deadline: iso(deadlineDays), dueSoonAt: iso(dueSoonDays), deposit,
  });
  let n = 0;
  for (const [state, deposit, deadline, dueSoon] of [
    ['pending', ids.A1, -2, -3], ['pending', ids.A1, 1, -1], ['pending', ids.A2, 5, 3], ['leased', ids.B1, -1, -2], ['failed', ids.A1, 2, -1],
    ['failed', ids.B1, 3, 1], ['done', ids.A1, -5, -6], ['pending', ids.B1, 1, -1],
  ] as const) await job(n++, state, deposit, deadline, dueSoon);
  jobs = await s.find(SYNC_JOB, {});

  // IBCs: at our deposits, in transit, at customers (some long ago), back in QC, disposed; owned by company A or B.
  const ibc = (serial: string, status: string, deposit: string, owner: string, extra: Record<string, unknown> = {}) => s.insert('ibc_container', {
    serial_number: serial, status, deposit_id: deposit, company_id: owner, numberOfUses: 1, state: 1, ...extra,
  });
  const loss = h.registry.deployment.settings.ibc.lossAfterDays;
  await ibc('I1', 'in_stock_empty', ids.A1, ids.companyA);
  await ibc('I2', 'prepared', ids.A1, ids.companyA);
  await ibc('I3', 'in_transit', ids.A2, ids.companyA);
  await ibc('I4', 'at_customer', ids.B1, ids.companyA, { customerSince: iso(-(loss + 5)) });
  await ibc('I5', 'at_customer', ids.B1, ids.companyA, { customerSince: iso(-2) });
  await ibc('I6', 'return_requested', ids.B1, ids.companyB, { customerSince: iso(-(loss + 1)) });
  await ibc('I7', 'quarantine', ids.A2, ids.companyA, { nextInspectionDate: iso(-3).slice(0, 10) });
  await ibc('I8', 'disposed', ids.A1, ids.companyA, { nextInspectionDate: iso(-300).slice(0, 10) });
  ibcs = await s.find('ibc_container', {});

  // Stock: balances of two units at three deposits, one emptied.
  const balance = (deposit: string, unit: string, quantity: number, batch: string) => s.insert('stock_balance', { id: `m|${batch}|${deposit}`, material: 'm', batch, deposit, quantity, unit });
  await balance(ids.A1, kg.id, 120, 'b1');
  await balance(ids.A1, litre.id, 30, 'b2');
  await balance(ids.A2, kg.id, 45.5, 'b3');
  await balance(ids.B1, litre.id, 200, 'b4');
  await balance(ids.B1, kg.id, 0, 'b5');
  balances = await s.find('stock_balance', {});

  full = (await h.userWith(['Dashboards', 'Reports'])).headers;
  dashOnly = (await h.userWith(['Dashboards'])).headers;
  none = (await h.userWith(['Master Data'])).headers;
  const group = await s.insert('group', { name: 'Depot A1', access: ['Dashboards', 'Reports'], warehouses: [ids.A1], state: 1 });
  limited = { ...(await h.userWith(['Dashboards', 'Reports'], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'Depot A1' };
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Headers) => h.app.inject({ method: 'GET', url, headers });
async function widget(key: string, id: string, headers: Headers, query = ''): Promise<Doc> {
  const r = await get(`/api/v3/dashboards/${key}/widgets/${id}/data${query}`, headers);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Doc;
}
const kpi = async (id: string, headers: Headers, query = '') => (await widget('home', id, headers, query)).value;

/** The outbox's figures counted from the jobs, as the deadlines say them at NOW. */
function outbox(inScope: (j: Doc) => boolean) {
  const open = jobs.filter((j) => inScope(j) && ['pending', 'leased', 'failed'].includes(String(j.state)));
  const at = new Date().toISOString();
  return {
    overdue: open.filter((j) => String(j.deadline) <= at).length,
    dueSoon: open.filter((j) => String(j.dueSoonAt) <= at && String(j.deadline) > at).length,
  };
}

describe('getDashboardConfig', () => {
  it('lists the dashboards a user may see, in the caller\'s language, each widget saying whether its data is theirs', async () => {
    const r = await get('/api/v3/dashboards', { ...dashOnly, 'accept-language': 'es' });
    expect(r.statusCode, r.body).toBe(200);
    const data = (r.json() as { data: Doc[] }).data;
    const keys = data.map((d) => d.key);
    expect(keys).toContain('home');
    // Customers needs Analytics, production the inventory-tracking key.
    expect(keys).not.toContain('customers');
    expect(keys).not.toContain('production');
    const home = data.find((d) => d.key === 'home')!;
    expect(home.label).toBe(h.registry.dashboards.home.label.es);
    const widgets = home.widgets as Doc[];
    expect(widgets.find((w) => w.id === 'declarationsOverdue')).toMatchObject({ allowed: true, title: 'Declaraciones vencidas', goal: { max: 0 } });
    expect(widgets.find((w) => w.id === 'shipments')).toMatchObject({ allowed: false, source: { report: 'shipment_history' } });
    expect((home.filters as Doc[]).find((f) => f.id === 'period')!.default).toEqual({ from: `${new Date().toISOString().slice(0, 7)}-01`, to: new Date().toISOString().slice(0, 10) });
    const one = await get('/api/v3/dashboards/home', full);
    expect((one.json() as Doc).widgets).toHaveLength(h.registry.dashboards.home.widgets.length);
  });

  it('refuses a user without the dashboards\' key, and one who has not signed in', async () => {
    expect((await get('/api/v3/dashboards', none)).statusCode).toBe(403);
    expect((await get('/api/v3/dashboards/home/data', {})).statusCode).toBe(401);
    const customers = await get('/api/v3/dashboards/customers', dashOnly);
    expect(customers.statusCode).toBe(403);
    expect(customers.json()).toMatchObject({ error: { code: 'FORBIDDEN', params: { key: 'Analytics' } } });
  });
});

describe('named queries', () => {
  it('the outbox: declarations due soon and past their deadline, as the jobs say, narrowed to a deposit', async () => {
    const all = outbox(() => true);
    expect(all.overdue).toBeGreaterThan(0);
    expect(all.dueSoon).toBeGreaterThan(0);
    expect(await kpi('declarationsOverdue', full)).toBe(all.overdue);
    expect(await kpi('declarationsDue', full)).toBe(all.dueSoon);
    const a1 = outbox((j) => j.deposit === ids.A1);
    expect(await kpi('declarationsOverdue', full, `?deposit=${ids.A1}`)).toBe(a1.overdue);
    expect(await kpi('declarationsDue', full, `?deposit=${ids.A1}`)).toBe(a1.dueSoon);
    // Past its goal of zero it is red.
    expect((await widget('home', 'declarationsOverdue', full)).state).toBe('bad');
    const failed = jobs.filter((j) => j.state === 'failed').length;
    expect((await widget('operational_overview', 'declarationsFailed', full)).value).toBe(failed);
    const chart = await widget('operational_overview', 'outbox', full);
    expect((chart.categories as Doc[]).map((c) => c.key)).toEqual(['pending', 'dueSoon', 'overdue', 'failed']);
    expect((chart.series as Doc[])[0].values).toEqual([jobs.filter((j) => j.state === 'pending' || j.state === 'leased').length, all.dueSoon, all.overdue, failed]);
  });

  it('the IBC fleet: at customers, and held past the loss threshold, counted from the IBCs', async () => {
    const loss = h.registry.deployment.settings.ibc.lossAfterDays;
    const holding = ibcs.filter((i) => ['at_customer', 'return_requested'].includes(String(i.status)));
    expect(await kpi('ibcsAtCustomers', full)).toBe(holding.length);
    expect(await kpi('ibcsOverdue', full)).toBe(holding.filter((i) => String(i.customerSince) < new Date(Date.now() - loss * DAY).toISOString()).length);
    expect((await widget('inventory_geotracking', 'ibcsInTransit', full)).value).toBe(ibcs.filter((i) => i.status === 'in_transit').length);
  });

  it('stock by deposit: each deposit\'s quantity per unit, summed from the balances above 0, on a chart and placed on a map', async () => {
    const expected = new Map<string, number>();
    for (const b of balances) if (Number(b.quantity) > 0) expected.set(`${String(b.deposit)}|${String(b.unit)}`, (expected.get(`${String(b.deposit)}|${String(b.unit)}`) ?? 0) + Number(b.quantity));
    const chart = await widget('home', 'stockByDeposit', full);
    const cats = chart.categories as { key: string; label: string }[];
    const got = new Map<string, number>();
    for (const s of chart.series as { key: string; label: string; values: number[] }[]) cats.forEach((c, i) => { if (s.values[i]) got.set(`${c.key}|${s.key}`, s.values[i]); });
    expect(got).toEqual(expected);
    expect(cats.map((c) => c.label).sort()).toEqual(['Depósito A1', 'Depósito A2', 'Depósito B1']);
    expect((chart.series as Doc[]).map((s) => s.label).sort()).toEqual(['Kilogram', 'Litre']);
    // B1's company has no place: its stock is counted as unplaced.
    const map = await widget('home', 'stockMap', full);
    expect((map.points as Doc[]).map((p) => [p.key, p.value, p.lat, p.lng])).toEqual([[ids.A1, 150, -32.95, -60.65], [ids.A2, 45.5, -32.95, -60.65]]);
    expect(map.unplaced).toBe(200);
  });
});

describe('stock and IBCs per deposit, kept a minute', () => {
  it('a balance written meanwhile shows once the minute is over, or once the cache manager clears the dashboards\' groups', async () => {
    const before = await widget('home', 'stockMap', full);
    const b = await h.store.insert('stock_balance', { id: 'm|b9|A2', material: 'm', batch: 'b9', deposit: ids.A2, quantity: 4.5, unit: ids.kg });
    try {
      expect(await widget('home', 'stockMap', full)).toEqual(before);
      const admin = (await h.userWith(['Monitoring'])).headers;
      const list = (await get('/api/v3/caches', admin)).json() as { data: { name: string; entries: number }[] };
      expect(list.data.find((c) => c.name === 'dashboard-groups')!.entries).toBeGreaterThan(0);
      expect((await h.app.inject({ method: 'POST', url: '/api/v3/caches/dashboard-groups/clear', headers: admin })).statusCode).toBe(200);
      const after = await widget('home', 'stockMap', full);
      expect((after.points as Doc[]).find((p) => p.key === ids.A2)!.value).toBe(45.5 + 4.5);
    } finally {
      await h.store.delete('stock_balance', b.id);
      await h.app.inject({ method: 'POST', url: '/api/v3/caches/dashboard-groups/clear', headers: (await h.userWith(['Monitoring'])).headers });
    }
  });
});

describe('the selected warehouse group', () => {
  it('narrows the named queries to its deposits (and an IBC to its owner\'s company)', async () => {
    const a1 = outbox((j) => j.deposit === ids.A1);
    expect(await kpi('declarationsOverdue', limited)).toBe(a1.overdue);
    expect(await kpi('declarationsDue', limited)).toBe(a1.dueSoon);
    // Company A owns the IBCs at customers I4 and I5 (at B1, not in the group): the owner's company is in the group.
    expect(await kpi('ibcsAtCustomers', limited)).toBe(ibcs.filter((i) => ['at_customer', 'return_requested'].includes(String(i.status)) && (i.deposit_id === ids.A1 || i.company_id === ids.companyA)).length);
    const map = await widget('home', 'stockMap', limited);
    expect((map.points as Doc[]).map((p) => [p.key, p.value])).toEqual([[ids.A1, 150]]);
    expect(map.unplaced).toBe(0);
    const options = (await get('/api/v3/dashboards/home/filters/deposit/options', limited)).json() as { data: Doc[] };
    expect(options.data).toEqual([{ id: ids.A1, title: 'Depósito A1' }]);
  });

  it('refuses a group the user is not a member of', async () => {
    const r = await get('/api/v3/dashboards/home/widgets/stockMap/data', { ...full, [WAREHOUSE_HEADER]: 'Depot A1' });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: { code: 'WAREHOUSE_NOT_YOURS' } });
  });
});

describe('fetchDashboardData: access per widget', () => {
  it('a widget whose report the user may not run answers 403 in its own slot; the others answer', async () => {
    const r = await get('/api/v3/dashboards/home/data', dashOnly);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as { key: string; filters: Record<string, string>; widgets: Doc[] };
    expect(body.key).toBe('home');
    expect(body.filters).toMatchObject({ 'period.from': `${new Date().toISOString().slice(0, 7)}-01` });
    const slot = (id: string) => body.widgets.find((w) => w.id === id)!;
    expect(slot('shipments')).toMatchObject({ status: 403, error: { code: 'FORBIDDEN', params: { key: 'Reports' } } });
    expect(slot('receptionsTable').status).toBe(403);
    expect(slot('declarationsOverdue')).toMatchObject({ status: 200, data: { kind: 'kpi', value: outbox(() => true).overdue } });
    expect(body.widgets.map((w) => w.id)).toEqual(h.registry.dashboards.home.widgets.map((w) => w.id));
    const one = await get('/api/v3/dashboards/home/widgets/shipments/data', dashOnly);
    expect(one.statusCode).toBe(403);
  });

  it('a user with the report\'s key reads it: the report\'s count (none in this world)', async () => {
    expect(await kpi('shipments', full)).toBe(0);
    expect(await widget('home', 'receptionsTable', full)).toMatchObject({ kind: 'table', rows: [], hasMore: false });
  });
});

describe('bad input changes nothing', () => {
  const refused = async (url: string, status: number, code: string, headers = full) => {
    const r = await get(url, headers);
    expect(r.statusCode, `${url}: ${r.body}`).toBe(status);
    const error = (r.json() as { error: { code: string; message: string } }).error;
    expect(error.code, url).toBe(code);
    return error.message;
  };

  it('an unknown dashboard or widget is 404; a wrong filter value, an unknown parameter, an inverted period or an operator is 400 naming it', async () => {
    const before = await Promise.all(['sync_job', 'ibc_container', 'stock_balance', 'company_division'].map((c) => h.store.count(c, {})));
    expect(await refused('/api/v3/dashboards/nowhere/data', 404, 'UNKNOWN_DASHBOARD')).toBe('There is no dashboard named nowhere');
    expect(await refused('/api/v3/dashboards/home/widgets/nothing/data', 404, 'UNKNOWN_WIDGET')).toBe('The dashboard home has no widget named nothing');
    expect(await refused('/api/v3/dashboards/home/data?period.from=2026-13-01', 400, 'DASHBOARD_FILTER_INVALID')).toBe('period.from : 2026-13-01 is not a valid date (YYYY-MM-DD)');
    expect(await refused('/api/v3/dashboards/home/widgets/shipments/data?period.from=yesterday', 400, 'DASHBOARD_FILTER_INVALID')).toContain('period.from');
    expect(await refused('/api/v3/dashboards/home/data?colour=red', 400, 'DASHBOARD_FILTER_UNKNOWN')).toBe('colour is not a filter of the dashboard home; its filters: period.from, period.to, deposit');
    expect(await refused('/api/v3/dashboards/home/data?period.from=2026-03-10&period.to=2026-03-01', 400, 'REPORT_RANGE_INVERTED')).toContain('period');
    expect(await refused('/api/v3/dashboards/home/data?deposit[$gt]=', 400, 'DASHBOARD_FILTER_UNKNOWN')).toContain('deposit[$gt]');
    expect(await refused('/api/v3/dashboards/home/data?deposit=a&deposit=b', 400, 'INVALID_REQUEST')).toContain('deposit');
    expect(await refused('/api/v3/dashboards/home/filters/period/options', 400, 'DASHBOARD_FILTER_UNKNOWN')).toContain('period');
    expect((await get('/api/v3/dashboards/home%00/data', full)).statusCode).toBe(400);
    // A deposit that is nobody's matches nothing: a figure of zero, not an error.
    expect(await kpi('declarationsOverdue', full, '?deposit=%7B%22%24gt%22%3A%22%22%7D')).toBe(0);
    const after = await Promise.all(['sync_job', 'ibc_container', 'stock_balance', 'company_division'].map((c) => h.store.count(c, {})));
    expect(after).toEqual(before);
  });

  it('the routes are in the OpenAPI document with their answers described', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of ['/api/v3/dashboards', '/api/v3/dashboards/{key}', '/api/v3/dashboards/{key}/data', '/api/v3/dashboards/{key}/widgets/{widget}/data', '/api/v3/dashboards/{key}/filters/{filter}/options']) {
      expect(Object.keys(doc.paths[path]?.get?.responses ?? {}), path).toEqual(expect.arrayContaining(['200', '4XX']));
    }
  });
});
