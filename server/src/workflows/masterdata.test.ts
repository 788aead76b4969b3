/**
 * Operation records change only through their workflow: the master-data routes, the CSV export
 * and the imports know no operation entity, so no write can bypass the transitions and the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';

let h: Harness;
let admin: Record<string, string>;
let operations: string[];

beforeAll(async () => {
  h = await startHarness();
  admin = (await h.userWith(['superadmin'])).headers;
  operations = Object.values(h.registry.entities).filter((e) => e.kind === 'operation').map((e) => e.name);
});
afterAll(async () => { await h?.close(); });

describe('operation entities are not master data', () => {
  it('the registry has operations to keep out', () => {
    expect(operations).toEqual(expect.arrayContaining(['delivery', 'product_import', 'product_declaration', 'scrapping']));
  });

  it('answers 404 on every master-data route of an operation, even to a superadmin, and writes nothing', async () => {
    const existing = await h.store.insert('delivery', { shipmentID: 'R-1', deliveryStatus: 'In-Progress', history: [] });
    for (const name of operations) {
      const base = `/api/v3/masterdata/${name}`;
      const requests = [
        { method: 'GET', url: base }, { method: 'GET', url: `${base}/${existing.id}` }, { method: 'GET', url: `${base}/export.csv` },
        { method: 'POST', url: base, payload: { shipmentID: 'R-2', deliveryStatus: 'Accepted' } },
        { method: 'PUT', url: `${base}/${existing.id}`, payload: { shipmentID: 'R-1', deliveryStatus: 'Accepted' } },
        { method: 'DELETE', url: `${base}/${existing.id}?hard=true` },
        { method: 'POST', url: `${base}/validate`, payload: {} },
      ] as const;
      for (const r of requests) {
        const res = await h.app.inject({ ...r, headers: admin } as never);
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
        expect(res.json().error).toMatchObject({ code: 'UNKNOWN_ENTITY', params: { entity: name } });
      }
    }
    expect(await h.store.find('delivery', {})).toEqual([existing]);
  });

  it('offers no import template or import of an operation', async () => {
    for (const name of operations) {
      expect((await h.app.inject({ method: 'GET', url: `/api/imports/templates/${name}.csv`, headers: admin })).statusCode).toBe(400);
    }
    const boundary = 'x-boundary';
    const payload = [`--${boundary}`, 'Content-Disposition: form-data; name="entity"', '', 'delivery',
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="d.csv"', 'Content-Type: text/csv', '', 'shipmentID,deliveryStatus', 'R-9,Accepted', `--${boundary}--`, ''].join('\r\n');
    const upload = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(upload.statusCode, upload.body).toBe(400);
    expect(await h.store.count('delivery', {})).toBe(1);
  });

  it('lists no master-data path of an operation in the OpenAPI document', async () => {
    const paths = Object.keys((await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths);
    for (const name of operations) expect(paths.filter((p) => p.startsWith(`/api/v3/masterdata/${name}`))).toEqual([]);
    expect(paths).toContain('/api/v3/operations/delivery');
  });
});

describe('what operation screens pick from', () => {
  it('lets whoever records an operation read the master data it points to, and nothing more', async () => {
    const clerk = (await h.userWith(['Deliveries'])).headers;
    for (const entity of ['material', 'company_division']) {
      const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/${entity}?q=ab`, headers: clerk });
      expect(res.statusCode, `${entity}: ${res.body}`).toBe(200);
    }
    const write = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/material', headers: clerk, payload: { name: 'X', uom: 'kg' } });
    expect(write.statusCode).toBe(403);
    for (const entity of ['company', 'user']) {
      const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/${entity}`, headers: clerk });
      expect(res.statusCode, entity).toBe(403);
    }
  });
});
