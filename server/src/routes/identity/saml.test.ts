import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityApp, type IdentityApp } from './testing';

const APP = 'http://app.test:8080';
const CALLBACK = `${APP}/api/auth/provider/saml/callback`;
const IDP = 'https://idp.test/metadata';

type Keys = { private: string; cert: string };
let idpKeys: Keys;
let strangerKeys: Keys;
let t: IdentityApp;

beforeAll(async () => {
  // Throwaway IdP key pairs made for this run: one trusted by the app, one not.
  [idpKeys, strangerKeys] = await Promise.all([
    generate([{ name: 'commonName', value: 'idp.test' }], { keySize: 2048 }),
    generate([{ name: 'commonName', value: 'stranger.test' }], { keySize: 2048 }),
  ]);
  t = await startIdentityApp({
    env: { PUBLIC_URL: APP, SAML_ENTRY_POINT: 'https://idp.test/sso', SAML_IDP_CERT: idpKeys.cert.replace(/\n/g, '\\n'), SAML_IDP_ISSUER: IDP },
  });
});
afterAll(async () => { await t.close(); });

interface AssertionOptions {
  email: string;
  audience?: string;
  notOnOrAfter?: Date;
  keys?: Keys;
  /** The id of our AuthnRequest this answers (SP-initiated sign-in). */
  inResponseTo?: string;
  /** Changes the XML after it was signed. */
  tamper?: (xml: string) => string;
}

/** A SAML 2.0 Response whose assertion is signed (RSA-SHA256, exclusive c14n) as an IdP signs it. */
function samlResponse(o: AssertionOptions): string {
  const now = new Date();
  const iso = (d: Date) => d.toISOString();
  const later = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const assertionId = `_${randomBytes(16).toString('hex')}`;
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${CALLBACK}"${irt}>`
    + `<saml:Issuer>${IDP}</saml:Issuer>`
    + '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>'
    + `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">`
    + `<saml:Issuer>${IDP}</saml:Issuer>`
    + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>`
    + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(later)}" Recipient="${CALLBACK}"${irt}/></saml:SubjectConfirmation></saml:Subject>`
    + `<saml:Conditions NotBefore="${iso(new Date(now.getTime() - 60_000))}" NotOnOrAfter="${iso(later)}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? APP}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
    + `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
    + '</saml:Assertion></samlp:Response>';
  const keys = o.keys ?? idpKeys;
  const sig = new SignedXml({
    privateKey: keys.private,
    publicCert: keys.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  const signed = sig.getSignedXml();
  return Buffer.from(o.tamper ? o.tamper(signed) : signed).toString('base64');
}

const post = (SAMLResponse: string) => t.app.inject({
  method: 'POST', url: '/api/auth/provider/saml/callback',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ SAMLResponse, RelayState: '' }).toString(),
});

function popupMessage(html: string): { type: string; token?: string; message?: string } {
  const m = /var message = (\{.*?\});/.exec(html);
  if (!m) throw new Error(`not a popup page:\n${html}`);
  return JSON.parse(m[1]);
}

describe('SAML sign-in with a signed assertion', () => {
  it('accepts an assertion signed by the configured IdP and hands a working session to the opener', async () => {
    await t.user({ email: 'saml.user@example.com', access: ['Reports'] });
    const r = await post(samlResponse({ email: 'saml.user@example.com' }));
    expect(r.statusCode).toBe(200);
    const msg = popupMessage(r.body);
    expect(msg.type).toBe('auth');
    const v = await t.app.inject({ method: 'GET', url: '/api/auth/validate', headers: { authorization: `Bearer ${msg.token}` } });
    expect(v.json().detail.access).toEqual(['Reports']);
  });

  it('refuses a tampered assertion, one signed by another key, for another audience, or expired', async () => {
    await t.user({ email: 'victim@example.com', access: ['superadmin'] });
    await t.user({ email: 'mallory@example.com' });
    const bad = [
      samlResponse({ email: 'mallory@example.com', tamper: (x) => x.replace('mallory@example.com', 'victim@example.com') }),
      samlResponse({ email: 'victim@example.com', keys: strangerKeys }),
      samlResponse({ email: 'victim@example.com', audience: 'https://another-app.test' }),
      samlResponse({ email: 'victim@example.com', notOnOrAfter: new Date(Date.now() - 5 * 60_000) }),
      Buffer.from('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>').toString('base64'),
      'not base64 XML at all',
    ];
    for (const [i, response] of bad.entries()) {
      const r = await post(response);
      expect([i, r.statusCode, popupMessage(r.body)]).toEqual([i, 400, { type: 'auth-error', message: 'Sign-in with SAML did not complete: the identity provider\'s answer could not be verified' }]);
    }
  });

  it('refuses the same assertion posted twice', async () => {
    await t.user({ email: 'twice@example.com' });
    const response = samlResponse({ email: 'twice@example.com' });
    expect(popupMessage((await post(response)).body).type).toBe('auth');
    expect(popupMessage((await post(response)).body)).toEqual({ type: 'auth-error', message: 'Sign-in with SAML did not complete: this answer was already used' });
  });

  it('applies the organisation\'s rules (SPEC 8)', async () => {
    const org = await t.store.insert('organisation', { name: 'No SSO', providers: ['email'], state: 1 });
    await t.user({ email: 'nosso@example.com', organisation: org.id });
    expect(popupMessage((await post(samlResponse({ email: 'nosso@example.com' }))).body).message).toBe('SAML not configured for this organization');
    expect(popupMessage((await post(samlResponse({ email: 'ghost@example.com' }))).body).message).toBe('Account does not exist');
  });

  it('starts at the IdP with an AuthnRequest and publishes our metadata', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/provider/saml/start' });
    expect(start.statusCode).toBe(302);
    const to = new URL(String(start.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe('https://idp.test/sso');
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy();
    const meta = await t.app.inject({ method: 'GET', url: '/api/auth/provider/saml/metadata' });
    expect(meta.statusCode).toBe(200);
    expect(meta.body).toContain(`Location="${CALLBACK}"`);
  });

  it('checks InResponseTo against the requests it sent (kept in the store), once', async () => {
    await t.user({ email: 'sp.initiated@example.com' });
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/provider/saml/start' });
    const request = inflateRawSync(Buffer.from(new URL(String(start.headers.location)).searchParams.get('SAMLRequest')!, 'base64')).toString();
    const id = /\sID="([^"]+)"/.exec(request)![1];
    expect(popupMessage((await post(samlResponse({ email: 'sp.initiated@example.com', inResponseTo: `${id}x` }))).body).type).toBe('auth-error');
    expect(popupMessage((await post(samlResponse({ email: 'sp.initiated@example.com', inResponseTo: id }))).body).type).toBe('auth');
    expect(popupMessage((await post(samlResponse({ email: 'sp.initiated@example.com', inResponseTo: id }))).body).type).toBe('auth-error');
  });

  it('refuses a body that is not the SAML form, and JSON on this route', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/auth/provider/saml/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'RelayState=x' });
    expect(r.statusCode).toBe(400);
    const big = await t.app.inject({ method: 'POST', url: '/api/auth/provider/saml/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `SAMLResponse=${'A'.repeat(2 * 1024 * 1024)}` });
    expect(big.statusCode).toBe(413);
  });
});
