import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_COLLECTIONS } from '../boot';
import { tokenId } from '../auth/sessions';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { realRegistry, startHarness, type Harness } from '../testing/harness';
import { storeDigest } from '../testing/storeDigest';
import { EXPORT_COLLECTION } from './exports';
import { SAVED_FILTER_COLLECTION } from './savedFilters';
import { SCHEDULE_COLLECTION } from './schedules';
import { fixtureDeliveries, insertDeliveries, withFixtureReports } from './testing/fixtures';

/**
 * Hostile requests across every report route (issue 17 "Bad input"): never a 5xx, every 4xx in
 * the API's error shape, and a refused request leaves the store and the export files as they were.
 */
let h: Harness;
type Headers = Record<string, string>;
const callers: Record<string, Headers> = {};
const ids = { exports: [] as string[], savedFilters: [] as string[], schedules: [] as string[] };
let token = '';

beforeAll(async () => {
  h = await startHarness({ registry: withFixtureReports(realRegistry()) });
  await insertDeliveries(h.store, fixtureDeliveries(60, ['dep-a', 'dep-b']));
  await h.store.insert('alert', { title: { en: 'Rejected', es: 'Rechazada', fr: 'Refusée' }, timestamp: '2024-02-03T10:00:00.000Z', deposit: 'dep-a' });
  const reports = await h.userWith(['Reports']);
  const group = await h.store.insert('group', { name: 'Fuzz A', access: ['Reports'], warehouses: ['dep-a'], state: 1 });
  const limited = await h.userWith(['Reports'], { groups: [group.id] });
  callers.reports = reports.headers;
  callers.alertsOnly = (await h.userWith(['Alerts'])).headers;
  callers.limited = { ...limited.headers, [WAREHOUSE_HEADER]: 'Fuzz A' };
  callers.otherGroup = { ...limited.headers, [WAREHOUSE_HEADER]: 'Not my group' };
  callers.admin = (await h.userWith(['superadmin'])).headers;
  callers.anonymous = {};
  // Something for the id routes to find: a finished export with a mailed token, a saved filter, a schedule.
  const post = (url: string, payload: object) => h.app.inject({ method: 'POST', url: `/api/v3/reports/fixture_deliveries/${url}`, headers: reports.headers, payload });
  const started = await post('exports', {});
  await h.app.reportExports.finished(started.json().id);
  token = randomBytes(32).toString('base64url');
  await h.store.patch(EXPORT_COLLECTION, started.json().id, { tokenHash: tokenId(token), tokenExpiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  ids.exports.push(started.json().id);
  ids.savedFilters.push((await post('saved-filters', { name: 'Seeded', filters: { status: 'Accepted' } })).json().id);
  ids.schedules.push((await post('schedules', { frequency: 'daily', hour: 5 })).json().id);
}, 120_000);
afterAll(async () => { await h?.close(); });

const REPORT_COLLECTIONS = [EXPORT_COLLECTION, SAVED_FILTER_COLLECTION, SCHEDULE_COLLECTION];

/** A digest of every collection and of the export files, to prove a refused request changed nothing. */
const snapshot = () => storeDigest(
  h.store, [...Object.keys(h.registry.entities), ...SYSTEM_COLLECTIONS.map((c) => c.name), ...REPORT_COLLECTIONS],
  readdirSync(h.app.reportExports.dir).sort().join('\n'),
);

const hostileText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '.*', '(a|b)+$', '[', '\\', '^$', '$where', '{"$gt":""}', '%', '%00', '😀', '<script>', "'; DROP TABLE delivery; --", 'null', 'undefined', 'NaN'),
  fc.constantFrom('2024-03-01', '2026-02-31', '2024-13-01', '2024-1-1', '2024-03-01T00:00:00Z', '99999-01-01', '0000-00-00', '-2024-01-01'),
  fc.constantFrom('1', '-1', '0', '1.5', '1e309', '-0', '0x10', 'Infinity', '1,2', '12abc', '9'.repeat(40)),
  fc.constantFrom('Accepted', 'Accepted,Total Reject', 'Draft', 'Lost', ',', 'Accepted,,', 'true', 'false', 'TRUE'),
  { arbitrary: fc.string({ maxLength: 4 }).map((s) => `${s}x`.repeat(30_000)), weight: 1 },
);
const filterName = fc.oneof(
  fc.constantFrom('sendDate.from', 'sendDate.to', 'status', 'batch', 'quantity.min', 'quantity.max', 'comment'),
  fc.constantFrom('sendDate', 'sendDate.since', 'colour', 'status[]', 'batch[$ne]', 'batch[$regex]', 'x[$ne]', 'quantity.min[$gt]', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'page', 'pageSize', 'sort', 'lang', '$where', 'a.b.c', ''),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const reserved = fc.oneof(
  fc.tuple(fc.constant('page'), fc.constantFrom('1', '0', '-1', '2', '1.5', '1000000', '1000001', '1e9', '99999999999999999999', 'abc', '')),
  fc.tuple(fc.constant('pageSize'), fc.constantFrom('1', '0', '20', '200', '201', '-5', '1e3', 'all', '')),
  fc.tuple(fc.constant('sort'), fc.constantFrom('sendDate', '-sendDate', 'products', '-products', 'unknown', '-', ',', '--sendDate', 'sendDate,sendDate', 'sendDate,-sendDate', '__proto__', 'constructor', 'shipmentID,-totalQuantity,comments', 'deliveryStatus', 'title', '')),
  fc.tuple(fc.constant('lang'), fc.constantFrom('es', 'xx', '')),
);
/** Query pairs, repeats included (`a=1&a=2` arrives as an array). */
const queryPairs = fc.array(fc.oneof(fc.tuple(filterName, hostileText), reserved), { maxLength: 6 });
const toQuery = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const operatorObject = fc.dictionary(fc.constantFrom('$gt', '$ne', '$where', '$regex', '$expr', '__proto__', 'constructor', '$in'), fc.oneof(fc.string(), fc.constant(null), fc.array(fc.string())), { minKeys: 1 });
const hostileValue = fc.oneof(
  hostileText,
  fc.jsonValue({ maxDepth: 3 }),
  operatorObject,
  fc.constantFrom(NaN, Infinity, -1, 0, 1.5, 7, 24, 1e308, true, null, [], {}),
  fc.integer({ min: 50, max: 3000 }).map((d) => JSON.parse('['.repeat(d) + ']'.repeat(d))),
);
const filters = fc.oneof(
  { arbitrary: fc.dictionary(filterName, hostileText, { maxKeys: 4 }), weight: 4 },
  hostileValue,
  { arbitrary: fc.constant(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 'x']))), weight: 1 },
);
const sortValue = fc.oneof(reserved.filter(([k]) => k === 'sort').map(([, v]) => v), hostileValue);
/** Bodies that could be right, so the accepted paths run between the refused ones. */
const plausibleFilters = fc.dictionary(fc.constantFrom('status', 'batch', 'sendDate.from', 'quantity.max'), fc.constantFrom('Accepted', 'B1', '2024-03-01', '12'), { maxKeys: 2 });
const plausible = fc.record({
  name: fc.string({ minLength: 1, maxLength: 12 }), filters: plausibleFilters, sort: fc.constantFrom('-sendDate', 'shipmentID'),
  frequency: fc.constantFrom('daily', 'weekly'), weekday: fc.integer({ min: 0, max: 6 }), hour: fc.integer({ min: 0, max: 23 }),
}, { requiredKeys: ['name', 'frequency', 'hour'] });
const body = fc.oneof(
  { arbitrary: plausible, weight: 3 },
  { arbitrary: fc.record({ filters, sort: sortValue }, { requiredKeys: [] }), weight: 4 },
  { arbitrary: fc.record({ name: fc.oneof(hostileText, hostileValue, fc.constant('Seeded')), filters, sort: sortValue }, { requiredKeys: [] }), weight: 3 },
  {
    arbitrary: fc.record({
      frequency: fc.oneof(fc.constantFrom('daily', 'weekly', 'monthly', 'DAILY', ''), hostileValue),
      weekday: fc.oneof(fc.integer({ min: -2, max: 8 }), hostileValue),
      hour: fc.oneof(fc.integer({ min: -2, max: 25 }), hostileValue),
      filters, sort: sortValue, email: fc.constant('attacker@x.test'), userId: fc.constant('someone'),
    }, { requiredKeys: [] }),
    weight: 3,
  },
  hostileValue,
);

