import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiError } from '../apiError';

/** Serves the built web app; any non-API path falls back to index.html for the client router. */
export async function webRoutes(app: FastifyInstance, opts: { dist: string }): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true };
    });
    // Files are listed at start (wildcard: false) so that any other path reaches the client
    // router below; the start script builds before the server starts. Hashed assets are
    // cached for good and served pre-compressed (brotli/gzip written by the build).
    await scope.register(fastifyStatic, {
      root: opts.dist, prefix: '/', wildcard: false, index: false, preCompressed: true,
      setHeaders: (res, path) => {
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    scope.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        throw new ApiError('ROUTE_NOT_FOUND', { method: request.method, url: request.url.split('?')[0].slice(0, 200) });
      }
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', opts.dist);
    });
  });
}
