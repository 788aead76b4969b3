import { resolve } from 'node:path';
import { readImportLimits, type ImportLimits } from './imports/limits';
import { readEpcisLimits, type EpcisLimits } from './epcis/limits';
import { readAuthorityConfig, type AuthorityConfig } from './sync/authority/settings';
import { readSyncWorkerConfig, type SyncWorkerConfig } from './sync/workerSettings';

/** Settings from the environment; secrets are read here and nowhere else. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  mongodbUri?: string;
  /** SEARCH_READERS: embedded store threads that run searches off the event loop (0: none). */
  searchReaders: number;
  root: string;
  bodyLimit: number;
  logLevel: string;
  adminEmail: string;
  adminPassword: string;
  smtpUrl?: string;
  publicUrl: string;
  /** PUBLIC_URL's origin when PUBLIC_URL is set; unset, the shell's origin is each request's own (the feature frame follows it). */
  publicOrigin?: string;
  /**
   * Fastify's trustProxy (TRUST_PROXY): behind a reverse proxy, true, a hop count or the
   * proxies' addresses, so request.ip (sign-in rate limits) is the client's, not the proxy's.
   */
  trustProxy: boolean | number | string;
  identity: IdentityConfig;
  /** IMPORT_MAX_FILE_MB, IMPORT_MAX_CONTENT_MB, IMPORT_MAX_ROWS, IMPORT_MAX_ATTEMPTS (docs/imports.md). */
  imports: ImportLimits;
  /** AUTHORITY_BASE_URL, AUTHORITY_USER, AUTHORITY_PASSWORD, AUTHORITY_TIMEOUT_MS (docs/authority.md). */
  authority: AuthorityConfig;
  /** BLOCKCHAIN_ANCHOR_URL: the anchoring service the ledger's Merkle roots go to (docs/chain.md); unset, anchorings are recorded as failed. */
  anchorUrl?: string;
  /** SYNC_WORKER ("off" disables it), SYNC_LEASE_MS, SYNC_POLL_MS, SYNC_CONCURRENCY, SYNC_BACKOFF_* (docs/authority.md). */
  syncWorker: SyncWorkerConfig;
  /** METRICS_TOKEN: the bearer token of Prometheus scrapers on /metrics (docs/operations.md). */
  metricsToken?: string;
  /** EPCIS_CAPTURE_LIMIT, EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB, EPCIS_MAX_PER_PAGE (docs/epcis.md). */
  epcis: EpcisLimits;
}

/** One OpenID Connect (or plain OAuth 2) sign-in provider, from OIDC_<ID>_* variables. */
export interface OidcProviderConfig {
  /** Discovery: the provider's issuer identifier (https; http only on loopback). */
  issuer?: string;
  /** Without an issuer (plain OAuth 2 providers): the three endpoints, given one by one. */
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  clientId: string;
  clientSecret?: string;
  scope: string;
}

export interface SamlProviderConfig {
  /** The identity provider's single-sign-on URL (HTTP-Redirect binding). */
  entryPoint: string;
  /** PEM certificate(s) the IdP signs with; several separated by blank lines during a rollover. */
  idpCert: string[];
  /** Our entity id as the IdP knows it. */
  issuer: string;
  /** The IdP's entity id, checked when set. */
  idpIssuer?: string;
  /** The audience the assertion must name; our entity id unless set. */
  audience: string;
}

export interface AttemptLimit {
  max: number;
  windowMs: number;
}

/** Sign-in, reset and provider settings (docs/identity.md). */
export interface IdentityConfig {
  mailFrom: string;
  /** Failed sign-ins allowed per account and per client address in a window. */
  signInPerAccount: AttemptLimit;
  signInPerAddress: AttemptLimit;
  /** Reset e-mails asked per account and per address in a window (mail-bombing guard). */
  resetPerAccount: AttemptLimit;
  resetPerAddress: AttemptLimit;
  oidc: Record<string, OidcProviderConfig>;
  saml?: SamlProviderConfig;
}

export function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

const MINUTE = 60_000;

function limit(env: NodeJS.ProcessEnv, name: string, max: number, windowMs: number): AttemptLimit {
  return { max: int(env[`${name}_MAX`], max, `${name}_MAX`), windowMs: int(env[`${name}_WINDOW_MS`], windowMs, `${name}_WINDOW_MS`) };
}

/** A PEM given inline (newlines may be written as \n, as env files need). */
function pems(value: string): string[] {
  return value.replace(/\\n/g, '\n').split(/\n\s*\n(?=-----BEGIN)/).map((p) => p.trim()).filter(Boolean);
}

