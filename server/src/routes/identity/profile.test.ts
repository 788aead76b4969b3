import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapWarehouseGroups } from '../../../../engine/src/index';
import { startHarness, type Harness } from '../../testing/harness';
import { startIdentityApp, withSignIn, type IdentityApp } from './testing';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

describe('GET/PUT /api/auth/profile', () => {
  it('answers the user-profile template with the deployment\'s default language when the user has none', async () => {
    const { headers } = await h.userWith([], { display_name: 'Ana Ruiz', email: 'ana.ruiz@example.com', photo: null });
    const r = await h.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ detail: { primary_fields: { language: 'en' }, notification_channel: 'local', display_name: 'Ana Ruiz', email: 'ana.ruiz@example.com', photo: null } });
  });

  it('stores language and notification channel, and nothing else the body carries', async () => {
    const { id, headers } = await h.userWith([], { display_name: 'Luis', email: 'luis@example.com' });
    const put = await h.app.inject({
      method: 'PUT', url: '/api/auth/profile', headers,
      payload: { primary_fields: { language: 'es' }, notification_channel: 'email', display_name: 'Hacker', email: 'root@example.com', access: ['superadmin'] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().detail).toMatchObject({ primary_fields: { language: 'es' }, notification_channel: 'email', display_name: 'Luis', email: 'luis@example.com' });
    const stored = (await h.store.get('user', id))!;
    expect([stored.language, stored.notification_channel, stored.display_name, stored.email, stored.access]).toEqual(['es', 'email', 'Luis', 'luis@example.com', []]);
    const again = await h.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
    expect(again.json().detail.primary_fields.language).toBe('es');
  });

  it('refuses values the template does not allow, with the engine\'s messages', async () => {
    const { headers } = await h.userWith([]);
    const bad = async (payload: unknown) => (await h.app.inject({ method: 'PUT', url: '/api/auth/profile', headers, payload: payload as object })).json();
    const noLanguage = await bad({ primary_fields: {}, notification_channel: 'local' });
    expect(noLanguage.error.code).toBe('VALIDATION_FAILED');
    expect(noLanguage.error.details).toEqual([{ field: 'primary_fields.language', message: 'Language : A value is mandatory.', code: 'FORMAT_MANDATORY' }]);
    const french = await bad({ primary_fields: { language: 'fr' }, notification_channel: 'local' });
    expect(french.error.details[0]).toMatchObject({ field: 'primary_fields.language', code: 'FORMAT_OPTION' });
    const channel = await bad({ primary_fields: { language: 'en' }, notification_channel: 'pigeon' });
    expect(channel.error.details[0]).toMatchObject({ field: 'notification_channel', code: 'FORMAT_OPTION' });
    const injected = await bad({ primary_fields: { language: 'en', $where: 'x' }, notification_channel: 'local' });
    expect(injected.error.details[0]).toMatchObject({ code: 'FORMAT_UNKNOWN_FIELD' });
    const notObject = await h.app.inject({ method: 'PUT', url: '/api/auth/profile', headers: { ...headers, 'content-type': 'application/json' }, payload: '[]' });
    expect(notObject.statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/profile' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PUT', url: '/api/auth/profile', payload: {} })).statusCode).toBe(401);
  });
});

