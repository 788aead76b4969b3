import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it("holds every entity's routes with the entity's own body schema, generated from the definitions", async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    for (const name of Object.keys(h.registry.entities)) {
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
});
