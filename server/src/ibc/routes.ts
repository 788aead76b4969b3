import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { startIbcAlertJob } from './alerts';
import { registerIbcHooks } from './hooks';
import { IbcMeasures, type HoldingsQuery } from './measures';
import { keysFor } from './operationKeys';
import { eventsAnswer, eventsQuery, holdingsAnswer, holdingsQuery, idParam, listAnswer, listQuery, lookupAnswer, lookupQuery, measuresAnswer } from './schemas';
import { IbcService, type IbcListQuery } from './service';
import { EventSummaries, ibcCollections } from './summary';

/** The ibc workflow's key and the IBC inventory screen's. */
const IBC_KEYS = ['ibcTraceability', 'IBC Inventory'];

/**
 * The IBC capability: look-up by serial or NFC tag, an IBC's log, the IBC list with the fleet
 * filters, customer holdings and fleet measures; and the ADR dates and alerts job.
 */
export async function ibcRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; alertIntervalMs?: number; alertJob?: boolean }): Promise<void> {
  for (const spec of ibcCollections(opts.registry)) await opts.store.ensureCollection(spec);
  registerIbcHooks(app.writeHooks, opts.registry);
  const service = new IbcService(opts.registry, opts.store);
  const summaries = new EventSummaries(opts.store);
  const measures = new IbcMeasures(opts.registry, opts.store, summaries);
  const uncache = app.caches.register({
    name: 'ibc-event-summary', description: 'The IBC event log folded into fleet measures',
    entries: () => (summaries.kept ? 1 : 0), clear: () => summaries.forget(),
  });
  app.addHook('onClose', async () => { uncache(); });
  const readIbc = keysFor(opts.registry, IBC_KEYS, ['getIBC']);
  const inventory = keysFor(opts.registry, IBC_KEYS, ['ibcInventory', 'getListOfAllIbc']);
  const tags = ['IBC'];

  app.get('/api/v3/ibc/lookup', { config: { access: readIbc }, schema: { tags, summary: 'An IBC by serial number or NFC tag', querystring: lookupQuery, response: lookupAnswer } }, async (request) =>
    service.lookup(request.query as { serial?: string; nfc?: string }, request.principal!));
  app.get('/api/v3/ibc/holdings', { config: { access: inventory }, schema: { tags, summary: 'IBCs taken, returned and to return per customer, and the mean days held', querystring: holdingsQuery, response: holdingsAnswer } }, async (request) =>
    ({ data: await measures.holdings(request.query as HoldingsQuery) }));
  app.get('/api/v3/ibc/measures', { config: { access: inventory }, schema: { tags, summary: 'Fleet measures: status counts, cycle time, dwell, turns, fill counts, losses, ADR dates', response: measuresAnswer } }, async () =>
    measures.fleet());
  app.get('/api/v3/ibc', { config: { access: inventory }, schema: { tags, summary: 'IBCs by status, customer, fill count and age', querystring: listQuery, response: listAnswer } }, async (request: FastifyRequest) =>
    service.list(request.query as IbcListQuery, request.principal!));
  app.get('/api/v3/ibc/:id/events', { config: { access: readIbc }, schema: { tags, summary: 'An IBC\'s life-cycle log, newest first', params: idParam, querystring: eventsQuery, response: eventsAnswer } }, async (request) => {
    const q = request.query as { page?: number; pageSize?: number };
    return service.events((request.params as { id: string }).id, request.principal!, q.page, q.pageSize);
  });

  // A bench measuring the routes runs the pass itself, not beside its measurements.
  if (opts.alertJob === false) return;
  const job = startIbcAlertJob(opts.store, opts.registry, app.log, opts.alertIntervalMs);
  app.addHook('onClose', () => job.stop());
}
