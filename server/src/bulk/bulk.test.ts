import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../engine/src/index';
import { realRegistry, startHarness, type Harness } from '../testing/harness';

/** The bulk mobile key listing verifyTruckMapping (access keys' `operations`, issue 16). */
function registryWithMobileKey(): Registry {
  const reg = realRegistry();
  const key = { key: 'bulk.mobile.delivery', label: { en: 'x', es: 'x', fr: 'x' }, customerModule: true, operations: ['fetchBulkDeliveries', 'verifyTruckMapping'] };
  return { ...reg, access: { ...reg.access, keys: [...reg.access.keys, key] as never } };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ registry: registryWithMobileKey() });
  // The truck and ISO tank registers (defs16's truck and iso_tank entities), read through the store by key field.
  await h.store.ensureCollection({ name: 'truck', uniqueKeys: [['truckNo']], indexes: ['state'] });
  await h.store.ensureCollection({ name: 'iso_tank', uniqueKeys: [['isoTankLicense']], indexes: ['state'] });
  await h.store.insertMany('truck', [{ truckNo: 'TR-1', plate: 'AB 123 CD', state: 1 }, { truckNo: 'TR-OLD', state: 3 }]);
  await h.store.insertMany('iso_tank', [{ isoTankLicense: 'ISO-9', capacity: 24000, state: 1 }]);
});
afterAll(async () => { await h?.close(); });

describe('POST /api/v3/bulk/verify-truck', () => {
  const verify = async (body: unknown, access = ['Bulk Deliveries']) =>
    h.app.inject({ method: 'POST', url: '/api/v3/bulk/verify-truck', payload: body as object, headers: (await h.userWith(access)).headers });

  it('answers the registered truck and tank, for Bulk Deliveries and for a key listing verifyTruckMapping', async () => {
    for (const access of [['Bulk Deliveries'], ['bulk.mobile.delivery']]) {
      const r = await verify({ truckNo: 'TR-1', isoTankLicense: 'ISO-9' }, access);
      expect(r.statusCode, access[0]).toBe(200);
      expect(r.json()).toMatchObject({ truck: { truckNo: 'TR-1', plate: 'AB 123 CD' }, isoTank: { isoTankLicense: 'ISO-9', capacity: 24000 } });
    }
  });

  it('refuses 400 NOT_REGISTERED naming the first value not registered or not active', async () => {
    for (const [body, named] of [
      [{ truckNo: 'TR-404', isoTankLicense: 'ISO-404' }, 'TR-404'],
      [{ truckNo: 'TR-OLD', isoTankLicense: 'ISO-9' }, 'TR-OLD'],
      [{ truckNo: 'TR-1', isoTankLicense: 'ISO-404' }, 'ISO-404'],
    ] as const) {
      const r = await verify(body);
      expect(r.statusCode, named).toBe(400);
      expect(r.json().error.code).toBe('NOT_REGISTERED');
      expect(r.json().error.message).toContain(named);
    }
  });

  it('refuses a body without both values (400) and other keys (403)', async () => {
    for (const body of [{ truckNo: 'TR-1' }, { truckNo: '', isoTankLicense: 'ISO-9' }, { truckNo: 7, isoTankLicense: ['x'] }, [1, 2]]) expect((await verify(body)).statusCode, JSON.stringify(body)).toBe(400);
    expect((await verify({ truckNo: 'TR-1', isoTankLicense: 'ISO-9' }, ['ibcTraceability'])).statusCode).toBe(403);
  });
});
