import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';

/** Issue 13, item 2: no write through the API leaves the platform without an active superadmin. */
let h: Harness;
beforeEach(async () => { h = await startHarness(); });
afterEach(async () => { await h.close(); });

type Caller = { id: string; headers: Record<string, string> };
const call = (caller: Caller, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject({ method, url, headers: caller.headers, ...(payload ? { payload } : {}) });
/** Whether the user can still sign in with their password (the harness gives every user this one). */
async function signsIn(caller: Caller): Promise<number> {
  const email = (await h.store.get('user', caller.id))!.email;
  return (await h.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password: 'Secret-pass-1' } })).statusCode;
}
const users = '/api/v3/masterdata/user';
const groups = '/api/v3/masterdata/group';
const organisations = '/api/v3/masterdata/organisation';

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

  describe('through their organisation', () => {
    const org = { name: 'Platform', providers: ['email', 'google'], allowed_domains: ['test.local'], state: 1 };

    it('cannot disable, soft-delete, expire it, or take away e-mail sign-in or their domain', async () => {
      const home = await h.store.insert('organisation', org as never);
      const only = await h.userWith(['superadmin'], { organisation: home.id });
      const url = `${organisations}/${home.id}`;
      const record = await editable(only, url);
      lastSuperadmin(await call(only, 'PUT', url, { ...record, state: 3 }));
      lastSuperadmin(await call(only, 'DELETE', url));
      lastSuperadmin(await call(only, 'PUT', url, { ...record, account_expiry: '2000-01-01' }));
      lastSuperadmin(await call(only, 'PUT', url, { ...record, providers: ['google'] }));
      lastSuperadmin(await call(only, 'PUT', url, { ...record, allowed_domains: ['elsewhere.example'] }));
      expect(await h.store.get('organisation', home.id)).toMatchObject(org);
      expect(await signsIn(only)).toBe(200);
      // Edits that leave them able to sign in go through.
      const kept = { ...record, name: 'Platform team', account_expiry: '2999-12-31', providers: ['email'], allowed_domains: ['test.local', 'elsewhere.example'] };
      const res = await call(only, 'PUT', url, kept);
      expect(res.statusCode, res.body).toBe(200);
      expect(await signsIn(only)).toBe(200);
    });

    it('cannot be moved into an organisation, or to an e-mail domain, that locks them out', async () => {
      const closed = await h.store.insert('organisation', { ...org, name: 'Closed', state: 3 } as never);
      const home = await h.store.insert('organisation', org as never);
      const only = await h.userWith(['superadmin'], { organisation: home.id });
      const url = `${users}/${only.id}`;
      const record = await editable(only, url);
      lastSuperadmin(await call(only, 'PUT', url, { ...record, organisation: closed.id }));
      lastSuperadmin(await call(only, 'PUT', url, { ...record, email: 'boss@elsewhere.example' }));
      expect(await h.store.get('user', only.id)).toMatchObject({ organisation: home.id, email: record.email });
      expect(await signsIn(only)).toBe(200);
    });

    it('a superadmin whose organisation locks them out does not count', async () => {
      const home = await h.store.insert('organisation', org as never);
      const member = await h.userWith(['superadmin'], { organisation: home.id });
      const elsewhere = await h.userWith(['superadmin']);
      // With a superadmin outside it, the organisation may be disabled...
      const res = await call(member, 'PUT', `${organisations}/${home.id}`, { ...(await editable(member, `${organisations}/${home.id}`)), state: 3 });
      expect(res.statusCode, res.body).toBe(200);
      expect(await signsIn(member)).toBe(403);
      // ...and then the one outside is the last who can sign in.
      lastSuperadmin(await call(elsewhere, 'PUT', `${users}/${elsewhere.id}`, { ...(await editable(elsewhere, `${users}/${elsewhere.id}`)), state: 3 }));
      lastSuperadmin(await call(elsewhere, 'DELETE', `${users}/${elsewhere.id}`));
      expect(await signsIn(elsewhere)).toBe(200);
    });

    it('a hard delete of the organisation leaves its members free of its rules, so it goes through', async () => {
      const home = await h.store.insert('organisation', { ...org, providers: ['google'] } as never);
      const only = await h.userWith(['superadmin'], { organisation: home.id });
      const elsewhere = await h.userWith(['superadmin']);
      expect(await signsIn(only)).toBe(403);
      lastSuperadmin(await call(elsewhere, 'DELETE', `${users}/${elsewhere.id}`));
      const res = await call(elsewhere, 'DELETE', `${organisations}/${home.id}?hard=true`);
      expect(res.statusCode, res.body).toBe(200);
      expect(await signsIn(only)).toBe(200);
      // Now the freed member counts: the other superadmin may go.
      const gone = await call(only, 'DELETE', `${users}/${elsewhere.id}`);
      expect(gone.statusCode, gone.body).toBe(200);
    });
  });
});
