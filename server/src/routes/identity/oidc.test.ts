import { generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/process';
import { startIdentityApp, type IdentityApp } from './testing';

/** Cookies per host, enough for the provider's interaction cookies and ours. */
class Jar {
  private readonly byHost = new Map<string, Map<string, string>>();

  header(url: string): string {
    return [...(this.byHost.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(url: string, res: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, ...value] = pair.trim().split('=');
      if (attrs.some((a) => /^\s*max-age=0/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a))) jar.delete(name);
      else jar.set(name, value.join('='));
    }
    this.byHost.set(host, jar);
  }

  drop(url: string, name: string): void {
    this.byHost.get(new URL(url).host)?.delete(name);
  }
}

let idp: Server;
let issuer: string;
let appUrl: string;
let t: IdentityApp;

beforeAll(async () => {
  const [idpPort, appPort] = [await freePort(), await freePort()];
  issuer = `http://127.0.0.1:${idpPort}`;
  appUrl = `http://127.0.0.1:${appPort}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: 'traceability',
      client_secret: 'a-test-client-secret-of-enough-length',
      redirect_uris: [`${appUrl}/api/auth/provider/google/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    }],
    // The login typed in the provider's (development) login form is the account's e-mail.
    async findAccount(_ctx, id) {
      return { accountId: id, async claims() { return { sub: id, email: id, email_verified: !id.startsWith('unverified') }; } };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['a-test-cookie-key'] },
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
  });
  provider.on('server_error', (_ctx: unknown, err: Error) => console.error('IDP', err));
  idp = provider.listen(idpPort);
  t = await startIdentityApp({
    port: appPort,
    env: { PUBLIC_URL: appUrl, OIDC_GOOGLE_ISSUER: issuer, OIDC_GOOGLE_CLIENT_ID: 'traceability', OIDC_GOOGLE_CLIENT_SECRET: 'a-test-client-secret-of-enough-length' },
  });
});

afterAll(async () => {
  await t.close();
  await new Promise((r) => idp.close(r));
});

function formOf(html: string, base: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in:\n${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '';
  }
  return { action: new URL(action.replace(/&amp;/g, '&'), base).href, fields };
}

/**
 * Drives the popup as a browser would, over real HTTP: our start route, the provider's login
 * and consent forms, back to our callback. Returns the callback's response.
 */
async function signInThroughProvider(login: string, jar = new Jar(), opts: { loseCookie?: boolean } = {}): Promise<{ res: Response; callbackUrl: string; cookie: string }> {
  let url = `${appUrl}/api/auth/provider/google/start`;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(appUrl) && url.includes('/callback') && opts.loseCookie) jar.drop(url, 'tm_signin_google');
    const cookie = jar.header(url);
    const res = await fetch(url, {
      method, body, redirect: 'manual',
      headers: { cookie, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    jar.keep(url, res);
    if (url.startsWith(`${appUrl}/api/auth/provider/google/callback`)) return { res, callbackUrl: url, cookie };
    const location = res.headers.get('location');
    if (location) {
      [url, method, body] = [new URL(location, url).href, 'GET', undefined];
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} at ${url}: ${html.slice(0, 300)}`);
    const form = formOf(html, url);
    if ('login' in form.fields) Object.assign(form.fields, { login, password: 'anything' });
    [url, method, body] = [form.action, 'POST', new URLSearchParams(form.fields).toString()];
  }
  throw new Error('the flow did not come back to the app');
}

/** What the popup page posts to its opener. */
function popupMessage(html: string): { type: string; token?: string; message?: string } {
  const m = /var message = (\{.*?\});/.exec(html);
  if (!m) throw new Error(`not a popup page:\n${html}`);
  return JSON.parse(m[1]);
}

describe('OpenID Connect sign-in against oidc-provider on loopback', () => {
  it('starts with PKCE and a nonce, and binds the flow to the browser with an HttpOnly cookie', async () => {
    const res = await fetch(`${appUrl}/api/auth/provider/google/start`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(`${appUrl}/api/auth/provider/google/callback`);
    expect(res.headers.get('set-cookie')).toMatch(/^tm_signin_google=[^;]+; Path=\/api\/auth\/provider\/google; HttpOnly; SameSite=Lax/);
  });

  it('signs the user in end to end and hands a working session to the opener', async () => {
    const u = await t.user({ email: 'ana@example.com', access: ['Dashboards'] });
    const { res } = await signInThroughProvider('ana@example.com');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const html = await res.text();
    expect(html).toContain(`postMessage(message, "${appUrl}")`);
    const msg = popupMessage(html);
    expect(msg.type).toBe('auth');
    const v = await fetch(`${appUrl}/api/auth/validate`, { headers: { authorization: `Bearer ${msg.token}` } });
    expect(v.status).toBe(200);
    expect(await v.json()).toEqual({ detail: { access: ['Dashboards'], groups: [] } });
    expect((await t.store.get('user', u.id))!.last_sign_in).toBeTypeOf('string');
  });

  it('refuses with the messages of SPEC 8 when the organisation does not allow it', async () => {
    const emailOnly = await t.store.insert('organisation', { name: 'E-mail only', providers: ['email'], state: 1 });
    const otherDomain = await t.store.insert('organisation', { name: 'Other domain', providers: ['google'], allowed_domains: ['other.test'], state: 1 });
    await t.user({ email: 'bob@example.com', organisation: emailOnly.id });
    await t.user({ email: 'carl@example.com', organisation: otherDomain.id });
    await t.user({ email: 'dora@example.com', state: 3 });
    const cases: [string, string][] = [
      ['bob@example.com', 'Google not configured for this organization'],
      ['carl@example.com', 'This domain is not authorized.'],
      ['nobody@example.com', 'Account does not exist'],
      ['dora@example.com', 'Account disabled. Contact your admin.'],
      ['unverified@example.com', 'The Google account has no verified e-mail address'],
    ];
    for (const [login, message] of cases) {
      const { res } = await signInThroughProvider(login);
      expect([login, popupMessage(await res.text())]).toEqual([login, { type: 'auth-error', message }]);
    }
  });

  it('refuses a callback that reaches another browser (no flow cookie), and a replayed callback', async () => {
    await t.user({ email: 'eve@example.com' });
    const planted = await signInThroughProvider('eve@example.com', new Jar(), { loseCookie: true });
    const msg = popupMessage(await planted.res.text());
    expect(msg).toEqual({ type: 'auth-error', message: 'Sign-in with Google did not complete: the sign-in expired or was started in another browser; try again' });

    const first = await signInThroughProvider('eve@example.com');
    expect(popupMessage(await first.res.text()).type).toBe('auth');
    expect(first.res.headers.get('set-cookie')).toMatch(/^tm_signin_google=; .*Max-Age=0/);
    // The same URL with the same cookie again: the flow was used up.
    const replay = await fetch(first.callbackUrl, { headers: { cookie: first.cookie } });
    expect(popupMessage(await replay.text()).message).toMatch(/^Sign-in with Google did not complete: the sign-in expired/);
  });

  it('answers an error page for a provider that is not set up', async () => {
    const res = await fetch(`${appUrl}/api/auth/provider/github/start`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect(popupMessage(await res.text())).toEqual({ type: 'auth-error', message: 'Sign-in with GitHub is not set up on this server' });
  });
});
