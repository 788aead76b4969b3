import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { SYSTEM_COLLECTIONS } from '../boot';
import { storeDigest } from '../testing/storeDigest';

let h: Harness;
let headers: Record<string, string>;
let seededIds: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  headers = (await h.userWith(['superadmin'])).headers;
  const company = await h.store.insert('company', { company_name: 'Seed SA', state: 1 });
  const material = await h.store.insert('material', { name: 'Seed material', state: 1 });
  seededIds = [company.id, material.id];
});
afterAll(async () => { await h?.close(); });

/** A digest of every collection, to prove a rejected request changed nothing. */
const snapshot = () => storeDigest(h.store, [...Object.keys(h.registry.entities), ...SYSTEM_COLLECTIONS.map((c) => c.name)]);

const operatorObject = fc.dictionary(fc.constantFrom('$gt', '$ne', '$where', '$regex', '$expr', '$function', '__proto__', 'constructor', '$in'), fc.oneof(fc.string(), fc.constant(''), fc.constant(null), fc.array(fc.string())), { minKeys: 1 });
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  operatorObject,
  fc.string({ maxLength: 5 }).map((s) => s.repeat(20_000)),
  fc.integer({ min: 50, max: 3000 }).map((d) => JSON.parse('['.repeat(d) + ']'.repeat(d))),
  fc.constantFrom(NaN, Infinity, -0, 1e308, '1e999', '', ' ', '\u0000', '😀', '<script>alert(1)</script>', "'; DROP TABLE company; --"),
  // Issue 13: NUL bytes inside text, a 900 KB string, a list of 100,000 entries.
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}\u0000${b}`),
  { arbitrary: fc.constant('x'.repeat(900_000)), weight: 1 },
  { arbitrary: fc.constant(Array.from({ length: 100_000 }, (_, i) => String(i))), weight: 1 },
);
const entityName = () => fc.oneof(
  { arbitrary: fc.constantFrom(...Object.keys(h.registry.entities)), weight: 6 },
  fc.constantFrom('__proto__', 'constructor', 'prototype', '..%2f..%2fetc', '%00', 'session', 'sqlite_master', 'company%24', 'a'.repeat(300)),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);
const plausible = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom(1, 3, '1', true, ['a', 'b'], 'x@y.com'));
const recordBody = () => fc.oneof(
  hostileValue,
  fc.constant({}),
  fc.dictionary(fc.constantFrom('company_name', 'name', 'email', 'state', 'extensions', 'id', 'createdAt', 'company', 'phone_number', 'address', 'password_hash', '$set', 'a.b'), hostileValue),
  { arbitrary: fc.dictionary(fc.constantFrom('company_name', 'name', 'category_name', 'unit_name', 'country_name', 'package_name', 'email', 'state', 'phone_number', 'sap_unit_name'), fc.oneof(plausible, hostileValue), { minKeys: 1 }), weight: 3 },
);
const query = fc.dictionary(
  fc.constantFrom('q', 'page', 'pageSize', 'sort', 'state', 'hard', 'q[$gt]', 'state[$ne]', '__proto__', 'sort[]'),
  fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom('-1', '0', '999999999999', '1.5', 'true', '$where', '-id', 'company_name,-id', 'state', '{"$gt":""}', 'a\u0000b', '00\u0000', '\u0000')),
);

describe('bad and hostile requests across the master-data routes', () => {
  it('never get a 5xx and never change the store when rejected (5,000 requests)', async () => {
    let before = await snapshot();
    const statuses = new Map<number, number>();
    await fc.assert(fc.asyncProperty(
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'DELETE'),
        entity: entityName(),
        id: fc.option(fc.oneof(fc.constantFrom(...seededIds), fc.string({ maxLength: 120 }).map(encodeURIComponent), fc.constantFrom('validate', 'export.csv', '$gt', '%24ne', 'a%00b')), { nil: undefined }),
        // A body nested past the depth limit, sent as text (10,000 levels overflowed the stack).
        deep: fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, { arbitrary: fc.integer({ min: 60, max: 10_000 }), weight: 1 }),
        // Some POSTs go to the upload route instead, multipart without a boundary among them.
        files: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
        query,
        body: recordBody(),
        contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/json; charset=latin1'),
        signedIn: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, { arbitrary: fc.constant(false), weight: 1 }),
      }),
      async (r) => {
        const qs = new URLSearchParams(r.query as Record<string, string>).toString();
        const url = r.files && r.method === 'POST' ? '/api/files' : `/api/v3/masterdata/${r.entity}${r.id !== undefined ? `/${r.id}` : ''}${qs ? `?${qs}` : ''}`;
        let payload: string | undefined;
        try {
          payload = r.method === 'GET' || r.method === 'DELETE' ? undefined : r.deep !== undefined ? `{"name":${'['.repeat(r.deep)}${']'.repeat(r.deep)}}` : JSON.stringify(r.body);
        } catch {
          payload = '{"broken": ';
        }
        const res = await h.app.inject({
          method: r.method as 'GET', url, payload,
          headers: { ...(r.signedIn ? headers : {}), ...(payload !== undefined ? { 'content-type': r.contentType } : {}) },
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${r.method} ${url.slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json().error.code).toBeTypeOf('string');
        const after = await snapshot();
        if (res.statusCode >= 400) expect(after, `${r.method} ${url.slice(0, 200)} changed the store`).toBe(before);
        before = after;
      },
    ), { numRuns: 5_000 });
    console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 300_000);
});

describe('bad and hostile requests across the operation and stock routes', () => {
  it('never get a 5xx and never change the store when rejected (1,500 requests)', async () => {
    const [material] = seededIds.slice(1);
    const draft = await h.store.insert('delivery', {
      shipmentID: 'FUZZ-1', deliveryStatus: 'Draft', history: [], productData: [{ material, batchId: 'L1', amount: 5, uom: 'kg' }],
    });
    const workflows = Object.keys(h.registry.workflows);
    let before = await snapshot();
    await fc.assert(fc.asyncProperty(
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT'),
        base: fc.oneof(
          { arbitrary: fc.constantFrom(...workflows).map((w) => `/api/v3/operations/${w}`), weight: 6 },
          fc.constantFrom('/api/v3/operations/__proto__', '/api/v3/operations/%00', '/api/v3/stock', '/api/v3/stock/batches', '/api/v3/stock/movements'),
        ),
        id: fc.option(fc.oneof(fc.constant(draft.id), fc.string({ maxLength: 60 }).map(encodeURIComponent), fc.constantFrom('$gt', 'a%00b')), { nil: undefined }),
        transition: fc.option(fc.constantFrom('confirm', 'acceptAll', 'partialReject', 'totalReject', 'cancel', '__proto__', 'x'), { nil: undefined }),
        query: fc.dictionary(
          fc.constantFrom('state', 'from', 'to', 'deposit', 'depositField', 'q', 'sync', 'page', 'pageSize', 'sort', 'material', 'batch', 'at', 'state[$ne]'),
          fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('2025-01-01', '2025-13-45', '-1', '0', 'pending', 'deposit', '-sendDate', '$where', '\u0000')),
        ),
        body: fc.oneof(recordBody(), fc.record({ comment: fc.oneof(fc.string(), hostileValue), fields: fc.oneof(hostileValue, fc.constant({ productData: [{ rejected: -1 }] })) })),
      }),
      async (r) => {
        const qs = new URLSearchParams(r.query as Record<string, string>).toString();
        const path = `${r.base}${r.id !== undefined ? `/${r.id}` : ''}${r.id !== undefined && r.transition ? `/transitions/${r.transition}` : ''}`;
        const url = `${path}${qs ? `?${qs}` : ''}`;
        let payload: string | undefined;
        try { payload = r.method === 'GET' ? undefined : JSON.stringify(r.body); } catch { payload = '{"broken": '; }
        const res = await h.app.inject({ method: r.method as 'GET', url, payload, headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) } });
        expect(res.statusCode, `${r.method} ${url.slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        const after = await snapshot();
        if (res.statusCode >= 400) expect(after, `${r.method} ${url.slice(0, 200)} changed the store`).toBe(before);
        before = after;
      },
    ), { numRuns: 1_500 });
  }, 300_000);
});
