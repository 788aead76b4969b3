import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredDoc } from '../store/types';
import { startHarness, type Harness } from '../testing/harness';
import { principalFor } from './sessions';

/**
 * Issue 13, item 1: the privilege escalations a hostile tester found, tried over HTTP as a
 * `User Management` holder and as a `Group Management` holder (group admin).
 */
let h: Harness;
type Caller = { id: string; headers: Record<string, string> };
let userAdmin: Caller;
let groupAdmin: Caller;
let superadmin: Caller;
let bothAdmin: Caller;
let analyticsGroup: StoredDoc;
let userManagementGroup: StoredDoc;

beforeAll(async () => {
  h = await startHarness();
  userAdmin = await h.userWith(['User Management', 'Master Data', 'Data Import']);
  groupAdmin = await h.userWith(['Group Management']);
  bothAdmin = await h.userWith(['User Management', 'Group Management']);
  superadmin = await h.userWith(['superadmin']);
  analyticsGroup = await h.store.insert('group', { name: 'Analysts', access: ['Analytics'], warehouses: [], state: 1 });
  userManagementGroup = await h.store.insert('group', { name: 'User managers', access: ['User Management'], warehouses: [], state: 1 });
});
afterAll(async () => { await h.close(); });

const call = (caller: Caller, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  h.app.inject({ method, url, headers: caller.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const users = '/api/v3/masterdata/user';
const groups = '/api/v3/masterdata/group';
let n = 0;
const newUser = (extra: Record<string, unknown> = {}) => ({ email: `made${n++}@example.com`, display_name: 'Made Up', ...extra });

/** The stored user as a client may write it back (what GET answers, without the server's own fields). */
async function editable(id: string): Promise<Record<string, unknown>> {
  const { createdAt: _c, updatedAt: _u, createdBy: _cb, updatedBy: _ub, id: _id, ...rest } = (await call(superadmin, 'GET', `${users}/${id}`)).json();
  return rest;
}

async function effectiveAccess(id: string): Promise<string[]> {
  return [...(await principalFor(h.registry, h.store, (await h.store.get('user', id))!, 'check')).access];
}

function refused(res: { statusCode: number; json(): { error: { code: string } } }, status: number, code: string): void {
  expect([res.statusCode, res.json().error?.code]).toEqual([status, code]);
}

describe('a User Management holder', () => {
  it('cannot make themselves superadmin through their own user record', async () => {
    const res = await call(userAdmin, 'PUT', `${users}/${userAdmin.id}`, { ...(await editable(userAdmin.id)), access: ['superadmin'] });
    refused(res, 403, 'OWN_ACCESS');
    expect(await effectiveAccess(userAdmin.id)).not.toContain('superadmin');
  });

  it('cannot edit any of their own grants, but may edit the rest of their record', async () => {
    const mine = await editable(userAdmin.id);
    for (const change of [{ access: ['User Management'] }, { templates: ['masterDataAdmin'] }, { profiles: ['traceabilityMapUser'] }, { groups: [userManagementGroup.id] }]) {
      refused(await call(userAdmin, 'PUT', `${users}/${userAdmin.id}`, { ...mine, ...change }), 403, 'OWN_ACCESS');
    }
    const res = await call(userAdmin, 'PUT', `${users}/${userAdmin.id}`, { ...mine, display_name: 'Renamed Me' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('cannot create a superadmin', async () => {
    const before = await h.store.count('user', {});
    refused(await call(userAdmin, 'POST', users, newUser({ access: ['superadmin'] })), 403, 'GRANT_NOT_HELD');
    expect(await h.store.count('user', {})).toBe(before);
  });

  it('cannot grant a key, template, profile or group membership giving access they do not hold', async () => {
    for (const grant of [{ access: ['Analytics'] }, { templates: ['reportsViewer'] }, { profiles: ['traceabilityMapUser'] }, { groups: [analyticsGroup.id] }]) {
      const res = await call(userAdmin, 'POST', users, newUser(grant));
      refused(res, 403, 'GRANT_NOT_HELD');
    }
    const target = await h.userWith(['Dashboards']);
    const res = await call(userAdmin, 'PUT', `${users}/${target.id}`, { ...(await editable(target.id)), access: ['Dashboards', 'Analytics'] });
    refused(res, 403, 'GRANT_NOT_HELD');
    expect(res.json().error.message).toContain('Analytics');
    expect(await effectiveAccess(target.id)).toEqual(['Dashboards']);
  });

  it('may grant keys, templates and groups whose access they hold', async () => {
    const created = await call(userAdmin, 'POST', users, newUser({ access: ['User Management'], templates: ['masterDataAdmin'], groups: [userManagementGroup.id] }));
    expect(created.statusCode, created.body).toBe(201);
    expect((await effectiveAccess(created.json().id)).sort()).toEqual(['Data Import', 'Master Data', 'User Management']);
    // Editing a user who holds more than the editor is fine as long as those grants stay as they are.
    const rich = await h.userWith(['Analytics', 'Dashboards']);
    const res = await call(userAdmin, 'PUT', `${users}/${rich.id}`, { ...(await editable(rich.id)), display_name: 'Still Rich', access: ['Dashboards', 'Analytics', 'Master Data'] });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('cannot change a superadmin\'s e-mail, access or state, nor delete one', async () => {
    const target = await h.userWith(['superadmin']);
    const record = await editable(target.id);
    for (const change of [{ email: 'mine@example.com' }, { access: [] }, { state: 3 }]) {
      refused(await call(userAdmin, 'PUT', `${users}/${target.id}`, { ...record, ...change }), 403, 'SUPERADMIN_ONLY');
    }
    refused(await call(userAdmin, 'DELETE', `${users}/${target.id}`), 403, 'SUPERADMIN_ONLY');
    expect(await h.store.get('user', target.id)).toMatchObject({ email: record.email, access: ['superadmin'], state: 1 });
  });

  it('cannot send a superadmin a reset link, but can send one to a user they manage', async () => {
    const target = (await h.store.get('user', superadmin.id))!;
    refused(await call(userAdmin, 'POST', '/api/auth/send-link', { email: target.email }), 403, 'SUPERADMIN_ONLY');
    const plain = (await h.store.get('user', (await h.userWith([])).id))!;
    const res = await call(userAdmin, 'POST', '/api/auth/send-link', { email: plain.email });
    expect(res.statusCode, res.body).toBe(200);
    // A superadmin through a group is a superadmin too.
    const supers = await h.store.insert('group', { name: 'Supers', access: ['superadmin'], warehouses: [], state: 1 });
    const viaGroup = (await h.store.get('user', (await h.userWith([], { groups: [supers.id] })).id))!;
    refused(await call(userAdmin, 'POST', '/api/auth/send-link', { email: viaGroup.email }), 403, 'SUPERADMIN_ONLY');
  });

  it('gets 400 for keys, templates and profiles that do not exist', async () => {
    for (const grant of [{ access: ['Omnipotence'] }, { templates: ['godMode'] }, { profiles: ['root'] }]) {
      const res = await call(userAdmin, 'POST', users, newUser(grant));
      refused(res, 400, 'ACCESS_UNKNOWN');
      expect(res.json().error.message).toContain(Object.values(grant)[0][0]);
    }
    // Unknown is unknown to a superadmin too.
    refused(await call(superadmin, 'POST', users, newUser({ access: ['Omnipotence'] })), 400, 'ACCESS_UNKNOWN');
  });

  it('cannot write the server\'s own fields: last_sign_in and the password hash are kept', async () => {
    const target = await h.userWith(['Dashboards'], { last_sign_in: '2024-01-02T03:04:05.000Z' });
    const stored = (await h.store.get('user', target.id))!;
    const res = await call(userAdmin, 'PUT', `${users}/${target.id}`, { ...(await editable(target.id)), last_sign_in: '1999-01-01T00:00:00.000Z', password_hash: 'x' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await h.store.get('user', target.id)).toMatchObject({ last_sign_in: '2024-01-02T03:04:05.000Z', password_hash: stored.password_hash });
    const created = await call(userAdmin, 'POST', users, newUser({ last_sign_in: '1999-01-01T00:00:00.000Z', password_hash: 'x' }));
    expect(created.statusCode, created.body).toBe(201);
    const doc = (await h.store.get('user', created.json().id))!;
    expect(doc.last_sign_in).toBeUndefined();
    expect(doc.password_hash).toBeUndefined();
  });
});

describe('a Group Management holder (group admin)', () => {
  it('cannot put superadmin, or a key they lack, into a new or existing group', async () => {
    refused(await call(groupAdmin, 'POST', groups, { name: 'Escalators', access: ['superadmin'] }), 403, 'GRANT_NOT_HELD');
    refused(await call(groupAdmin, 'POST', groups, { name: 'Escalators', access: ['Analytics'] }), 403, 'GRANT_NOT_HELD');
    const mine = await h.store.insert('group', { name: 'Group admins', access: ['Group Management'], warehouses: [], state: 1 });
    const { id: _id, createdAt: _c, updatedAt: _u, ...record } = mine;
    refused(await call(groupAdmin, 'PUT', `${groups}/${mine.id}`, { ...record, access: ['Group Management', 'superadmin'] }), 403, 'GRANT_NOT_HELD');
    expect((await h.store.get('group', mine.id))!.access).toEqual(['Group Management']);
  });

  it('may make groups of the keys they hold', async () => {
    const res = await call(groupAdmin, 'POST', groups, { name: 'More group admins', access: ['Group Management'] });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('cannot take away or switch off a key they lack', async () => {
    const { id, createdAt: _c, updatedAt: _u, ...record } = analyticsGroup;
    refused(await call(groupAdmin, 'PUT', `${groups}/${id}`, { ...record, access: ['Group Management'] }), 403, 'GRANT_NOT_HELD');
    refused(await call(groupAdmin, 'PUT', `${groups}/${id}`, { ...record, state: 3 }), 403, 'GRANT_NOT_HELD');
    refused(await call(groupAdmin, 'DELETE', `${groups}/${id}`), 403, 'GRANT_NOT_HELD');
    expect(await h.store.get('group', id)).toMatchObject({ access: ['Analytics'], state: 1 });
  });

  it('gets 400 for keys that do not exist', async () => {
    refused(await call(groupAdmin, 'POST', groups, { name: 'Ghosts', access: ['Omnipotence'] }), 400, 'ACCESS_UNKNOWN');
  });

  it('cannot add themselves to a group, even holding User Management too', async () => {
    const own = await call(groupAdmin, 'PUT', `${users}/${groupAdmin.id}`, { ...(await editable(groupAdmin.id)), groups: [userManagementGroup.id] });
    refused(own, 403, 'FORBIDDEN');
    const both = await call(bothAdmin, 'PUT', `${users}/${bothAdmin.id}`, { ...(await editable(bothAdmin.id)), groups: [userManagementGroup.id] });
    refused(both, 403, 'OWN_ACCESS');
    expect((await h.store.get('user', bothAdmin.id))!.groups).toEqual([]);
  });
});

describe('a superadmin', () => {
  it('grants superadmin, edits another superadmin and sends them a link', async () => {
    const created = await call(superadmin, 'POST', users, newUser({ access: ['superadmin'] }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const res = await call(superadmin, 'PUT', `${users}/${id}`, { ...(await editable(id)), email: 'second.super@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    const link = await call(superadmin, 'POST', '/api/auth/send-link', { email: 'second.super@example.com', purpose: 'invite' });
    expect(link.statusCode, link.body).toBe(200);
    const group = await call(superadmin, 'POST', groups, { name: 'Second supers', access: ['superadmin'] });
    expect(group.statusCode, group.body).toBe(201);
  });

  it('still cannot edit their own access', async () => {
    refused(await call(superadmin, 'PUT', `${users}/${superadmin.id}`, { ...(await editable(superadmin.id)), access: ['superadmin', 'Dashboards'] }), 403, 'OWN_ACCESS');
  });
});

describe('imports', () => {
  it('cannot bring users or groups in, so no import bypasses this check', async () => {
    // Should user or group ever become importable, its rows must go through Grants.checkWrite too.
    const caller = await h.userWith(['superadmin']);
    for (const entity of ['user', 'group']) {
      const payload = `--x\r\nContent-Disposition: form-data; name="entity"\r\n\r\n${entity}\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail,display_name,access\r\nx@example.com,X,superadmin\r\n--x--\r\n`;
      const res = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...caller.headers, 'content-type': 'multipart/form-data; boundary=x' }, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ field: 'entity' });
    }
    expect(await h.store.count('user', { email: 'x@example.com' })).toBe(0);
  });
});
