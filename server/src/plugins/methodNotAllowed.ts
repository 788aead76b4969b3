import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';

interface RouteShape {
  pattern: RegExp;
  /** Path parameters in the pattern: the fewer, the more specific the match. */
  params: number;
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
  // Before any body is read: a QUERY or PATCH to a path without it would otherwise fail on
  // its content type in the not-found route, a 400 instead of the 405.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 && sendMethodNotAllowed(request, reply)) return reply;
  });
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const shape = byUrl.get(route.url) ?? { pattern: patternOf(route.url), params: route.url.split(':').length - 1, methods: new Set<string>() };
    for (const m of [route.method].flat()) shape.methods.add(m);
    byUrl.set(route.url, shape);
  });
});

/** Answers 405 with an Allow header when the path has routes under other methods; false when it has none. */
export function sendMethodNotAllowed(request: FastifyRequest, reply: FastifyReply): boolean {
  const byUrl = shapes.get(request.server);
  if (!byUrl) return false;
  const path = request.url.split('?')[0];
  const matches = [...byUrl.values()].filter((s) => s.pattern.test(path));
  if (matches.length === 0) return false;
  // The resource the URL names is its most specific route (`/x/validate`, not `/x/:id`), as
  // the document lists it.
  const fewest = Math.min(...matches.map((s) => s.params));
  const allowed = new Set(matches.filter((s) => s.params === fewest).flatMap((s) => [...s.methods]));
  if (allowed.has(request.method)) return false;
  const list = [...allowed].sort().join(', ');
  void reply.status(405).header('allow', list).send(new ApiError('METHOD_NOT_ALLOWED', { method: request.method.slice(0, 20), url: path.slice(0, 200), allowed: list }).toBody());
  return true;
}
