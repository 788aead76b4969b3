import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formOf, localize, toJsonSchema, type Registry } from '../../../engine/src/index';
import { keysGranting, transitionKeys, workflowKeys } from '../../../engine/src/workflow/access';
import { listAnswer, requestLang } from '../routes/masterdata';
import { readersOf } from './readers';
import type { Store } from '../store/types';
import { fefoBatches, movementRows, stockLevels, type StockQuery } from '../ledger/stock';
import { ENGINE, OperationService, type OperationListQuery, type WorkflowEngine } from './service';
import {
  batchesAnswer, batchesQuery, idParam, movementsQuery, operationListQuery, stockAnswer, stockQuery, transitionBody, transitionParams,
} from './schemas';

/** The key of the stock screens and API (SPEC 7 productTraceability). */
export const STOCK_KEY = 'productTraceability';

/**
 * The operations API: five routes per workflow and one per transition (so each shows in the
 * OpenAPI document and each transition is refused without its own key by the access plugin),
 * and the stock routes. Transitions stopped by a crash are completed before the first request.
 */
export async function operationRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; engine?: WorkflowEngine }): Promise<void> {
  const service = new OperationService(opts.registry, opts.store, opts.engine ?? ENGINE, undefined, app.writeHooks);
  const recovered = await service.applier.recover();
  if (recovered > 0) app.log.warn({ recovered }, 'completed transitions interrupted by a crash');
  const principal = (request: FastifyRequest) => request.principal!;
  const params = (request: FastifyRequest) => request.params as { id: string; transition?: string };

  for (const wf of Object.values(opts.registry.workflows)) {
    const base = `/api/v3/operations/${wf.name}`;
    const access = workflowKeys(opts.registry, wf, 'draft');
    const readers = readersOf(opts.registry, wf);
    const tags = [localize(wf.label)];
    const docBody = toJsonSchema(formOf(opts.registry, wf.entity)!);
    delete docBody.$schema;

    app.get(base, { config: { access: readers }, schema: { tags, summary: `List ${wf.name} operations`, querystring: operationListQuery, response: listAnswer } }, async (request) =>
      service.list(wf.name, request.query as OperationListQuery, principal(request)));
    app.get(`${base}/:id`, { config: { access: readers }, schema: { tags, summary: `Read one ${wf.name} and the transitions you may take now`, params: idParam } }, async (request) =>
      service.get(wf.name, params(request).id, principal(request), requestLang(request)));
    app.post(base, { config: { access, docBody }, schema: { tags, summary: `Create a ${wf.name} in ${wf.initial}` } }, async (request, reply) =>
      reply.status(201).send(await service.create(wf.name, request.body, principal(request), requestLang(request))));
    app.put(`${base}/:id`, { config: { access, docBody }, schema: { tags, summary: `Edit a ${wf.name} while in ${wf.initial}`, params: idParam } }, async (request) =>
      service.update(wf.name, params(request).id, request.body, principal(request), requestLang(request)));
    for (const t of wf.transitions) {
      app.post(`${base}/:id/transitions/${t.id}`, {
        config: { access: transitionKeys(opts.registry, t) },
        schema: { tags, summary: `${localize(t.label)}: ${t.from.join(' | ')} → ${t.to ?? 'the same state'}`, params: idParam, body: transitionBody },
      }, async (request) => service.transition(wf.name, params(request).id, t.id, request.body as never, principal(request), requestLang(request)));
    }
    // A transition the workflow does not have: named in a 409 with the record's state, like one not allowed from it.
    app.post(`${base}/:id/transitions/:transition`, { config: { access }, schema: { hide: true, params: transitionParams, body: transitionBody } }, async (request) =>
      service.transition(wf.name, params(request).id, params(request).transition!, request.body as never, principal(request), requestLang(request)));
  }

  // Unknown workflows answer 404 naming it, rather than a bare route miss.
  const unknown = async (request: FastifyRequest) => service.workflow((request.params as { wf: string }).wf.slice(0, 60));
  app.get('/api/v3/operations/:wf', { config: { access: null }, schema: { hide: true } }, unknown);
  app.get('/api/v3/operations/:wf/:id', { config: { access: null }, schema: { hide: true } }, unknown);
  app.post('/api/v3/operations/:wf', { config: { access: null }, schema: { hide: true } }, unknown);
  app.put('/api/v3/operations/:wf/:id', { config: { access: null }, schema: { hide: true } }, unknown);
  app.post('/api/v3/operations/:wf/:id/transitions/:transition', { config: { access: null }, schema: { hide: true } }, unknown);

  const stockTags = ['Stock'];
  // Besides its own key, any key listing the stock read (a handheld's product inventory, SPEC 6).
  const stockKeys = [STOCK_KEY, ...keysGranting(opts.registry.access, ['inventory'])];
  // Like the operations lists: a selected warehouse group narrows stock to its deposits.
  const scope = async (request: FastifyRequest) => (await service.warehouse(principal(request)))?.divisions;
  app.get('/api/v3/stock', { config: { access: stockKeys }, schema: { tags: stockTags, summary: 'Stock by material, batch and deposit, now or at a past date', querystring: stockQuery, response: stockAnswer } }, async (request) =>
    stockLevels(opts.store, request.query as StockQuery, await scope(request)));
  app.get('/api/v3/stock/batches', { config: { access: stockKeys }, schema: { tags: stockTags, summary: 'Batches of a material with stock, first expired first', querystring: batchesQuery, response: batchesAnswer } }, async (request) =>
    ({ data: await fefoBatches(opts.store, request.query as { material: string; deposit?: string }, await scope(request)) }));
  app.get('/api/v3/stock/movements', { config: { access: stockKeys }, schema: { tags: stockTags, summary: 'The stock ledger, newest first', querystring: movementsQuery, response: listAnswer } }, async (request) =>
    movementRows(opts.store, request.query as { material?: string }, await scope(request)));
}
