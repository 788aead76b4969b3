import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/types';

export async function healthRoutes(app: FastifyInstance, opts: { store: Store }): Promise<void> {
  app.get('/api/health', {
    config: { public: true },
    schema: { tags: ['System'], summary: 'Liveness and the store in use' },
  }, async () => ({ status: 'ok', store: opts.store.kind }));
}
