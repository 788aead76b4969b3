import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { aCompany } from '../testing/records';

/** Issue 13 item 3: each reproducer a hostile tester sent gets a 4xx and changes nothing. */
let h: Harness;
let headers: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  headers = (await h.userWith(['superadmin'])).headers;
  await h.store.insert('plant', { name: 'Seed plant 00', company: 'x', state: 1 });
});
afterAll(async () => { await h?.close(); });

const count = (entity: string) => h.store.count(entity, {});
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('bad input never gets a 5xx', () => {
  it('a multipart upload without a boundary is a 400, as on /api/imports', async () => {
    const res = await h.app.inject({
      method: 'POST', url: '/api/files', payload: 'x',
      headers: { ...headers, 'content-type': 'multipart/form-data' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('BAD_MULTIPART');
    const imports = await h.app.inject({
      method: 'POST', url: '/api/imports', payload: 'x',
      headers: { ...headers, 'content-type': 'multipart/form-data' },
    });
    expect(imports.statusCode, imports.body).toBe(400);
    expect(imports.json().error.code).toBe('BAD_MULTIPART');
  });

  it('a NUL byte in q is a 400 naming the parameter, in a list and before an export sends a byte', async () => {
    const list = await h.app.inject({ url: '/api/v3/masterdata/company?q=a%00b', headers });
    expect(list.statusCode, list.body).toBe(400);
    expect(list.json().error).toMatchObject({ code: 'NUL_CHARACTER', params: { where: 'querystring.q' } });
    const csv = await h.app.inject({ url: '/api/v3/masterdata/plant/export.csv?q=00%00', headers });
    expect(csv.statusCode, csv.body).toBe(400);
    expect(csv.headers['content-type']).toContain('application/json');
    expect(csv.json().error.code).toBe('NUL_CHARACTER');
  });

  it('a NUL byte in a body string or a path parameter is a 400 and stores nothing', async () => {
    const before = await count('company');
    const body = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/company', headers, payload: { company_name: 'A\u0000B', state: 1 } });
    expect(body.statusCode, body.body).toBe(400);
    expect(body.json().error).toMatchObject({ code: 'NUL_CHARACTER', params: { where: 'body.company_name' } });
    const param = await h.app.inject({ url: '/api/v3/masterdata/company/ab%00cd', headers });
    expect(param.statusCode, param.body).toBe(400);
    expect(await count('company')).toBe(before);
  });

  it('JSON nested deeper than 64 is a 400 on every JSON route, 10,000 deep included', async () => {
    for (const [url, depth] of [['/api/v3/masterdata/company', 10_000], ['/api/v3/masterdata/company', 65], ['/api/auth/sign-in', 10_000], ['/api/v3/masterdata/material/validate', 100]] as const) {
      const res = await h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: `{"company_name":${nested(depth)}}` });
      expect(res.statusCode, `${url} ${depth}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'JSON_TOO_DEEP', params: { limit: 64 } });
    }
    // Brackets inside strings are text, not nesting.
    const text = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/company', headers, payload: aCompany(`Deep ${'[{'.repeat(100)}`, { state: 1 }) });
    expect(text.statusCode, text.body).toBe(201);
  });

  it('a string longer than its field allows (1,000 by default) is refused with the field message', async () => {
    const before = await count('company');
    const res = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/company', headers, payload: { company_name: 'x'.repeat(900_000), state: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ field: 'company_name', code: 'FORMAT_TOO_LONG' });
    expect(res.json().error.details[0].message).toBe('Company name : must have at most 1000 characters');
    expect(await count('company')).toBe(before);
  });

  it('a multiple list longer than its field allows (1,000 by default) is refused with the field message', async () => {
    const before = await count('company');
    const res = await h.app.inject({
      method: 'POST', url: '/api/v3/masterdata/company', headers,
      payload: { company_name: 'Many phones', state: 1, phone_number: Array.from({ length: 100_000 }, (_, i) => String(i)) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ field: 'phone_number', code: 'FORMAT_TOO_MANY' });
    expect(res.json().error.details[0].message).toBe('Phone numbers : must have at most 1000 entries');
    expect(await count('company')).toBe(before);
  });

  for (const entity of ['country', 'units_of_measurement', 'material_package', 'audit']) {
    it(`{} creates no ${entity}`, async () => {
      const before = await count(entity);
      const res = await h.app.inject({ method: 'POST', url: `/api/v3/masterdata/${entity}`, headers, payload: {} });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details[0].code).toBe('FORMAT_EMPTY_RECORD');
      expect(await count(entity)).toBe(before);
    });
  }
});

describe('requests Node cannot read', () => {
  it('headers larger than the server accepts are a 431 with the API error body', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/api/health`, { headers: { 'x-big': 'x'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('HEADERS_TOO_LARGE');
  });
});