describe('GET /api/customer/groups', () => {
  it('answers the user\'s groups with the company divisions they hold, which the engine maps (empty groups dropped)', async () => {
    const company = await h.store.insert('company', { company_name: 'Agro SA', state: 1 });
    const division = (name: string, extra: Record<string, unknown> = {}) => h.store.insert('company_division', {
      division_name: name, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: `ERP-${name}`, company_id: company.id, country: 'AR', state: 1, ...extra,
    });
    const plant = await division('Planta Norte', { division_type: 'plant', senasa_id_type: 'plantID' });
    const d1 = await division('Depósito Rosario', { senasa_division_id: 'SEN-1', deposit_plant_id: plant.id });
    const d2 = await division('Depósito Funes');
    const off = await division('Depósito Cerrado', { state: 3 });
    const g1 = await h.store.insert('group', { name: 'Rosario Hub', description: 'Zona Rosario', access: ['Imports'], warehouses: [d1.id, d2.id, off.id], state: 1 });
    const g2 = await h.store.insert('group', { name: 'Empty Hub', access: ['Reports'], warehouses: [], state: 1 });
    const g3 = await h.store.insert('group', { name: 'Disabled Hub', access: ['Reports'], warehouses: [d1.id], state: 3 });
    await h.store.insert('group', { name: 'Not mine', access: ['Reports'], warehouses: [d2.id], state: 1 });
    const { headers } = await h.userWith(['Imports'], { groups: [g1.id, g2.id, g3.id] });

    const r = await h.app.inject({ method: 'GET', url: '/api/customer/groups', headers });
    expect(r.statusCode).toBe(200);
    const { wareHouses } = r.json().data;
    expect(wareHouses).toEqual([
      { name: 'Empty Hub', description: '', warehouseList: [] },
      {
        name: 'Rosario Hub', description: 'Zona Rosario', warehouseList: [
          { depositId: 'SEN-1', id: d1.id, divisionName: 'Depósito Rosario', erpId: 'ERP-Depósito Rosario', companyId: company.id, depositPlantId: plant.id },
          { depositId: d2.id, id: d2.id, divisionName: 'Depósito Funes', erpId: 'ERP-Depósito Funes', companyId: company.id },
        ],
      },
    ]);
    const mapped = mapWarehouseGroups(wareHouses);
    expect(mapped.map((g) => g.name)).toEqual(['Rosario Hub']);
    expect(mapped[0].warehouseList[0]).toEqual({ id: 'SEN-1', optchainId: d1.id, name: 'Depósito Rosario', label: 'Depósito Rosario (ERP-Depósito Rosario)', plantId: plant.id, companyId: company.id, erpId: 'ERP-Depósito Rosario' });

    const admin = await h.userWith(['superadmin']);
    const all = (await h.app.inject({ method: 'GET', url: '/api/customer/groups', headers: admin.headers })).json().data.wareHouses;
    expect(all.map((g: { name: string }) => g.name)).toEqual(['Empty Hub', 'Not mine', 'Rosario Hub']);

    const none = await h.userWith(['Dashboards']);
    expect((await h.app.inject({ method: 'GET', url: '/api/customer/groups', headers: none.headers })).json()).toEqual({ data: { wareHouses: [] } });
    expect((await h.app.inject({ method: 'GET', url: '/api/customer/groups' })).statusCode).toBe(401);
  });
});

describe('GET /api/public/checkOrganizationAccountStatus', () => {
  let t: IdentityApp;
  beforeAll(async () => { t = await startIdentityApp(); });
  afterAll(async () => { await t.close(); });
  const status = (app: IdentityApp, query = '', headers: Record<string, string> = {}) => app.app.inject({ method: 'GET', url: `/api/public/checkOrganizationAccountStatus${query}`, headers });

  it('answers from the caller\'s organisation (token) or ?email=, through the whole expiry day (UTC)', async () => {
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const org = await t.store.insert('organisation', { name: 'Expiring', account_expiry: today, state: 1 });
    const u = await t.user({ organisation: org.id });
    const { token } = (await t.signIn(String(u.email))).json();
    const signedIn = { authorization: `Bearer ${token}` };
    expect((await status(t)).json()).toEqual({ data: { accountExpired: false } });
    expect((await status(t, '', signedIn)).json()).toEqual({ data: { accountExpired: false } });
    expect((await status(t, `?email=${encodeURIComponent(String(u.email))}`)).json()).toEqual({ data: { accountExpired: false } });
    const yesterday = new Date(t.clock.now() - 86_400_000).toISOString().slice(0, 10);
    await t.store.patch('organisation', org.id, { account_expiry: yesterday });
    expect((await status(t, '', signedIn)).json()).toEqual({ data: { accountExpired: true } });
    await t.store.patch('organisation', org.id, { account_expiry: today });
    t.clock.advance(86_400_000);
    expect((await status(t, `?email=${encodeURIComponent(String(u.email))}`)).json()).toEqual({ data: { accountExpired: true } });
    expect((await status(t, '?email=nobody@example.com')).json()).toEqual({ data: { accountExpired: false } });
    // Operator-looking keys are not fields of this query (dropped); a repeated e-mail is not a string (400).
    expect((await status(t, '?email[$gt]=')).json()).toEqual({ data: { accountExpired: false } });
    expect((await status(t, `?email=${encodeURIComponent(String(u.email))}&email=x@y.z`)).statusCode).toBe(400);
  });

  it('answers from the deployment-wide date for everyone', async () => {
    const expired = await startIdentityApp({ registry: withSignIn(t.registry, { accountExpiry: '2020-12-31' }) });
    try {
      expect((await status(expired)).json()).toEqual({ data: { accountExpired: true } });
      const u = await expired.user();
      expect((await expired.signIn(String(u.email))).json().error.message).toBe('Your account has expired. Please contact your admin for further support.');
    } finally {
      await expired.close();
    }
  });
});
