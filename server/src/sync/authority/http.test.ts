import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config';
import { freePort } from '../../testing/process';
import { startFakeAuthority, type FakeAuthority } from './fake';
import { createHttpAuthority, retryAfterMs } from './http';
import { authorityOptions } from './settings';
import { FAKE_PASSWORD, FAKE_USER, sampleDeclaration, unavailable } from './testing';

let fake: FakeAuthority;
beforeAll(async () => {
  fake = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD });
});
afterEach(() => fake.control.reset());
afterAll(() => fake.stop());

describe('createHttpAuthority', () => {
  it('throws AuthorityUnavailable when nothing listens', async () => {
    const port = await freePort();
    const authority = createHttpAuthority({ baseUrl: `http://127.0.0.1:${port}`, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 1000 });
    const err = await unavailable(authority.declare(sampleDeclaration(1)));
    expect(err.message).toContain('ECONNREFUSED');
    await unavailable(authority.query({}));
  });

  it('treats a wrong base path (no such route) as unavailable, not as a refusal of the record', async () => {
    const authority = createHttpAuthority({ baseUrl: `${fake.url}/elsewhere`, user: FAKE_USER, password: FAKE_PASSWORD });
    const err = await unavailable(authority.declare(sampleDeclaration(1)));
    expect(err.message).toContain('404');
    expect(fake.control.stats().committed).toBe(0);
  });

  it('keeps a base path: calls go under it', async () => {
    // The fake serves at its root; a trailing slash or none makes no difference.
    for (const baseUrl of [fake.url, `${fake.url}/`]) {
      const authority = createHttpAuthority({ baseUrl, user: FAKE_USER, password: FAKE_PASSWORD });
      expect(await authority.declare(sampleDeclaration(1))).toMatchObject({ ok: true });
    }
    expect(fake.control.stats().commitsPerKey).toEqual({ 'delivery:rec-1:declare': 1 });
  });

  it('never shows the credentials: not in errors, not when the adapter is printed', async () => {
    const secret = 'Sup3r-secret-pw';
    const encoded = Buffer.from(`${FAKE_USER}:${secret}`).toString('base64');
    const authority = createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: secret, timeoutMs: 100 });
    const messages: string[] = [];
    for (const mode of ['up', 'down', 'error5xx', 'slow'] as const) {
      fake.control.set(mode, mode === 'slow' ? { delayMs: 300 } : {});
      const err = await unavailable(authority.declare(sampleDeclaration(1)));
      messages.push(err.message, inspect(err));
    }
    messages.push(inspect(authority, { showHidden: true, depth: 5 }), JSON.stringify(authority));
    for (const m of messages) {
      expect(m).not.toContain(secret);
      expect(m).not.toContain(encoded);
    }
    expect(() => createHttpAuthority({ baseUrl: `http://u:${secret}@127.0.0.1:1`, user: 'u', password: secret })).toThrow(/must not carry credentials/);
    expect(() => createHttpAuthority({ baseUrl: 'ftp://127.0.0.1', user: 'u', password: 'p' })).toThrow(/http or https/);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(10_000 + 5_000).toUTCString(), 10_000)).toBe(5_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('the authority settings', () => {
  const integrations = { authority: { name: 'SENASA', baseUrl: 'http://127.0.0.1:4010' } };

  it('takes the deployment\'s base URL unless AUTHORITY_BASE_URL is set, and the credentials from the environment only', () => {
    const plain = readConfig({ AUTHORITY_USER: 'u', AUTHORITY_PASSWORD: 'p' }).authority;
    expect(authorityOptions(plain, integrations)).toEqual({ baseUrl: 'http://127.0.0.1:4010', user: 'u', password: 'p', timeoutMs: 10_000 });
    const set = readConfig({ AUTHORITY_BASE_URL: 'https://authority.example/api', AUTHORITY_USER: 'u', AUTHORITY_PASSWORD: 'p', AUTHORITY_TIMEOUT_MS: '2500' }).authority;
    expect(authorityOptions(set, integrations)).toEqual({ baseUrl: 'https://authority.example/api', user: 'u', password: 'p', timeoutMs: 2500 });
  });

  it('says what is missing rather than sending without a base URL or credentials', () => {
    expect(authorityOptions(readConfig({}).authority, integrations)).toEqual({ missing: expect.stringMatching(/AUTHORITY_USER and AUTHORITY_PASSWORD/) });
    expect(authorityOptions(readConfig({ AUTHORITY_USER: 'u', AUTHORITY_PASSWORD: 'p' }).authority, {})).toEqual({ missing: expect.stringMatching(/AUTHORITY_BASE_URL/) });
    expect(authorityOptions(readConfig({ AUTHORITY_USER: 'u', AUTHORITY_PASSWORD: 'p' }).authority, { authority: { baseUrl: 'nowhere' } })).toEqual({ missing: expect.stringMatching(/integrations.authority.baseUrl must be an absolute URL/) });
  });

  it('refuses to start on a bad AUTHORITY_BASE_URL or AUTHORITY_TIMEOUT_MS, naming it', () => {
    expect(() => readConfig({ AUTHORITY_BASE_URL: 'authority.example' })).toThrow(/AUTHORITY_BASE_URL must be an absolute URL/);
    expect(() => readConfig({ AUTHORITY_BASE_URL: 'https://u:p@authority.example' })).toThrow(/AUTHORITY_BASE_URL must not carry credentials/);
    expect(() => readConfig({ AUTHORITY_TIMEOUT_MS: '0' })).toThrow(/AUTHORITY_TIMEOUT_MS must be a whole number/);
  });
});
