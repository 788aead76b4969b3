import type { FastifyInstance } from 'fastify';
import { ApiError } from '../apiError';
import { SqliteStore } from '../store/sqlite';
import type { Store } from '../store/types';

/** The cache manager's key (schemas/features.json cache-manager). */
export const CACHES_ACCESS = 'Monitoring';

const cacheItem = {
  type: 'object',
  required: ['name', 'description', 'entries'],
  properties: { name: { type: 'string' }, description: { type: 'string' }, entries: { type: 'integer' } },
} as const;
const listAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: cacheItem } } } } as const;
const clearedAnswer = { 200: { type: 'object', required: ['cleared', 'data'], properties: { cleared: { type: 'array', items: { type: 'string' } }, data: { type: 'array', items: cacheItem } } } } as const;
const nameParam = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 100 } } } as const;

/** /cache-manager's server half: the caches app.caches holds, with their entries, cleared one or all at once. */
export async function cacheRoutes(app: FastifyInstance, opts: { store: Store }): Promise<void> {
  const { store } = opts;
  if (store instanceof SqliteStore) {
    const uncache = app.caches.register({
      name: 'store-search', description: 'The embedded store\'s recent searches and counts (list screens\' search box)',
      entries: () => store.searchCache.size, clear: () => store.searchCache.clear(),
    });
    app.addHook('onClose', async () => { uncache(); });
  }
  const config = { access: CACHES_ACCESS };
  const tags = ['Monitoring'];
  app.get('/api/v3/caches', { config, schema: { tags, summary: 'The server\'s caches and how many entries each holds', response: listAnswer } }, async () =>
    ({ data: app.caches.list() }));
  app.post('/api/v3/caches/clear', { config, schema: { tags, summary: 'Clear every server cache', response: clearedAnswer } }, async (request) => {
    const cleared = await app.caches.clear();
    request.log.info({ cleared }, 'server caches cleared');
    return { cleared, data: app.caches.list() };
  });
  app.post('/api/v3/caches/:name/clear', { config, schema: { tags, summary: 'Clear one server cache', params: nameParam, response: clearedAnswer } }, async (request) => {
    const { name } = request.params as { name: string };
    if (!app.caches.has(name)) throw new ApiError('VALUE_NOT_FOUND', { entity: 'cache', label: 'name', value: name });
    const cleared = await app.caches.clear(name);
    request.log.info({ cleared }, 'server cache cleared');
    return { cleared, data: app.caches.list() };
  });
}
