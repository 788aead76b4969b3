import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startIdentityApp, type IdentityApp } from './testing';
import { startSmtp, type ReceivedMail } from '../../testing/smtp';

function tokenOf(mail: ReceivedMail): string {
  const m = /http:\/\/app\.test:8080\/resetPassword\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no reset link in:\n${mail.text}`);
  return m[1];
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: IdentityApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startIdentityApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://app.test:8080', MAIL_FROM: 'Platform <no-reply@app.test>' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const requestReset = (email: string, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', payload: { email }, remoteAddress });
const reset = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });

describe('password reset over a real SMTP peer', () => {
  it('answers the same for known and unknown e-mails and mails only the known one', async () => {
    const u = await t.user({ display_name: 'Laura Gómez' });
    const before = smtp.mails.length;
    const arrived = smtp.next();
    const unknown = await requestReset('nobody-here@example.com', '10.9.0.1');
    const known = await requestReset(String(u.email), '10.9.0.2');
    expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
    expect(known.json()).toEqual({ data: { requested: true } });
    const mail = await arrived;
    expect(mail.to).toEqual([u.email]);
    expect(mail.raw).toMatch(/^Subject: Reset your password/m);
    expect(mail.raw).toMatch(/^From: Platform <no-reply@app\.test>/m);
    expect(mail.text).toContain('Hello Laura Gómez');
    expect(mail.text).toContain('within 2 hours');
    expect(tokenOf(mail)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before + 1);
  });

  it('follows the mailed link: a weak password is refused without using the link up, a good one replaces the old and signs out everywhere', async () => {
    const u = await t.user();
    const email = String(u.email);
    const { token: oldSession } = (await t.signIn(email)).json();
    const arrived = smtp.next();
    await requestReset(email);
    const token = tokenOf(await arrived);

    const weak = await reset(token, 'abcdefgh');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.message).toBe('The password is too weak: use at least 6 characters with two of lowercase letters, uppercase letters and digits');
    expect((await reset(token, 'Ab1')).statusCode).toBe(400);

    const ok = await reset(token, 'Newpass7');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { reset: true } });
    expect((await t.signIn(email, PASSWORD)).statusCode).toBe(401);
    expect((await t.signIn(email, 'Newpass7')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/validate', headers: { authorization: `Bearer ${oldSession}` } })).statusCode).toBe(401);

    const again = await reset(token, 'Another-pass-8');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe('This reset link is invalid or has expired.');
  });

  it('refuses a link 2 hours (72e5 ms) after it was sent, and accepts it just before', async () => {
    const a = await t.user();
    let arrived = smtp.next();
    await requestReset(String(a.email));
    const late = tokenOf(await arrived);
    const b = await t.user();
    arrived = smtp.next();
    await requestReset(String(b.email));
    const early = tokenOf(await arrived);

    t.clock.advance(72e5 - 1);
    expect((await reset(early, 'Newpass7')).statusCode).toBe(200);
    t.clock.advance(1);
    const r = await reset(late, 'Newpass7');
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('RESET_TOKEN_INVALID');
  });

  it('makes an earlier link useless once a newer one is sent', async () => {
    const u = await t.user();
    let arrived = smtp.next();
    await requestReset(String(u.email));
    const first = tokenOf(await arrived);
    arrived = smtp.next();
    await requestReset(String(u.email));
    const second = tokenOf(await arrived);
    expect((await reset(first, 'Newpass7')).statusCode).toBe(400);
    expect((await reset(second, 'Newpass7')).statusCode).toBe(200);
  });

  it('writes in the user\'s language', async () => {
    const u = await t.user({ language: 'es', display_name: 'Martín' });
    const arrived = smtp.next();
    await requestReset(String(u.email));
    const mail = await arrived;
    expect(mail.text).toContain('Hola Martín');
    expect(mail.text).toContain('dentro de 2 horas');
  });

  it('sends nothing to a disabled account, and refuses forged or malformed tokens', async () => {
    const u = await t.user({ state: 3 });
    const before = smtp.mails.length;
    expect((await requestReset(String(u.email))).json()).toEqual({ data: { requested: true } });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(before);
    expect((await reset('A'.repeat(43), 'Newpass7')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: { $ne: '' }, password: 'Newpass7' } })).statusCode).toBe(400);
  });

  it('limits requests per account and per address the same way for unknown accounts', async () => {
    const u = await t.user();
    for (let i = 0; i < 3; i++) expect((await requestReset(String(u.email), `10.8.0.${i}`)).statusCode).toBe(200);
    const known = await requestReset(String(u.email), '10.8.1.1');
    for (let i = 0; i < 3; i++) await requestReset('ghost@example.com', `10.8.2.${i}`);
    const unknown = await requestReset('ghost@example.com', '10.8.3.1');
    expect([known.statusCode, known.json().error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(unknown.body).toBe(known.body);
    for (let i = 0; i < 10; i++) await requestReset(`someone${i}@example.com`, '10.8.4.1');
    expect((await requestReset('fresh@example.com', '10.8.4.1')).statusCode).toBe(429);
    await new Promise((r) => setTimeout(r, 300));
  });
});

describe("administrators' links: invitations and resets of the users they manage", () => {
  const sendLink = (headers: Record<string, string>, email: string, purpose?: 'invite' | 'reset') =>
    t.app.inject({ method: 'POST', url: '/api/auth/send-link', payload: purpose ? { email, purpose } : { email }, headers });
  let admin: Record<string, string>;
  beforeAll(async () => {
    const a = await t.user({ access: ['User Management'] });
    admin = { authorization: `Bearer ${(await t.signIn(String(a.email))).json().token}` };
  });

  it('invites a password-less user, who chooses a first password from the mail and signs in', async () => {
    const invited = await t.store.insert('user', { email: 'nina.nueva@example.com', display_name: 'Nina Nueva', state: 1, access: [], groups: [], templates: [], profiles: [] });
    // Asking for oneself still sends nothing to a password-less account…
    const before = smtp.mails.length;
    await requestReset(String(invited.email), '10.7.0.1');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(before);
    // …an administrator's invitation does, and says so.
    const arrived = smtp.next();
    const res = await sendLink(admin, 'Nina.Nueva@example.com', 'invite');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { sent: true } });
    const mail = await arrived;
    expect(mail.to).toEqual(['nina.nueva@example.com']);
    expect(mail.raw).toMatch(/^Subject: You are invited to the traceability platform/m);
    expect(mail.text).toContain('Hello Nina Nueva');
    expect((await reset(tokenOf(mail), 'First-pass-9')).statusCode).toBe(200);
    expect((await t.signIn('nina.nueva@example.com', 'First-pass-9')).statusCode).toBe(200);
  });

  it('sends a reset mail by default, and refuses callers without the user management key', async () => {
    const u = await t.user({ display_name: 'Rolf Reset' });
    const arrived = smtp.next();
    expect((await sendLink(admin, String(u.email))).statusCode).toBe(200);
    expect((await arrived).raw).toMatch(/^Subject: Reset your password/m);
    const other = await t.user({ access: ['Reports'] });
    const otherHeaders = { authorization: `Bearer ${(await t.signIn(String(other.email))).json().token}` };
    expect((await sendLink(otherHeaders, String(u.email))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/send-link', payload: { email: u.email } })).statusCode).toBe(401);
  });

  it('tells the administrator when no link can go out: unknown or disabled accounts', async () => {
    const disabled = await t.user({ state: 3 });
    for (const email of [String(disabled.email), 'nobody-at-all@example.com']) {
      const res = await sendLink(admin, email, 'reset');
      expect(res.statusCode, email).toBe(400);
      expect(res.json().error.message).toContain('no link can be sent');
    }
    expect((await sendLink(admin, 'x@example.com', 'other' as never)).statusCode).toBe(400);
  });
});

describe('password reset without SMTP_URL', () => {
  it('writes the link to the server log (the one documented exception) and nowhere else', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const noMail = await startIdentityApp({ env: { PUBLIC_URL: 'http://app.test:8080' }, logger: { level: 'info', stream } });
    try {
      const u = await noMail.user();
      await noMail.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', payload: { email: u.email } });
      await new Promise((r) => setTimeout(r, 300));
      const linkLine = lines.find((l) => l.includes('resetLink'));
      expect(linkLine).toBeDefined();
      const token = /token=([A-Za-z0-9_-]+)/.exec(JSON.parse(linkLine!).resetLink)![1];
      const r = await noMail.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Newpass7' } });
      expect(r.statusCode).toBe(200);
      expect(lines.filter((l) => l.includes(token))).toEqual([linkLine]);
    } finally {
      await noMail.close();
    }
  });
});
