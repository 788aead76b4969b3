import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterDataEntities } from '../../../engine/src/index';
import { startHarness, type Harness } from '../testing/harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

describe('the OpenAPI document', () => {
  it('is served without sign-in and is a valid OpenAPI 3 document', async () => {
    const r = await h.app.inject({ url: '/api/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("holds every master-data entity's routes with the entity's own body schema, generated from the definitions", async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    // Operations have the operations routes instead (server/src/workflows/masterdata.test.ts).
    for (const name of masterDataEntities(h.registry).map((e) => e.name)) {
      const path = doc.paths[`/api/v3/masterdata/${name}`];
      expect(path, name).toBeDefined();
      expect(Object.keys(path).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths[`/api/v3/masterdata/${name}/{id}`]).sort()).toEqual(['delete', 'get', 'put']);
    }
    const companyBody = doc.paths['/api/v3/masterdata/company'].post.requestBody.content['application/json'].schema;
    expect(companyBody.properties.company_name.type).toBe('string');
    expect(companyBody.required).toContain('company_name');
  });

  it('serves the docs UI', async () => {
    const r = await h.app.inject({ url: '/api/docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('swagger');
  });

  it('asks no token of public routes, and a bearer token of every other', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    for (const [path, method] of [['/api/health', 'get'], ['/api/config/public', 'get'], ['/api/auth/sign-in', 'post']]) {
      expect(op(path, method)?.security, `${method} ${path}`).toEqual([]);
    }
    // Every operation the document marks public answers without a token; every other refuses.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>)) {
      for (const [method, o] of Object.entries(item)) {
        if (path.includes('{') || method !== 'get') continue;
        const r = await h.app.inject({ method: 'GET', url: path });
        if (Array.isArray(o.security) && o.security.length === 0) expect(r.statusCode, `GET ${path}`).not.toBe(401);
        else expect(r.statusCode, `GET ${path}`).toBe(401);
      }
    }
  });

  it('documents the 4xx answers of every operation with the one shared error schema', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.components.schemas.ApiError.properties.error.required).toEqual(['code', 'message', 'details']);
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>)) {
      for (const [method, o] of Object.entries(item)) {
        operations++;
        const refusals = Object.entries(o.responses).filter(([code]) => code.startsWith('4'));
        expect(refusals.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [, r] of refusals) expect(r.content?.['application/json']?.schema, `${method} ${path}`).toEqual({ $ref: '#/components/schemas/ApiError' });
        expect(Object.keys(o.responses).some((c) => c.startsWith('2')), `${method} ${path} documents its success`).toBe(true);
      }
    }
    expect(operations).toBeGreaterThan(100);
    // The error body a refused request gets is the schema's shape.
    const refused = (await h.app.inject({ url: '/api/v3/masterdata/company' })).json();
    expect(Object.keys(refused.error).sort()).toEqual(['code', 'details', 'message']);
  });

  it('answers 405 with an Allow header to a method a path does not take, and 404 where no route is', async () => {
    for (const [method, url, allow] of [['TRACE', '/api/health', 'GET, HEAD'], ['PATCH', '/api/v3/masterdata/company/abc', 'DELETE, GET, HEAD, PUT'], ['DELETE', '/api/config/public', 'GET, HEAD'], ['OPTIONS', '/api/v3/masterdata/company/validate', 'POST']] as const) {
      const r = await h.app.inject({ method: method as 'GET', url });
      expect(r.statusCode, `${method} ${url}`).toBe(405);
      expect(r.headers.allow).toBe(allow);
      expect(r.json().error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', params: { method, url, allowed: allow } });
    }
    const none = await h.app.inject({ method: 'TRACE', url: '/api/nothing-here' });
    expect(none.statusCode).toBe(404);
  });
});

