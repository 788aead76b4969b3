import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiError } from '../apiError';

/** Serves the built web app; any non-API path falls back to index.html for the client router. */
export async function webRoutes(app: FastifyInstance, opts: { dist: string }): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true };
    });
    await scope.register(fastifyStatic, { root: opts.dist, prefix: '/', wildcard: false, index: false });
    scope.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        throw new ApiError('ROUTE_NOT_FOUND', { method: request.method, url: request.url.split('?')[0].slice(0, 200) });
      }
      return reply.type('text/html').sendFile('index.html', opts.dist);
    });
  });
}
