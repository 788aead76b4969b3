import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';

interface RouteShape {
  pattern: RegExp;
  methods: Set<string>;
}

/** A route path (`/api/x/:id`, `/t/:entity.csv`) as a regular expression over concrete paths. */
function patternOf(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z0-9_]+)/).map((p) => (p.startsWith(':') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}/?$`);
}

const shapes = new WeakMap<FastifyInstance, Map<string, RouteShape>>();

/**
 * Remembers which methods each route path answers, so that a request whose path exists under
 * other methods (TRACE /api/health) is a 405 naming them, not a 404. Catch-all routes (`*`)
 * are not resources and are left out. Register before the routes.
 */
export const routeMethodsPlugin = fp(async (app: FastifyInstance) => {
  const byUrl = new Map<string, RouteShape>();
  shapes.set(app, byUrl);
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const shape = byUrl.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) shape.methods.add(m);
    byUrl.set(route.url, shape);
  });
});

/** Answers 405 with an Allow header when the path has routes under other methods; false when it has none. */
export function sendMethodNotAllowed(request: FastifyRequest, reply: FastifyReply): boolean {
  const byUrl = shapes.get(request.server);
  if (!byUrl) return false;
  const path = request.url.split('?')[0];
  const allowed = new Set<string>();
  for (const s of byUrl.values()) if (s.pattern.test(path)) for (const m of s.methods) allowed.add(m);
  if (allowed.size === 0 || allowed.has(request.method)) return false;
  const list = [...allowed].sort().join(', ');
  void reply.status(405).header('allow', list).send(new ApiError('METHOD_NOT_ALLOWED', { method: request.method.slice(0, 20), url: path.slice(0, 200), allowed: list }).toBody());
  return true;
}
