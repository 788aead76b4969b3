import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realRegistry, startHarness, type Harness } from '../testing/harness';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { fixtureDeliveries, insertDeliveries, withFixtureReports, type FixtureDelivery } from './testing/fixtures';

let h: Harness;
let reports: Record<string, string>;
const data = fixtureDeliveries(300, ['dep-north', 'dep-south', 'dep-east']);
const shown = data.filter((d) => d.deliveryStatus !== 'Draft');
const byDateDesc = (a: FixtureDelivery, b: FixtureDelivery) => b.sendDate.localeCompare(a.sendDate);

beforeAll(async () => {
  h = await startHarness({ registry: withFixtureReports(realRegistry()) });
  await insertDeliveries(h.store, data);
  reports = (await h.userWith(['Reports'])).headers;
});
afterAll(async () => { await h.close(); });

const get = (url: string, headers = reports) => h.app.inject({ method: 'GET', url, headers });
const rows = async (query: string, headers = reports) => {
  const r = await get(`/api/v3/reports/fixture_deliveries/rows?${query}`, headers);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { deliveryData: FixtureDelivery[]; page: number; pageSize: number; hasMore: boolean };
};

describe('a report\'s rows and count', () => {
  it('pages the rows in the default sort (send date, newest first) under the report\'s response field, drafts left out by its pipeline', async () => {
    const first = await rows('pageSize=50');
    expect(first.deliveryData.map((d) => d.shipmentID)).toEqual([...shown].sort(byDateDesc).slice(0, 50).map((d) => d.shipmentID));
    expect(first).toMatchObject({ page: 1, pageSize: 50, hasMore: true });
    const last = await rows(`pageSize=50&page=${Math.ceil(shown.length / 50)}`);
    expect(last.hasMore).toBe(false);
    expect(last.deliveryData.length).toBe(shown.length % 50 || 50);
    expect((await get('/api/v3/reports/fixture_deliveries/count')).json()).toEqual({ total: shown.length });
  });

  it('sorts by a column asked for, either way', async () => {
    const asc = await rows('sort=totalQuantity,shipmentID&pageSize=200');
    const expected = [...shown].sort((a, b) => a.totalQuantity - b.totalQuantity || a.shipmentID.localeCompare(b.shipmentID)).slice(0, 200);
    expect(asc.deliveryData.map((d) => d.shipmentID)).toEqual(expected.map((d) => d.shipmentID));
    const desc = await rows('sort=-shipmentID&pageSize=5');
    expect(desc.deliveryData.map((d) => d.shipmentID)).toEqual([...shown].map((d) => d.shipmentID).sort().reverse().slice(0, 5));
  });

  it('applies every declared filter, on the source and on the rows, and counts with them', async () => {
    const cases: [string, (d: FixtureDelivery) => boolean][] = [
      ['sendDate.from=2024-03-01&sendDate.to=2024-03-31', (d) => d.sendDate >= '2024-03-01' && d.sendDate.slice(0, 10) <= '2024-03-31'],
      ['status=Accepted,Total%20Reject', (d) => ['Accepted', 'Total Reject'].includes(d.deliveryStatus)],
      ['batch=c1', (d) => d.productData.some((p) => p.batchId.toLowerCase().includes('c1'))],
      ['quantity.min=10&quantity.max=12', (d) => d.totalQuantity >= 10 && d.totalQuantity <= 12],
      ['comment=NOTE%2025', (d) => d.comments.includes('note 25')],
    ];
    for (const [query, keep] of cases) {
      const expected = shown.filter(keep).sort(byDateDesc).map((d) => d.shipmentID);
      expect(expected.length, query).toBeGreaterThan(0);
      expect((await rows(`${query}&pageSize=200`)).deliveryData.map((d) => d.shipmentID), query).toEqual(expected);
      expect((await get(`/api/v3/reports/fixture_deliveries/count?${query}`)).json(), query).toEqual({ total: expected.length });
    }
  });

  it('lists the reports a user may run, labels in their language', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/v3/reports', headers: { ...reports, 'accept-language': 'es' } });
    const entry = (r.json().data as Record<string, unknown>[]).find((e) => e.key === 'fixture_deliveries')!;
    expect(entry).toMatchObject({ label: 'Entregas (fixture)', category: 'product', sort: '-sendDate', responseField: 'deliveryData', export: { fileName: 'fixture_deliveries', format: 'csv' } });
    expect((entry.columns as { label: string }[]).map((c) => c.label)).toEqual(['Fecha de envío', 'Envío', 'Lotes', 'Estado', 'Comentarios', 'Cantidad total']);
    expect((entry.filters as { id: string; options?: { value: string }[] }[]).find((f) => f.id === 'status')?.options?.map((o) => o.value)).toContain('Accepted');
    // The alerts report needs Alerts, which this user lacks.
    expect((r.json().data as { key: string }[]).map((e) => e.key)).not.toContain('get_alerts_data');
  });
});

