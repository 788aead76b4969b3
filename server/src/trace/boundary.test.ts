/**
 * The trace as a warehouse-limited user would probe it: what a lot number, a group header or a
 * hostile value tells about what lies beyond the selected group. The chain of testing/chain.ts
 * over the real HTTP API; runs on both stores (MONGODB_URI: the wire server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { startHarness, type Harness } from '../testing/harness';
import { playChain, type Chain } from './testing/chain';

type Body = Record<string, any>;
let h: Harness;
let c: Chain;
let plantUser: Record<string, string>;

const get = async (url: string, headers: Record<string, string>) => {
  const r = await h.app.inject({ url, headers });
  return { status: r.statusCode, body: r.json() as Body, text: r.body };
};

beforeAll(async () => {
  h = await startHarness();
  c = await playChain(h);
  const group = await h.store.insert('group', { name: 'Plant', access: ['Traceability Map'], warehouses: [c.deposits.plant], state: 1 });
  plantUser = { ...(await h.userWith(['Traceability Map', 'Assets'], { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'Plant' };
  // The plant imports a precursor lot numbered as the distributor's own lot of the product (D-9): two materials share the number, one at each group.
  const imp = await h.app.inject({ method: 'POST', url: '/api/v3/operations/product_import', headers: c.admin, payload: {
    importDate: '2025-03-01', importID: 'IMP-D9', deposit: c.deposits.plant, productData: [{ material: c.materials.precursor, batchId: c.distLot, quantity: 10, uom: c.units.kg }],
  } });
  expect(imp.statusCode, imp.body).toBe(201);
  const done = await h.app.inject({ method: 'POST', url: `/api/v3/operations/product_import/${imp.json().id}/transitions/confirm`, headers: c.admin, payload: {} });
  expect(done.statusCode, done.body).toBe(200);
}, 120_000);
afterAll(async () => { await h?.close(); });

describe('a lot number that names lots at two groups', () => {
  it('is ambiguous to a user who sees both', async () => {
    const r = await get(`/api/v3/trace?lot=${c.distLot}`, c.admin);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('TRACE_LOT_AMBIGUOUS');
  });

  it('is the plant\'s own lot to a plant user: traced, and the other group\'s material never named', async () => {
    for (const path of ['/api/v3/trace', '/api/v3/trace/history']) {
      const r = await get(`${path}?lot=${c.distLot}`, plantUser);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      expect(r.text).not.toContain('Glyphosate 48 SL');
      expect(r.text).not.toContain(c.materials.product);
    }
    const t = (await get(`/api/v3/trace?lot=${c.distLot}`, plantUser)).body;
    expect(t.start.nodes).toEqual([`lot:${c.materials.precursor}|${c.distLot}`]);
    expect((await get(`/api/v3/trace/history?lot=${c.distLot}`, plantUser)).body.lot).toMatchObject({ material: c.materials.precursor, materialName: 'Precursor PMIDA' });
  });

  it('naming the other group\'s material is a lot that does not exist, as for any unknown lot', async () => {
    const r = await get(`/api/v3/trace?lot=${c.distLot}&material=${c.materials.product}`, plantUser);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('TRACE_LOT_NOT_FOUND');
  });
});
