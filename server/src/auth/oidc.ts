import * as client from 'openid-client';
import type { OidcProviderConfig } from '../config';
import type { FlowSecrets } from './flows';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is accepted only on loopback (a provider run for tests or development), never across a network. */
function allowHttp(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'https:') return false;
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return true;
  throw new Error(`${url}: an OpenID provider must be reached over https (http only on loopback)`);
}

export class ProviderError extends Error {}

/**
 * Authorization-code flows with PKCE (and a nonce when the provider speaks OpenID Connect)
 * against the providers of OIDC_<ID>_* settings, through openid-client.
 */
export class OidcClients {
  private readonly configs = new Map<string, Promise<client.Configuration>>();

  constructor(private readonly settings: Readonly<Record<string, OidcProviderConfig>>) {}

  /** Providers whose discovery is kept (the cache manager). */
  get discovered(): number {
    return this.configs.size;
  }

  /** Forgets every discovery: the next sign-in discovers its provider again (keys rotated, endpoints moved). */
  forget(): void {
    this.configs.clear();
  }

  has(id: string): boolean {
    return Object.hasOwn(this.settings, id);
  }

  /** Discovered once and kept; a failed discovery is forgotten so the next sign-in tries again. */
  private configuration(id: string): Promise<client.Configuration> {
    let c = this.configs.get(id);
    if (!c) {
      c = this.discover(this.settings[id]);
      c.catch(() => this.configs.delete(id));
      this.configs.set(id, c);
    }
    return c;
  }

  private async discover(s: OidcProviderConfig): Promise<client.Configuration> {
    if (s.issuer) {
      const insecure = allowHttp(s.issuer);
      return client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, insecure ? { execute: [client.allowInsecureRequests] } : undefined);
    }
    // Plain OAuth 2 (no discovery, no ID token): the endpoints come one by one from the settings.
    const insecure = [s.authorizationEndpoint!, s.tokenEndpoint!, s.userinfoEndpoint!].map(allowHttp).some(Boolean);
    const config = new client.Configuration({
      issuer: new URL(s.authorizationEndpoint!).origin,
      authorization_endpoint: s.authorizationEndpoint,
      token_endpoint: s.tokenEndpoint,
      userinfo_endpoint: s.userinfoEndpoint,
    }, s.clientId, s.clientSecret);
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  static secrets(): FlowSecrets {
    return { verifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
  }

  async authorizationUrl(id: string, redirectUri: string, state: string, secrets: FlowSecrets): Promise<URL> {
    const config = await this.configuration(id);
    const s = this.settings[id];
    const params: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: s.scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(secrets.verifier),
      code_challenge_method: 'S256',
    };
    if (s.issuer) params.nonce = secrets.nonce;
    return client.buildAuthorizationUrl(config, params);
  }

  /** Exchanges the code and returns the account's e-mail, or throws ProviderError with the reason. */
  async emailFrom(id: string, callbackUrl: URL, state: string, secrets: FlowSecrets): Promise<string | null> {
    const config = await this.configuration(id);
    const s = this.settings[id];
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: secrets.verifier,
        expectedState: state,
        ...(s.issuer ? { expectedNonce: secrets.nonce, idTokenExpected: true } : {}),
      });
    } catch (e) {
      throw new ProviderError(e instanceof client.AuthorizationResponseError ? e.error : 'the provider refused the sign-in');
    }
    const claims = tokens.claims();
    let info: Record<string, unknown> | undefined = claims;
    if (!claims || typeof claims.email !== 'string') {
      info = s.issuer && claims
        ? await client.fetchUserInfo(config, tokens.access_token, claims.sub)
        : await (await client.fetchProtectedResource(config, tokens.access_token, new URL(s.userinfoEndpoint!), 'GET')).json() as Record<string, unknown>;
    }
    // An address the provider says it has not verified proves nothing about who signs in.
    if (typeof info?.email !== 'string' || info.email_verified === false) return null;
    return info.email;
  }
}
