import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';

/** Issue 13, item 2: no write through the API leaves the platform without an active superadmin. */
let h: Harness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.close(); });

type Caller = { id: string; headers: Record<string, string> };
const call = (caller: Caller, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject({ method, url, headers: caller.headers, ...(payload ? { payload } : {}) });
const users = '/api/v3/masterdata/user';
const groups = '/api/v3/masterdata/group';

async function editable(caller: Caller, url: string): Promise<Record<string, unknown>> {
  const { createdAt: _c, updatedAt: _u, createdBy: _cb, updatedBy: _ub, id: _id, ...rest } = (await call(caller, 'GET', url)).json();
  return rest;
}

function lastSuperadmin(res: { statusCode: number; json(): { error: { code: string; message: string } } }): void {
  expect([res.statusCode, res.json().error?.code]).toEqual([409, 'LAST_SUPERADMIN']);
  expect(res.json().error.message).toBe('This would leave no active superadmin; make another user superadmin first');
}

describe('the last superadmin', () => {
  it('cannot disable, soft-delete or hard-delete themselves', async () => {
    const only = await h.userWith(['superadmin']);
    lastSuperadmin(await call(only, 'PUT', `${users}/${only.id}`, { ...(await editable(only, `${users}/${only.id}`)), state: 3 }));
    lastSuperadmin(await call(only, 'DELETE', `${users}/${only.id}`));
    lastSuperadmin(await call(only, 'DELETE', `${users}/${only.id}?hard=true`));
    expect(await h.store.get('user', only.id)).toMatchObject({ state: 1, access: ['superadmin'] });
    // Signed in still: the refused writes changed nothing.
    expect((await call(only, 'GET', `${users}/${only.id}`)).statusCode).toBe(200);
  });

  it('can be disabled once another superadmin is active, and then the other is the last', async () => {
    const first = await h.userWith(['superadmin']);
    const second = await h.userWith(['superadmin']);
    // A disabled superadmin does not count.
    await h.userWith(['superadmin'], { state: 3 });
    const res = await call(first, 'PUT', `${users}/${second.id}`, { ...(await editable(first, `${users}/${second.id}`)), state: 3 });
    expect(res.statusCode, res.body).toBe(200);
    lastSuperadmin(await call(first, 'DELETE', `${users}/${first.id}`));
  });

  it('through a group: the group cannot lose superadmin, be disabled or deleted while its members are the only superadmins', async () => {
    const supers = await h.store.insert('group', { name: 'Supers', access: ['superadmin', 'Dashboards'], warehouses: [], state: 1 });
    const member = await h.userWith([], { groups: [supers.id] });
    const url = `${groups}/${supers.id}`;
    const record = await editable(member, url);
    lastSuperadmin(await call(member, 'PUT', url, { ...record, access: ['Dashboards'] }));
    lastSuperadmin(await call(member, 'PUT', url, { ...record, state: 3 }));
    lastSuperadmin(await call(member, 'DELETE', url));
    lastSuperadmin(await call(member, 'DELETE', `${url}?hard=true`));
    lastSuperadmin(await call(member, 'PUT', `${users}/${member.id}`, { ...(await editable(member, `${users}/${member.id}`)), state: 3 }));
    expect(await h.store.get('group', supers.id)).toMatchObject({ access: ['superadmin', 'Dashboards'], state: 1 });
    // Other edits of the group go through.
    const renamed = await call(member, 'PUT', url, { ...record, name: 'Super users' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // With a superadmin outside the group, the group may let go.
    await h.userWith(['superadmin']);
    const res = await call(member, 'PUT', url, { ...record, name: 'Super users', access: ['Dashboards'] });
    expect(res.statusCode, res.body).toBe(200);
  });
});
