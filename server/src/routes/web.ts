import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiError } from '../apiError';

/** The mobile app's path (web/dist/m, issue 20): its own index.html, service worker and manifest. */
export const MOBILE_PREFIX = '/m/';

/**
 * Serves the built web app; any non-API path falls back to index.html for the client router,
 * and any path under /m/ to the mobile app's m/index.html (its service worker, m/sw.js, is a
 * listed file served with no-cache like every unhashed file, so an update is seen at once).
 */
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
      const path = request.url.split('?')[0];
      if (path === '/m') return reply.redirect(MOBILE_PREFIX, 301);
      const index = path.startsWith(MOBILE_PREFIX) ? 'm/index.html' : 'index.html';
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile(index, opts.dist);
    });
  });
}
