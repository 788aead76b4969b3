import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canAccess } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal, Authenticator } from '../auth/principal';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The access key the route needs, or a list of which any one will do; null: any signed-in user. */
    access?: string | readonly string[] | null;
    /** No sign-in needed. */
    public?: boolean;
    /** Narrowed by the selected warehouse group (SPEC 6). */
    customerModule?: boolean;
    /**
     * A query parameter carrying a mailed link's token (a scheduled report's download): a request
     * with it needs no sign-in, the handler checks the token; without it the route is as `access` says.
     */
    linkToken?: string;
    /** A machine's bearer token (a metrics scraper) that passes instead of a session; unset, only sessions do. */
    machineToken?: string;
  }
  interface FastifyRequest {
    principal: AuthPrincipal | null;
  }
}

/** Where the selected warehouse group travels with each request (SPEC 6 narrowing). */
export const WAREHOUSE_HEADER = 'x-warehouse-group';

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+([A-Za-z0-9_\-.~+/=]{10,512})$/.exec(h);
  return m?.[1];
}

/** Compared in constant time, whatever the lengths. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * The one access check. Every route declares `public`, or `access` (a key, or null for any
 * signed-in user); a route that declares neither is refused, so forgetting fails closed.
 */
export const accessPlugin = fp(async (app: FastifyInstance, opts: { authenticator: Authenticator; superadmin: string; customerKeys?: readonly string[] }) => {
  // A key declared customerModule in access.json narrows every route that needs it, so no route can forget to.
  const customerKeys = new Set(opts.customerKeys ?? []);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config ?? {};
    const isNotFound = request.routeOptions.url === undefined;
    if (config.public || isNotFound) return;
    if (config.linkToken && typeof (request.query as Record<string, unknown> | undefined)?.[config.linkToken] === 'string') return;
    const token = bearer(request);
    if (config.machineToken && token && sameSecret(token, config.machineToken)) return;
    const found = token ? await opts.authenticator.resolve(token) : null;
    if (!found) throw new ApiError('UNAUTHENTICATED');
    const header = request.headers[WAREHOUSE_HEADER];
    const selectedWarehouse = typeof header === 'string' && header.length <= 200 ? safeDecode(header) : null;
    const principal: AuthPrincipal = { ...found, selectedWarehouse };
    request.principal = principal;
    if (config.access === null) return;
    if (config.access === undefined) {
      request.log.error({ route: request.routeOptions.url }, 'route declares no access: refused');
      throw new ApiError('FORBIDDEN', { key: '(undeclared)' });
    }
    const keys = typeof config.access === 'string' ? [config.access] : config.access;
    if (!keys.some((key) => canAccess(principal, { key, customerModule: config.customerModule ?? customerKeys.has(key) }, opts.superadmin))) {
      throw keys.length === 1 ? new ApiError('FORBIDDEN', { key: keys[0] }) : new ApiError('FORBIDDEN_ANY', { keys: keys.join(', ') });
    }
  });
});
