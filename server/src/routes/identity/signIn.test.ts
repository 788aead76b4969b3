import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_MS } from '../../auth/sessions';
import { PASSWORD, startIdentityApp, type IdentityApp } from './testing';

let t: IdentityApp;
beforeAll(async () => { t = await startIdentityApp(); });
afterAll(async () => { await t.close(); });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const validate = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) });

describe('sign-in with e-mail and password', () => {
  it('answers a bearer token and the user without its password hash', async () => {
    const u = await t.user({ access: ['Dashboards'] });
    const r = await t.signIn(String(u.email).toUpperCase());
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.user.email).toBe(u.email);
    expect(body.user).not.toHaveProperty('password_hash');
    expect((await t.store.get('user', u.id))!.last_sign_in).toBeTypeOf('string');
    const v = await validate(body.token);
    expect(v.json()).toEqual({ detail: { access: ['Dashboards'], groups: [] } });
  });

  it('refuses with the messages of SPEC 8, word for word', async () => {
    const org = await t.store.insert('organisation', { name: 'Org A', providers: ['google'], allowed_domains: [], state: 1 });
    const domainOrg = await t.store.insert('organisation', { name: 'Org B', providers: ['email'], allowed_domains: ['allowed.test'], state: 1 });
    const expiredOrg = await t.store.insert('organisation', { name: 'Org C', account_expiry: '2020-01-31', state: 1 });
    const cases: [string, string, number, string][] = [
      [String((await t.user()).email), 'Wrong-pass-1', 401, 'The password is invalid'],
      ['nobody@example.com', PASSWORD, 401, 'Account does not exist'],
      [String((await t.user({ state: 3 })).email), PASSWORD, 403, 'Account disabled. Contact your admin.'],
      [String((await t.user({ organisation: org.id })).email), PASSWORD, 403, 'Email not configured for this organization'],
      [String((await t.user({ organisation: domainOrg.id })).email), PASSWORD, 403, 'This domain is not authorized.'],
      [String((await t.user({ organisation: expiredOrg.id })).email), PASSWORD, 403, 'Your account has expired. Please contact your admin for further support.'],
    ];
    for (const [email, password, status, message] of cases) {
      const r = await t.signIn(email, password, `10.0.0.${cases.findIndex((c) => c[0] === email)}`);
      expect([email, r.statusCode, r.json().error.message]).toEqual([email, status, message]);
    }
  });

  it('refuses NoSQL operators and other non-strings with 400 before looking anything up', async () => {
    for (const payload of [{ email: { $gt: '' }, password: PASSWORD }, { email: 'a@b.co', password: { $ne: null } }, { email: ['a@b.co'], password: PASSWORD }, { email: { $regex: '.*' } }]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error.code).toBe('INVALID_REQUEST');
    }
    // Unknown top-level keys are dropped by the body schema and never reach the store.
    const extra = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email: 'a@b.co', password: PASSWORD, $where: 'return true' } });
    expect(extra.json().error.message).toBe('Account does not exist');
  });

  it('refuses oversized and non-JSON bodies', async () => {
    const big = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('BODY_TOO_LARGE');
    const long = await t.signIn('a@b.co', 'x'.repeat(1025));
    expect(long.statusCode).toBe(400);
    const text = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'text/plain' }, payload: 'email=a' });
    expect(text.statusCode).toBe(415);
  });
});

describe('sign-in rate limits', () => {
  it('locks an account for the window after 5 failures, even for the right password, and says when to retry', async () => {
    const u = await t.user();
    const email = String(u.email);
    for (let i = 0; i < 5; i++) expect((await t.signIn(email, 'Wrong-pass-1', `10.1.0.${i}`)).statusCode).toBe(401);
    const locked = await t.signIn(email, PASSWORD, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe('Too many attempts; try again in 900 seconds');
    expect(locked.headers['retry-after']).toBe('900');
    t.clock.advance(15 * 60_000);
    expect((await t.signIn(email, PASSWORD, '10.1.1.1')).statusCode).toBe(200);
  });

  it('forgets an account\'s failures once it signs in', async () => {
    const email = String((await t.user()).email);
    for (let i = 0; i < 4; i++) await t.signIn(email, 'Wrong-pass-1', '10.2.0.1');
    expect((await t.signIn(email, PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await t.signIn(email, 'Wrong-pass-1', '10.2.0.1')).statusCode).toBe(401);
  });

  it('stops an address after 20 failures across accounts (password spraying), and not another address', async () => {
    for (let i = 0; i < 20; i++) expect((await t.signIn(`spray${i}@example.com`, 'Wrong-pass-1', '10.3.0.1')).statusCode).toBe(401);
    const u = await t.user();
    expect((await t.signIn(String(u.email), PASSWORD, '10.3.0.1')).statusCode).toBe(429);
    expect((await t.signIn(String(u.email), PASSWORD, '10.3.0.2')).statusCode).toBe(200);
  });

  it('counts parallel guesses before checking them, so a burst cannot slip past the limit', async () => {
    const email = String((await t.user()).email);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => t.signIn(email, `Wrong-pass-${i}`, `10.4.0.${i}`)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
  });
});

describe('bearer tokens', () => {
  it('stop working when revoked by sign-out', async () => {
    const { token } = (await t.signIn(String((await t.user()).email))).json();
    expect((await validate(token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: bearer(token) });
    expect(out.json()).toEqual({ signedOut: true });
    expect((await validate(token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('expire after the session lifetime', async () => {
    const { token, expiresAt } = (await t.signIn(String((await t.user()).email))).json();
    expect(Date.parse(expiresAt) - t.clock.now()).toBe(SESSION_TTL_MS);
    t.clock.advance(SESSION_TTL_MS - 1000);
    expect((await validate(token)).statusCode).toBe(200);
    t.clock.advance(1000);
    const r = await validate(token);
    expect(r.statusCode).toBe(401);
    expect(r.json().error.message).toBe('Sign in to continue');
  });

  it('refuse tampered, truncated and malformed tokens, and a disabled user\'s token', async () => {
    const u = await t.user();
    const { token } = (await t.signIn(String(u.email))).json() as { token: string };
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, token.slice(0, -2), `${token}x`, 'short', `${token} ${token}`, '../../etc/passwd', 'x'.repeat(600)]) {
      expect((await validate(bad)).statusCode, bad.slice(0, 20)).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/validate', headers: { authorization: `Basic ${token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/validate' })).statusCode).toBe(401);
    await t.store.patch('user', u.id, { state: 3 });
    expect((await validate(token)).statusCode).toBe(401);
  });
});
