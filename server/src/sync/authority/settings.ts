/**
 * Where the authority is and how to sign in (docs/authority.md): AUTHORITY_BASE_URL (else the
 * deployment's integrations.authority.baseUrl), AUTHORITY_USER, AUTHORITY_PASSWORD,
 * AUTHORITY_TIMEOUT_MS. Credentials come from the environment only, never the deployment.
 */
import type { HttpAuthorityOptions } from './http';

export interface AuthorityConfig {
  /** AUTHORITY_BASE_URL: overrides the deployment's base URL. */
  baseUrl?: string;
  user?: string;
  password?: string;
  /** AUTHORITY_TIMEOUT_MS: one call, connection to answer (default 10 s). */
  timeoutMs: number;
}

export const DEFAULT_AUTHORITY_TIMEOUT_MS = 10_000;

/** Why `url` cannot be the authority's base URL, or undefined when it can. */
export function badBaseUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return `must be an absolute URL such as https://authority.example.gob.ar/api, got "${url}"`;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be http or https, got ${u.protocol}`;
  if (u.username || u.password) return 'must not carry credentials: set AUTHORITY_USER and AUTHORITY_PASSWORD';
  return undefined;
}

export function readAuthorityConfig(env: NodeJS.ProcessEnv): AuthorityConfig {
  const baseUrl = env.AUTHORITY_BASE_URL || undefined;
  const wrong = baseUrl && badBaseUrl(baseUrl);
  if (wrong) throw new Error(`AUTHORITY_BASE_URL ${wrong}`);
  const timeout = env.AUTHORITY_TIMEOUT_MS;
  const timeoutMs = timeout ? Number(timeout) : DEFAULT_AUTHORITY_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new Error(`AUTHORITY_TIMEOUT_MS must be a whole number of at least 1, got "${timeout}"`);
  return { baseUrl, user: env.AUTHORITY_USER || undefined, password: env.AUTHORITY_PASSWORD || undefined, timeoutMs };
}

/**
 * The adapter's options from the environment and the deployment's integrations, or why the
 * authority is not configured (no base URL, no credentials): then nothing can be sent.
 */
export function authorityOptions(config: AuthorityConfig, integrations: Record<string, unknown> | undefined): HttpAuthorityOptions | { missing: string } {
  const fromDeployment = (integrations?.authority as { baseUrl?: unknown } | undefined)?.baseUrl;
  const baseUrl = config.baseUrl ?? (typeof fromDeployment === 'string' && fromDeployment ? fromDeployment : undefined);
  if (!baseUrl) return { missing: 'no base URL: set AUTHORITY_BASE_URL or the deployment\'s integrations.authority.baseUrl' };
  const wrong = badBaseUrl(baseUrl);
  if (wrong) return { missing: `the deployment's integrations.authority.baseUrl ${wrong}` };
  if (!config.user || !config.password) return { missing: 'no credentials: set AUTHORITY_USER and AUTHORITY_PASSWORD' };
  return { baseUrl, user: config.user, password: config.password, timeoutMs: config.timeoutMs };
}
