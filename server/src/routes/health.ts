import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/types';

const checkSchema = {
  type: 'object',
  required: ['name', 'ok', 'ms'],
  properties: { name: { type: 'string' }, ok: { type: 'boolean' }, ms: { type: 'number' }, reason: { type: 'string' } },
} as const;
const readySchema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: { status: { type: 'string', enum: ['ready', 'not ready'] }, checks: { type: 'array', items: checkSchema } },
} as const;

export async function healthRoutes(app: FastifyInstance, opts: { store: Store }): Promise<void> {
  app.get('/api/health', {
    config: { public: true },
    schema: { tags: ['System'], summary: 'Liveness and the store in use' },
  }, async () => ({ status: 'ok', store: opts.store.kind }));

  // Probes (a load balancer, Kubernetes) have no session; the answer names checks, never data.
  app.get('/api/ready', {
    config: { public: true },
    schema: {
      tags: ['System'],
      summary: 'Readiness: the store answers and every background worker is alive; 503 naming what failed',
      response: { 200: readySchema, 503: readySchema },
    },
  }, async (_request, reply) => {
    const { ready, checks } = await app.readiness.run();
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
}
