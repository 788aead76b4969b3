import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldAt, formOf, localize } from '../../../engine/src/index';
import { startHarness, storeTarget, type Harness } from '../testing/harness';
import { aCompany } from '../testing/records';

let h: Harness;
let admin: Record<string, string>;
let editor: Record<string, string>;
let outsider: Record<string, string>;

const label = (entity: string, path: string) => localize(fieldAt(formOf(h.registry, entity)!.fields, path)!.label);
const base = '/api/v3/masterdata';

beforeAll(async () => {
  h = await startHarness();
  admin = (await h.userWith(['superadmin'])).headers;
  editor = (await h.userWith(['Master Data'])).headers;
  outsider = (await h.userWith(['Dashboards'])).headers;
});
afterAll(async () => { await h?.close(); });

async function create(entity: string, body: unknown, headers = editor) {
  return h.app.inject({ method: 'POST', url: `${base}/${entity}`, headers, payload: body as object });
}

describe(`master-data API on the ${storeTarget().label} store`, () => {
  it('answers health with the store in use', async () => {
    const r = await h.app.inject({ url: '/api/health' });
    expect(r.json()).toEqual({ status: 'ok', store: h.store.kind });
  });

  it('answers 401 signed out, 403 without the Master Data key, 200 with it', async () => {
    expect((await h.app.inject({ url: `${base}/company` })).statusCode).toBe(401);
    const forbidden = await h.app.inject({ url: `${base}/company`, headers: outsider });
    expect(forbidden.statusCode).toBe(403);
    // Operations pointing to companies may read them too, so the refusal names every key that would do.
    expect(forbidden.json().error.code).toBe('FORBIDDEN_ANY');
    expect(forbidden.json().error.message).toContain('Master Data');
    expect((await h.app.inject({ url: `${base}/company`, headers: editor })).statusCode).toBe(200);
  });

  it('creates, reads, lists, searches and sorts a company', async () => {
    const made = await create('company', aCompany('Agroquímica Rosario', { email: 'info@agro-rosario.com.ar' }));
    expect(made.statusCode).toBe(201);
    const company = made.json();
    expect(company).toMatchObject({ company_name: 'Agroquímica Rosario', state: 1 });
    expect(typeof company.id).toBe('string');
    expect((await h.app.inject({ url: `${base}/company/${company.id}`, headers: editor })).json()).toMatchObject({ id: company.id });
    await create('company', aCompany('Distribuidora Pampa', { email: 'ventas@pampa.com.ar' }));
    const found = (await h.app.inject({ url: `${base}/company?q=ROSARIO`, headers: editor })).json();
    expect(found.total).toBe(1);
    expect(found.data[0].id).toBe(company.id);
    expect(found).toMatchObject({ page: 1, pageSize: 20 });
    const sorted = (await h.app.inject({ url: `${base}/company?sort=-company_name&pageSize=1`, headers: editor })).json();
    expect(sorted.data.map((c: { company_name: string }) => c.company_name)).toEqual(['Distribuidora Pampa']);
    expect(sorted.total).toBeGreaterThanOrEqual(2);
  });

  it('ignores a search shorter than 2 characters', async () => {
    const all = (await h.app.inject({ url: `${base}/company`, headers: editor })).json();
    expect((await h.app.inject({ url: `${base}/company?q=a`, headers: editor })).json().total).toBe(all.total);
  });

  it("refuses an invalid company with the engine's messages word for word, writing nothing", async () => {
    const before = await h.store.count('company', {});
    const r = await create('company', { company_name: '', email: 'not-an-email' });
    expect(r.statusCode).toBe(400);
    const { error } = r.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'company_name', message: `${label('company', 'company_name')} : A value is mandatory.` }),
      expect.objectContaining({ field: 'email', message: `${label('company', 'email')} : not-an-email does not match the required format` }),
    ]));
    expect(await h.store.count('company', {})).toBe(before);
  });

  it('returns the engine result unchanged from validate', async () => {
    const s = await h.app.inject({ method: 'POST', url: `${base}/company/validate`, headers: { ...editor, 'content-type': 'application/json' }, payload: '"C-1"' });
    expect(s.statusCode).toBe(200);
    expect(s.json()).toMatchObject({ success: true, isReference: true, messages: [{ severity: 'warn', message: 'The company value is a string. It will be processed as a reference.' }] });
  });

  it('refuses a company without the required fields of its enabled company info extension, on create and update', async () => {
    const before = await h.store.count('company', {});
    const bare = await create('company', { company_name: 'Solo Nombre SA' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.details).toEqual([
      expect.objectContaining({ field: 'extensions.companyInfo.cuit', message: `${label('company', 'extensions.companyInfo.cuit')} : A value is mandatory.` }),
      expect.objectContaining({ field: 'extensions.companyInfo.company_type', message: `${label('company', 'extensions.companyInfo.company_type')} : A value is mandatory.` }),
      expect.objectContaining({ field: 'extensions.companyInfo.state', code: 'FORMAT_MANDATORY' }),
    ]);
    expect(await h.store.count('company', {})).toBe(before);
    const made = (await create('company', aCompany('Con Info SA'))).json();
    const { extensions: _dropped, ...withoutInfo } = made;
    const stripped = await h.app.inject({ method: 'PUT', url: `${base}/company/${made.id}`, headers: editor, payload: withoutInfo });
    expect(stripped.statusCode).toBe(400);
    expect(stripped.json().error.details.map((d: { field: string }) => d.field)).toContain('extensions.companyInfo.company_type');
  });

  it('validate reports a number given for a text field, word for word, and stores nothing as text', async () => {
    const v = await h.app.inject({ method: 'POST', url: `${base}/company/validate`, headers: editor, payload: aCompany('x', { company_name: 12 }) });
    expect(v.json()).toMatchObject({ success: false });
    expect(v.json().messages).toEqual([expect.objectContaining({ severity: 'error', field: 'company_name', message: `${label('company', 'company_name')} : 12 must be a string, number provided` })]);
    expect((await create('company', aCompany('x', { company_name: 12 }))).statusCode).toBe(400);
  });

  it('validate succeeds exactly when create does: the same defaults, extensions and references', async () => {
    const validate = (body: object) => h.app.inject({ method: 'POST', url: `${base}/company/validate`, headers: editor, payload: body });
    // No state: create fills the default, so validate does too.
    const defaulted = aCompany('Defaulted SA');
    expect((await validate(defaulted)).json()).toMatchObject({ success: true, messages: [] });
    expect((await create('company', defaulted)).statusCode).toBe(201);
    const bare = { company_name: 'Bare SA' };
    expect((await validate(bare)).json().success).toBe(false);
    expect((await create('company', bare)).statusCode).toBe(400);
    const dangling = aCompany('Dangling SA', { parent_company_id: 'no-such-company' });
    const answer = (await validate(dangling)).json();
    expect(answer.success).toBe(false);
    expect(answer.messages).toEqual([expect.objectContaining({ field: 'parent_company_id', code: 'FORMAT_REFERENCE_NOT_FOUND' })]);
    expect((await create('company', dangling)).statusCode).toBe(400);
  });

  it('answers 404 for an unknown entity and an unknown id', async () => {
    const e = await h.app.inject({ url: `${base}/spaceship`, headers: editor });
    expect(e.statusCode).toBe(404);
    expect(e.json().error).toMatchObject({ code: 'UNKNOWN_ENTITY', message: 'There is no entity named spaceship' });
    expect((await h.app.inject({ url: `${base}/company/nope`, headers: editor })).json().error.code).toBe('RECORD_NOT_FOUND');
  });

  it('answers 409 naming the duplicate unique field, and exactly one of two concurrent creates wins', async () => {
    const body = { category_name: `Herbicides ${Date.now()}` };
    const [a, b] = await Promise.all([create('material_category', body), create('material_category', body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().error.details[0].field).toBe('category_name');
    expect(loser.json().error.message).toContain(label('material_category', 'category_name'));
  });

  it('refuses a reference to a record that does not exist, and accepts an existing one', async () => {
    const bad = await create('plant', { name: 'Planta Norte', company: 'missing-company' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toMatchObject({ field: 'company', code: 'FORMAT_REFERENCE_NOT_FOUND' });
    const company = (await create('company', aCompany('Owner SA'))).json();
    const ok = await create('plant', { name: 'Planta Norte', company: company.id });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().company).toBe(company.id);
  });

  it('updates a record and refuses a change to a field not editable after creation', async () => {
    const made = (await create('company', { company_name: 'Cuit SA', extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } } })).json();
    expect(made.extensions.companyInfo.cuit).toBe('30-71234567-1');
    const renamed = await h.app.inject({ method: 'PUT', url: `${base}/company/${made.id}`, headers: editor, payload: { ...made, company_name: 'Cuit SRL' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ company_name: 'Cuit SRL', createdAt: made.createdAt });
    const changed = await h.app.inject({ method: 'PUT', url: `${base}/company/${made.id}`, headers: editor, payload: { ...made, extensions: { companyInfo: { ...made.extensions.companyInfo, cuit: '30-99999999-9' } } } });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error.details[0]).toMatchObject({ field: 'extensions.companyInfo.cuit', message: `${label('company', 'extensions.companyInfo.cuit')} : cannot be changed after creation` });
  });

  it('disables on delete, and deletes for good only for an admin', async () => {
    const made = (await create('country', { country_name: 'Uruguay', sap_country_description: `UY-${Date.now()}`, state: 1 })).json();
    const off = await h.app.inject({ method: 'DELETE', url: `${base}/country/${made.id}`, headers: editor });
    expect(off.json().state).toBe(3);
    const disabled = (await h.app.inject({ url: `${base}/country?state=3`, headers: editor })).json();
    expect(disabled.data.map((c: { id: string }) => c.id)).toContain(made.id);
    expect((await h.app.inject({ method: 'DELETE', url: `${base}/country/${made.id}?hard=true`, headers: editor })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'DELETE', url: `${base}/country/${made.id}?hard=true`, headers: admin })).statusCode).toBe(200);
    expect((await h.app.inject({ url: `${base}/country/${made.id}`, headers: editor })).statusCode).toBe(404);
  });

  it('never lets a password hash in or out through the master-data API', async () => {
    const users = (await h.app.inject({ url: `${base}/user`, headers: admin })).json();
    expect(users.total).toBeGreaterThan(0);
    expect(JSON.stringify(users)).not.toContain('password_hash');
    expect(JSON.stringify(users)).not.toContain('scrypt$');
    const made = await create('user', { email: 'new.user@test.local', display_name: 'New User', state: 1, password_hash: 'scrypt$1$1$1$x$y' }, admin);
    expect(made.statusCode).toBe(201);
    expect((await h.store.get('user', made.json().id))?.password_hash).toBeUndefined();
  });

  it('answers 413 for a body too large, 415 for another content type, 400 for broken JSON', async () => {
    const big = await create('company', { company_name: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('BODY_TOO_LARGE');
    const text = await h.app.inject({ method: 'POST', url: `${base}/company`, headers: { ...editor, 'content-type': 'text/plain' }, payload: 'company_name=x' });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await h.app.inject({ method: 'POST', url: `${base}/company`, headers: { ...editor, 'content-type': 'application/json' }, payload: '{"company_name": ' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('INVALID_JSON');
  });

  it('refuses NoSQL operators in bodies and query strings', async () => {
    const body = await create('company', { company_name: { $gt: '' } });
    expect(body.statusCode).toBe(400);
    expect(body.json().error.details[0].message).toContain('must be a string, object provided');
    const sort = await h.app.inject({ url: `${base}/company?sort=$where`, headers: editor });
    expect(sort.statusCode).toBe(400);
    const op = await h.app.inject({ url: `${base}/company?q[$gt]=&state[$ne]=1`, headers: editor });
    expect(op.statusCode).toBeLessThan(500);
    const ref = await create('plant', { name: 'P', company: { $ne: null } });
    expect(ref.statusCode).toBe(400);
  });
});
