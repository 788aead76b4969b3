/**
 * Hostile requests across the EPCIS routes (the API fuzz tests' way, server/src/api/fuzz.test.ts):
 * query strings with unknown names, operators, NUL bytes, huge or malformed values; capture
 * bodies that are GS1's examples with a field replaced by something hostile, or no document at
 * all. None gets a 5xx; a refused one changes nothing.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { EPCIS_COLLECTIONS } from './model';
import { MATCHES, QUERY_PARAMETERS } from './params';
import { gs1Examples } from './testing/examples';

let h: Harness;
let headers: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  headers = (await h.userWith(['superadmin'])).headers;
  for (const { doc } of gs1Examples()) await h.app.inject({ method: 'POST', url: '/api/epcis/capture', headers, payload: doc });
});
afterAll(async () => { await h?.close(); });

async function snapshot(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of [...EPCIS_COLLECTIONS.map((c) => c.name), 'object_events', 'transformation_events']) hash.update(name).update(JSON.stringify(await h.store.find(name, { sort: { id: 1 } })));
  return hash.digest('hex');
}

const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom('$gt', '$ne', '$where', '$regex', '__proto__', 'constructor'), fc.oneof(fc.string(), fc.constant(null)), { minKeys: 1 }),
  fc.constantFrom(NaN, Infinity, -0, 1e308, '', ' ', '\u0000', 'a\u0000b', '😀', 'urn:epc:id:sgtin:0614141.107346.2017', 'shipping', 'urn:epcglobal:cbv:bizstep:flying', '2025-02-30T25:00:00Z'),
  fc.string({ maxLength: 5 }).map((s) => s.repeat(5_000)),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('ObjectEvent|AggregationEvent', 'shipping', 'urn:epc:id:sgtin:0614141.107346.2017', 'https://id.gs1.org/01/10614141073464/21/2018', '2005-04-03T20:33:31.116-06:00',
    'yesterday', '-1', '0', '1', '1000', '1001', 'true', 'maybe', '{"$gt":""}', '$where', '|||', 'a\u0000b', 'x'.repeat(3_000), '%', 'urn:epc:idpat:sgtin:4012345.066666.*'),
);
const names = fc.oneof({ arbitrary: fc.constantFrom(...QUERY_PARAMETERS, ...Object.keys(MATCHES)), weight: 8 }, fc.constantFrom('EQ_bizStep[$ne]', '__proto__', 'orderBy', 'eventCountLimit', 'perPage[]', ''));

describe('bad and hostile requests across the EPCIS routes', () => {
  it('never get a 5xx and never change the store when refused (1,200 requests)', async () => {
    const examples = gs1Examples().map((e) => e.doc);
    let before = await snapshot();
    const statuses = new Map<number, number>();
    await fc.assert(fc.asyncProperty(
      fc.record({
        // Mostly what the routes take, sometimes a method or path they do not.
        route: fc.oneof(
          { arbitrary: fc.constantFrom(['GET', '/api/epcis/events'], ['GET', '/api/epcis/events'], ['POST', '/api/epcis/capture'], ['POST', '/api/epcis/capture'], ['GET', '/api/epcis/capture'], ['OPTIONS', '/api/epcis/events'], ['OPTIONS', '/api/epcis/capture']), weight: 8 },
          fc.tuple(fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT', 'DELETE'), fc.string({ maxLength: 30 }).map((s) => `/api/epcis/capture/${encodeURIComponent(s) || 'x'}`)),
          fc.tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH'), fc.constantFrom('/api/epcis/events', '/api/epcis/capture')),
        ),
        query: fc.dictionary(names, queryValue, { maxKeys: 4 }),
        example: fc.nat(examples.length - 1),
        // A field of the example's first event (or of the document) replaced by a hostile value.
        where: fc.constantFrom('bizStep', 'disposition', 'eventTime', 'epcList', 'quantityList', 'type', 'action', 'eventID', 'errorDeclaration', 'readPoint', 'example:myField', '@context', 'document.type', 'document.epcisBody', 'none'),
        value: hostile,
        whole: fc.option(hostile, { freq: 4, nil: undefined }),
        contentType: fc.constantFrom('application/json', 'application/json', 'application/ld+json', 'text/plain', 'application/xml'),
        behaviour: fc.option(fc.constantFrom('rollback', 'proceed', 'maybe', ''), { nil: undefined }),
      }),
      async (r) => {
        const [method, path] = r.route;
        const qs = new URLSearchParams(r.query as Record<string, string>).toString();
        const url = `${path}${qs ? `?${qs}` : ''}`;
        const doc = structuredClone(examples[r.example]);
        if (r.where.startsWith('document.')) doc[r.where.slice(9)] = r.value;
        else if (r.where !== 'none') doc.epcisBody.eventList[0][r.where] = r.value;
        let payload: string | undefined;
        try { payload = method === 'GET' || method === 'OPTIONS' ? undefined : JSON.stringify(r.whole !== undefined ? r.whole : doc); } catch { payload = '{"broken": '; }
        const res = await h.app.inject({
          method: method as 'GET', url, payload,
          headers: { ...headers, ...(payload !== undefined ? { 'content-type': r.contentType } : {}), ...(r.behaviour !== undefined ? { 'gs1-capture-error-behaviour': r.behaviour } : {}) },
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${method} ${url.slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.json().error.code).toBeTypeOf('string');
        const after = await snapshot();
        if (res.statusCode >= 400) expect(after, `${method} ${url.slice(0, 200)} changed the store`).toBe(before);
        before = after;
      },
    ), { numRuns: 1_200 });
    console.log(`epcis fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 300_000);
});