/** Every OIDC_<ID>_CLIENT_ID names a provider `<id>` (lower case), matching deployment signIn.providers ids. */
function readOidc(env: NodeJS.ProcessEnv): Record<string, OidcProviderConfig> {
  const out: Record<string, OidcProviderConfig> = {};
  for (const key of Object.keys(env)) {
    const m = /^OIDC_([A-Z0-9]+)_CLIENT_ID$/.exec(key);
    if (!m || !env[key]) continue;
    const v = (suffix: string) => env[`OIDC_${m[1]}_${suffix}`] || undefined;
    const cfg: OidcProviderConfig = {
      issuer: v('ISSUER'),
      authorizationEndpoint: v('AUTHORIZATION_ENDPOINT'),
      tokenEndpoint: v('TOKEN_ENDPOINT'),
      userinfoEndpoint: v('USERINFO_ENDPOINT'),
      clientId: env[key]!,
      clientSecret: v('CLIENT_SECRET'),
      scope: v('SCOPE') ?? 'openid email profile',
    };
    if (!cfg.issuer && !(cfg.authorizationEndpoint && cfg.tokenEndpoint && cfg.userinfoEndpoint)) {
      throw new Error(`OIDC_${m[1]}_ISSUER (or its AUTHORIZATION_, TOKEN_ and USERINFO_ENDPOINT) must be set with OIDC_${m[1]}_CLIENT_ID`);
    }
    out[m[1].toLowerCase()] = cfg;
  }
  return out;
}

function readSaml(env: NodeJS.ProcessEnv, publicUrl: string): SamlProviderConfig | undefined {
  if (!env.SAML_ENTRY_POINT) return undefined;
  if (!env.SAML_IDP_CERT) throw new Error('SAML_IDP_CERT must be set with SAML_ENTRY_POINT');
  const issuer = env.SAML_ISSUER || publicUrl;
  return { entryPoint: env.SAML_ENTRY_POINT, idpCert: pems(env.SAML_IDP_CERT), issuer, idpIssuer: env.SAML_IDP_ISSUER || undefined, audience: env.SAML_AUDIENCE || issuer };
}

export function readIdentityConfig(env: NodeJS.ProcessEnv, publicUrl: string): IdentityConfig {
  return {
    mailFrom: env.MAIL_FROM || `Traceability Platform <no-reply@${new URL(publicUrl).hostname}>`,
    signInPerAccount: limit(env, 'SIGN_IN_ACCOUNT_LIMIT', 5, 15 * MINUTE),
    signInPerAddress: limit(env, 'SIGN_IN_ADDRESS_LIMIT', 20, 15 * MINUTE),
    resetPerAccount: limit(env, 'RESET_ACCOUNT_LIMIT', 3, 15 * MINUTE),
    resetPerAddress: limit(env, 'RESET_ADDRESS_LIMIT', 10, 15 * MINUTE),
    oidc: readOidc(env),
    saml: readSaml(env, publicUrl),
  };
}

function readTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Long and plain enough to travel as a bearer token, and to be worth guessing for nobody. */
function readMetricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^[A-Za-z0-9_\-.~+/=]{24,512}$/.test(value)) throw new Error('METRICS_TOKEN must be 24 to 512 characters of letters, digits and -._~+/=');
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = int(env.PORT, 3000, 'PORT');
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicUrl)) throw new Error(`PUBLIC_URL must be an absolute URL such as https://traceability.example.com, got "${publicUrl}"`);
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    mongodbUri: env.MONGODB_URI || undefined,
    searchReaders: int(env.SEARCH_READERS, 1, 'SEARCH_READERS'),
    root: resolve(env.APP_ROOT || '.'),
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    logLevel: env.LOG_LEVEL || 'info',
    adminEmail: env.ADMIN_EMAIL || 'admin@demo.local',
    adminPassword: env.ADMIN_PASSWORD || 'Demo-admin-2026',
    smtpUrl: env.SMTP_URL || undefined,
    anchorUrl: env.BLOCKCHAIN_ANCHOR_URL || undefined,
    publicUrl,
    publicOrigin: env.PUBLIC_URL ? new URL(publicUrl).origin : undefined,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    identity: readIdentityConfig(env, publicUrl),
    imports: readImportLimits(env),
    authority: readAuthorityConfig(env),
    syncWorker: readSyncWorkerConfig(env),
    metricsToken: readMetricsToken(env.METRICS_TOKEN),
    epcis: readEpcisLimits(env),
  };
}
