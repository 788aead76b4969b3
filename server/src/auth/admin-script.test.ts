import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../boot';
import { openStore, type OpenStoreOptions } from '../store/index';
import { realRegistry } from '../testing/harness';
import { freshStoreAt, PASSWORD, startIdentityApp } from '../routes/identity/testing';
import { hashPassword } from './passwords';

/**
 * Issue 13, item 2: `npm run admin -- reset-superadmin <email>` gives operators a way back when
 * the only superadmin was disabled in the store itself. Run as the operator would, a child
 * process on the configured store (embedded, or the MongoDB wire server when MONGODB_URI is set).
 */
const run = promisify(execFile);
const registry = realRegistry();
let dir: string;
let at: OpenStoreOptions;

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { ADMIN_PASSWORD: _p, MONGODB_URI: _m, ...base } = process.env;
  const storeEnv = at.mongodbUri ? { MONGODB_URI: at.mongodbUri } : { DATA_DIR: at.dataDir! };
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: process.cwd(), env: { ...base, ...storeEnv, PUBLIC_URL: 'https://traceability.example', ...env }, timeout: 60_000,
  }).then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tm-admin-'));
  at = freshStoreAt(dir);
  // The lock-out the fuzzer produced: the only superadmin disabled, straight in the store.
  const store = await openStore(at);
  await prepareStore(registry, store);
  await store.insert('user', {
    email: 'boss@example.com', display_name: 'Boss', state: 3, access: ['superadmin'], groups: [], templates: [], profiles: [], password_hash: await hashPassword(PASSWORD),
  });
  await store.insert('user', { email: 'clerk@example.com', display_name: 'Clerk', state: 1, access: ['Dashboards'], groups: [], templates: [], profiles: [] });
  await store.close();
});
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

async function signInAndManageUsers(email: string, password: string): Promise<[number, number]> {
  const t = await startIdentityApp({ storeAt: at });
  try {
    const signIn = await t.signIn(email, password);
    if (signIn.statusCode !== 200) return [signIn.statusCode, 0];
    const users = await t.app.inject({ method: 'GET', url: '/api/v3/masterdata/user', headers: { authorization: `Bearer ${signIn.json().token}` } });
    return [200, users.statusCode];
  } finally {
    await t.close();
  }
}

describe('npm run admin -- reset-superadmin <email>', () => {
  it('re-enables a disabled superadmin with the password given in ADMIN_PASSWORD', async () => {
    expect((await signInAndManageUsers('boss@example.com', PASSWORD))[0]).toBe(403);
    const out = await admin(['reset-superadmin', 'Boss@Example.com'], { ADMIN_PASSWORD: 'Back-in-2026' });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('boss@example.com is now an enabled superadmin (existing user');
    expect(out.stdout).toContain('Sign in with the password in ADMIN_PASSWORD.');
    expect(out.stdout + out.stderr).not.toMatch(/Back-in-2026|scrypt\$/);
    expect(await signInAndManageUsers('boss@example.com', 'Back-in-2026')).toEqual([200, 200]);
  });

  it('makes an existing user superadmin, or creates one, and prints a one-time link to choose a password', async () => {
    for (const [email, kind] of [['clerk@example.com', 'existing user'], ['rescue@example.com', 'new user']] as const) {
      const out = await admin(['reset-superadmin', email]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain(`${email} is now an enabled superadmin (${kind}`);
      const token = /https:\/\/traceability\.example\/resetPassword\?token=([A-Za-z0-9_-]+)/.exec(out.stdout)?.[1];
      expect(token, out.stdout).toBeDefined();
      const t = await startIdentityApp({ storeAt: at });
      try {
        const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Chosen-pass-9' } });
        expect(reset.statusCode, reset.body).toBe(200);
        // The link works once.
        expect((await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Chosen-pass-9' } })).statusCode).toBe(400);
      } finally {
        await t.close();
      }
      expect(await signInAndManageUsers(email, 'Chosen-pass-9')).toEqual([200, 200]);
    }
    const store = await openStore(at);
    try {
      expect((await store.find('user', { filter: { email: 'clerk@example.com' } }))[0]).toMatchObject({ state: 1, access: ['Dashboards', 'superadmin'] });
    } finally {
      await store.close();
    }
  });

  it('refuses a missing command, a malformed e-mail and a weak ADMIN_PASSWORD, changing nothing', async () => {
    for (const [args, env] of [[[], {}], [['reset-superadmin'], {}], [['reset-superadmin', 'not-an-email'], {}], [['reset-superadmin', 'weak@example.com'], { ADMIN_PASSWORD: 'abc' }]] as const) {
      const out = await admin([...args], env);
      expect(out.code, out.stdout).toBe(2);
      expect(out.stderr).toMatch(/usage: npm run admin -- reset-superadmin <email>|password is too weak/);
    }
    const store = await openStore(at);
    try {
      expect(await store.count('user', { email: 'weak@example.com' })).toBe(0);
    } finally {
      await store.close();
    }
  });
});