const reportKey = () => fc.oneof(
  { arbitrary: fc.constantFrom('fixture_deliveries', 'get_alerts_data'), weight: 8 },
  { arbitrary: fc.constantFrom(...Object.keys(h.registry.reports)), weight: 2 },
  fc.constantFrom('no_such_report', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%00', 'a%00b', 'ibc_inventory_outside_%7Bhost%7D', 'exports', 'a'.repeat(121), 'x'.repeat(5000)),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);
const someId = (kind: keyof typeof ids) => fc.oneof(
  { arbitrary: fc.constant(kind).map((k) => ids[k][0]), weight: 3 },
  fc.constantFrom('x1', '__proto__', '..%2F..%2Fetc%2Fpasswd', '%00', 'a%00b', '$gt', '%24ne', 'a'.repeat(101), 'a:b|c.d', '.', '..'),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom(...Object.keys(ids) as (keyof typeof ids)[]).map((k) => ids[k][0]),
);

type Req = { method: 'GET' | 'POST' | 'DELETE' | 'PUT'; url: string; payload?: string; contentType?: string };
const request = (): fc.Arbitrary<Req> => fc.oneof(
  fc.record({ key: reportKey(), route: fc.constantFrom('rows', 'count'), q: queryPairs }).map(({ key, route, q }): Req => ({ method: 'GET', url: `/api/v3/reports/${key}/${route}?${toQuery(q)}` })),
  fc.record({ key: reportKey(), route: fc.constantFrom('exports', 'saved-filters', 'schedules'), body }).map(({ key, route, body: b }): Req => ({ method: 'POST', url: `/api/v3/reports/${key}/${route}`, payload: JSON.stringify(b) })),
  fc.record({ key: reportKey(), route: fc.constantFrom('saved-filters', 'schedules'), method: fc.constantFrom('GET', 'PUT') }).map(({ key, route, method }): Req => ({ method: method as 'GET', url: `/api/v3/reports/${key}/${route}`, ...(method === 'PUT' ? { payload: '{}' } : {}) })),
  fc.record({ key: reportKey(), kind: fc.constantFrom('savedFilters', 'schedules') as fc.Arbitrary<'savedFilters' | 'schedules'> }).chain(({ key, kind }) => someId(kind).map((id): Req => ({
    method: 'DELETE', url: `/api/v3/reports/${key}/${kind === 'savedFilters' ? 'saved-filters' : 'schedules'}/${id}`,
  }))),
  fc.record({ id: someId('exports'), download: fc.boolean(), tokens: fc.array(fc.oneof(fc.constant(token), fc.constantFrom('', 'short', 'x'.repeat(43), 'x'.repeat(201)), fc.string({ maxLength: 60 })), { maxLength: 2 }), extra: fc.option(fc.tuple(filterName, hostileText), { nil: undefined }) })
    .map(({ id, download, tokens, extra }): Req => {
      const q = toQuery([...tokens.map((t): [string, string] => ['token', t]), ...(extra ? [extra] : [])]);
      return { method: 'GET', url: `/api/v3/reports/exports/${id}${download ? '/download' : ''}${q ? `?${q}` : ''}` };
    }),
  fc.constantFrom<Req>({ method: 'GET', url: '/api/v3/reports' }, { method: 'GET', url: '/api/v3/reports/exports' }, { method: 'GET', url: '/api/v3/reports?page=-1&x[$ne]=1' }),
  // Bodies that are not JSON objects, or are nested past the parser's depth limit.
  fc.record({ key: reportKey(), route: fc.constantFrom('exports', 'saved-filters', 'schedules'), raw: fc.oneof(fc.constant('{"filters": '), fc.constant('[]'), fc.constant('"x"'), fc.integer({ min: 60, max: 5000 }).map((d) => `{"filters":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`)), contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded') })
    .map(({ key, route, raw, contentType }): Req => ({ method: 'POST', url: `/api/v3/reports/${key}/${route}`, payload: raw, contentType })),
);

// The wire server answers each of the snapshot's hundred finds slower than SQLite: fewer runs keep both under a minute.
const RUNS = process.env.MONGODB_URI ? 1_200 : 3_500;

describe('bad and hostile requests across the report routes', () => {
  it(`never get a 5xx, answer every 4xx in the error shape, and never change the store when refused (${RUNS} requests)`, async () => {
    let before = await snapshot();
    const statuses = new Map<number, number>();
    await fc.assert(fc.asyncProperty(request(), fc.constantFrom(...Object.keys(callers)), async (r, caller) => {
      const res = await h.app.inject({
        method: r.method, url: r.url, payload: r.payload,
        headers: { ...callers[caller], ...(r.payload !== undefined ? { 'content-type': r.contentType ?? 'application/json' } : {}) },
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const what = `${caller} ${r.method} ${r.url.slice(0, 200)} ${String(r.payload).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
      expect(res.statusCode, what).toBeLessThan(500);
      if (res.statusCode >= 400) {
        const error = res.json().error;
        expect(error, what).toMatchObject({ code: expect.any(String), message: expect.any(String), details: expect.any(Array) });
      }
      // A queued export ends on its own thread: wait for it so the next snapshot is settled.
      if (res.statusCode === 202) await h.app.reportExports.finished(res.json().id);
      const after = await snapshot();
      if (res.statusCode >= 400) expect(after, `${what}: changed the store`).toBe(before);
      before = after;
    }), { numRuns: RUNS });
    console.log(`report fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 300_000);
});
