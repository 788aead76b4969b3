import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('readConfig: identity settings', () => {
  it('reads each OIDC_<ID>_* provider under its lower-case id, and plain OAuth 2 endpoints', () => {
    const c = readConfig({
      OIDC_GOOGLE_CLIENT_ID: 'g-client', OIDC_GOOGLE_CLIENT_SECRET: 'g-secret', OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_FACEBOOK_CLIENT_ID: 'f-client', OIDC_FACEBOOK_AUTHORIZATION_ENDPOINT: 'https://www.facebook.com/dialog/oauth',
      OIDC_FACEBOOK_TOKEN_ENDPOINT: 'https://graph.facebook.com/oauth/access_token', OIDC_FACEBOOK_USERINFO_ENDPOINT: 'https://graph.facebook.com/me?fields=email', OIDC_FACEBOOK_SCOPE: 'email',
    });
    expect(c.identity.oidc.google).toEqual({ issuer: 'https://accounts.google.com', clientId: 'g-client', clientSecret: 'g-secret', scope: 'openid email profile' });
    expect(c.identity.oidc.facebook).toMatchObject({ issuer: undefined, clientId: 'f-client', scope: 'email', userinfoEndpoint: 'https://graph.facebook.com/me?fields=email' });
  });

  it('refuses to start on an incomplete provider or a bad public URL, naming the setting', () => {
    expect(() => readConfig({ OIDC_GITHUB_CLIENT_ID: 'x' })).toThrow(/OIDC_GITHUB_ISSUER/);
    expect(() => readConfig({ SAML_ENTRY_POINT: 'https://idp.test/sso' })).toThrow(/SAML_IDP_CERT/);
    expect(() => readConfig({ PUBLIC_URL: 'app.example.com' })).toThrow(/PUBLIC_URL must be an absolute URL/);
    expect(() => readConfig({ SIGN_IN_ACCOUNT_LIMIT_MAX: 'many' })).toThrow(/SIGN_IN_ACCOUNT_LIMIT_MAX must be a whole number/);
  });

  it('reads SAML certificates written on one line, several during a rollover, and defaults our entity id to the public URL', () => {
    const pem = (n: string) => `-----BEGIN CERTIFICATE-----\\nMII${n}\\n-----END CERTIFICATE-----`;
    const c = readConfig({ PUBLIC_URL: 'https://trace.example.com/', SAML_ENTRY_POINT: 'https://idp.test/sso', SAML_IDP_CERT: `${pem('A')}\\n\\n${pem('B')}` });
    expect(c.publicUrl).toBe('https://trace.example.com');
    expect(c.identity.saml).toEqual({
      entryPoint: 'https://idp.test/sso', issuer: 'https://trace.example.com', audience: 'https://trace.example.com', idpIssuer: undefined,
      idpCert: ['-----BEGIN CERTIFICATE-----\nMIIA\n-----END CERTIFICATE-----', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'],
    });
  });

  it('has the documented limits by default', () => {
    const { identity } = readConfig({});
    expect([identity.signInPerAccount, identity.signInPerAddress, identity.resetPerAccount, identity.resetPerAddress]).toEqual([
      { max: 5, windowMs: 900_000 }, { max: 20, windowMs: 900_000 }, { max: 3, windowMs: 900_000 }, { max: 10, windowMs: 900_000 },
    ]);
    expect(identity.mailFrom).toBe('Traceability Platform <no-reply@127.0.0.1>');
  });

  it('reads TRUST_PROXY as Fastify takes it', () => {
    expect(['', 'true', '1', '10.0.0.0/8,127.0.0.1'].map((v) => readConfig({ TRUST_PROXY: v }).trustProxy)).toEqual([false, true, 1, '10.0.0.0/8,127.0.0.1']);
  });

  it('takes a METRICS_TOKEN that travels as a bearer token and is long enough, and refuses to start with another', () => {
    expect(readConfig({}).metricsToken).toBeUndefined();
    expect(readConfig({ METRICS_TOKEN: 'a'.repeat(24) }).metricsToken).toBe('a'.repeat(24));
    expect(() => readConfig({ METRICS_TOKEN: 'short-token' })).toThrow(/METRICS_TOKEN must be 24 to 512 characters/);
    expect(() => readConfig({ METRICS_TOKEN: `${'a'.repeat(24)} b` })).toThrow(/METRICS_TOKEN/);
  });
});