describe('bad input', () => {
  const error = async (url: string, headers = reports) => {
    const r = await get(url, headers);
    return { status: r.statusCode, code: r.json().error?.code as string, message: r.json().error?.message as string };
  };

  it('answers 404 for an unknown report on every report route', async () => {
    for (const path of ['rows', 'count', 'saved-filters', 'schedules']) {
      expect(await error(`/api/v3/reports/no_such_report/${path}`)).toMatchObject({ status: 404, code: 'UNKNOWN_REPORT', message: 'There is no report named no_such_report' });
    }
    const post = await h.app.inject({ method: 'POST', url: '/api/v3/reports/no_such_report/exports', headers: reports, payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('answers 400 naming the filter or column for an unknown filter or sort, a wrong value and an inverted range', async () => {
    expect(await error('/api/v3/reports/fixture_deliveries/rows?colour=red')).toMatchObject({ status: 400, code: 'REPORT_FILTER_UNKNOWN' });
    expect((await error('/api/v3/reports/fixture_deliveries/rows?colour=red')).message).toContain('colour');
    expect((await error('/api/v3/reports/fixture_deliveries/count?sendDate=2024-01-01')).code).toBe('REPORT_FILTER_UNKNOWN');
    expect((await error('/api/v3/reports/fixture_deliveries/rows?batch[$ne]=x')).code).toBe('REPORT_FILTER_UNKNOWN');
    const sort = await error('/api/v3/reports/fixture_deliveries/rows?sort=-products');
    expect(sort).toMatchObject({ status: 400, code: 'REPORT_SORT_UNKNOWN' });
    expect(sort.message).toContain('products');
    for (const bad of ['sendDate.from=yesterday', 'quantity.min=lots', 'status=Lost']) {
      const e = await error(`/api/v3/reports/fixture_deliveries/rows?${bad}`);
      expect(e, bad).toMatchObject({ status: 400, code: 'REPORT_FILTER_INVALID' });
      expect(e.message, bad).toContain(bad.split('=')[0]);
    }
    const inverted = await error('/api/v3/reports/fixture_deliveries/rows?sendDate.from=2024-05-02&sendDate.to=2024-05-01');
    expect(inverted).toMatchObject({ status: 400, code: 'REPORT_RANGE_INVERTED' });
    expect(inverted.message).toContain('sendDate');
  });

  it('takes regular-expression characters, operators and NUL in a filter value as harmless text', async () => {
    for (const value of ['.*', '$where', '{"$gt":""}', '(a|b)+$']) {
      expect((await rows(`batch=${encodeURIComponent(value)}`)).deliveryData, value).toEqual([]);
    }
    const nul = await get('/api/v3/reports/fixture_deliveries/rows?batch=B1%00');
    expect(nul.statusCode).toBe(400);
    expect((await get('/api/v3/reports/fixture_deliveries/count')).json()).toEqual({ total: shown.length });
  });
});

describe('saved filters', () => {
  it('saves named filters per user and report, refuses a taken name and a bad filter, and deletes only its owner\'s', async () => {
    const me = (await h.userWith(['Reports'])).headers;
    const other = (await h.userWith(['Reports'])).headers;
    const url = '/api/v3/reports/fixture_deliveries/saved-filters';
    const save = (payload: unknown, headers = me) => h.app.inject({ method: 'POST', url, headers, payload: payload as object });
    const created = await save({ name: 'March accepted', filters: { 'sendDate.from': '2024-03-01', 'sendDate.to': '2024-03-31', status: 'Accepted' }, sort: '-totalQuantity' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'March accepted', filters: { status: 'Accepted' }, sort: '-totalQuantity' });
    expect((await save({ name: 'March accepted', filters: {} })).json().error).toMatchObject({ code: 'SAVED_FILTER_NAME_TAKEN' });
    expect((await save({ name: 'March accepted', filters: {} })).statusCode).toBe(409);
    // The same name is free for someone else.
    expect((await save({ name: 'March accepted' }, other)).statusCode).toBe(201);
    expect((await save({ name: 'Bad', filters: { colour: 'red' } })).json().error).toMatchObject({ code: 'REPORT_FILTER_UNKNOWN' });
    expect((await save({ name: 'Bad', filters: { page: '2' } })).statusCode).toBe(400);
    expect((await save({ name: 'x'.repeat(81) })).statusCode).toBe(400);
    const mine = (await get(url, me)).json().data as { id: string; name: string }[];
    expect(mine.map((f) => f.name)).toEqual(['March accepted']);
    const theirs = (await get(url, other)).json().data as { id: string }[];
    expect((await h.app.inject({ method: 'DELETE', url: `${url}/${theirs[0].id}`, headers: me })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'DELETE', url: `${url}/${mine[0].id}`, headers: me })).statusCode).toBe(204);
    expect((await get(url, me)).json().data).toEqual([]);
    expect((await get(url, other)).json().data).toHaveLength(1);
  });
});

describe('access', () => {
  const routes = (key: string): [string, string, object?][] => [
    ['GET', '/api/v3/reports'], ['GET', `/api/v3/reports/${key}/rows`], ['GET', `/api/v3/reports/${key}/count`],
    ['POST', `/api/v3/reports/${key}/exports`, {}], ['GET', '/api/v3/reports/exports'], ['GET', '/api/v3/reports/exports/x1'], ['GET', '/api/v3/reports/exports/x1/download'],
    ['GET', `/api/v3/reports/${key}/saved-filters`], ['POST', `/api/v3/reports/${key}/saved-filters`, { name: 'n' }], ['DELETE', `/api/v3/reports/${key}/saved-filters/x1`],
    ['GET', `/api/v3/reports/${key}/schedules`], ['POST', `/api/v3/reports/${key}/schedules`, { frequency: 'daily', hour: 6 }], ['DELETE', `/api/v3/reports/${key}/schedules/x1`],
  ];

  it('refuses every report route to a user without a report key', async () => {
    const none = (await h.userWith(['Deliveries'])).headers;
    for (const [method, url, payload] of routes('fixture_deliveries')) {
      const r = await h.app.inject({ method: method as 'GET', url, headers: none, ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses a report whose own key the user lacks (its rows, its export), while their other reports run', async () => {
    const alertsOnly = (await h.userWith(['Alerts'])).headers;
    for (const [method, url, payload] of routes('fixture_deliveries').filter(([, url]) => url.includes('fixture_deliveries'))) {
      const r = await h.app.inject({ method: method as 'GET', url, headers: alertsOnly, ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error.message).toBe('You do not have the Reports access this needs');
    }
    const catalogue = (await get('/api/v3/reports', alertsOnly)).json().data as { key: string }[];
    expect(catalogue.map((e) => e.key)).toEqual(['get_alerts_data']);
    await h.store.insert('alert', { title: { en: 'Rejected', es: 'Rechazada', fr: 'Refusée' }, timestamp: '2024-02-03T10:00:00.000Z', deposit: 'dep-north' });
    const alerts = await get('/api/v3/reports/get_alerts_data/rows', alertsOnly);
    expect(alerts.statusCode).toBe(200);
    expect(alerts.json().alertData.length).toBeGreaterThan(0);
  });

  it('narrows a warehouse-limited user to the rows of their group\'s deposits, and refuses a group they are not in', async () => {
    const group = await h.store.insert('group', { name: 'Reports North', access: ['Reports'], warehouses: ['dep-north'], state: 1 });
    const user = await h.userWith(['Reports'], { groups: [group.id] });
    const headers = { ...user.headers, [WAREHOUSE_HEADER]: 'Reports North' };
    const north = shown.filter((d) => d.deposit === 'dep-north');
    const seen = await rows('pageSize=200', headers);
    expect(seen.deliveryData.map((d) => d.shipmentID)).toEqual([...north].sort(byDateDesc).map((d) => d.shipmentID));
    expect((await get('/api/v3/reports/fixture_deliveries/count', headers)).json()).toEqual({ total: north.length });
    // Without a group selected the same user sees every deposit.
    expect((await get('/api/v3/reports/fixture_deliveries/count', user.headers)).json()).toEqual({ total: shown.length });
    // A group whose pooled access lacks Reports refuses the report (SPEC 6 customer module).
    const other = await h.store.insert('group', { name: 'Imports only', access: ['Imports'], warehouses: ['dep-south'], state: 1 });
    const limited = await h.userWith(['Reports'], { groups: [other.id] });
    expect((await get('/api/v3/reports/fixture_deliveries/rows', { ...limited.headers, [WAREHOUSE_HEADER]: 'Imports only' })).statusCode).toBe(403);
  });
});
