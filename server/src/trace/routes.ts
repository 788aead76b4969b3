import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { requestLang } from '../routes/masterdata';
import type { Store } from '../store/types';
import { traceCollections } from './collections';
import { epcisDocument, exportName, traceCsv } from './exports';
import { allEvents, lotHistory, searchTraceable } from './listing';
import { sortRows, traceRows } from './rows';
import { csvQuery, epcisAnswer, eventsAnswer, eventsQuery, historyAnswer, historyQuery, searchAnswer, searchQuery, traceAnswer, traceQuery } from './schemas';
import { TraceService, type TraceQuery } from './service';

/**
 * Who may trace (the features showing it, schemas/features.json): the traceability map's key
 * for the trace and its exports; the events list's and the product history's keys besides, for
 * what those screens read.
 */
export const TRACE_KEYS = ['Traceability Map'];
export const EVENTS_KEYS = ['Traceability Map', 'Dashboards'];
export const HISTORY_KEYS = ['Traceability Map', 'Assets'];

type EventsQuery = TraceQuery & { page?: number; pageSize?: number; sort?: string; from?: string; to?: string };

/** The trace routes (docs/trace.md): a trace, its events, its CSV and EPCIS exports, a search to start from, a lot's history. */
export async function traceRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store }): Promise<void> {
  const { registry, store } = opts;
  for (const spec of traceCollections(registry)) await store.ensureCollection(spec);
  const service = new TraceService(registry, store);
  const tags = ['Trace and recall'];
  const principal = (request: FastifyRequest) => request.principal!;
  const visibleFor = async (request: FastifyRequest) => (await service.scope(principal(request))).visible;

  app.get('/api/v3/trace', {
    config: { access: TRACE_KEYS },
    schema: { tags, summary: 'Trace a lot, IBC or shipment backward and forward: the graph, its places and flows, and where it stops at your access', querystring: traceQuery, response: traceAnswer },
  }, async (request) => (await service.trace(principal(request), request.query as TraceQuery, requestLang(request))).answer);

  app.get('/api/v3/trace/events', {
    config: { access: EVENTS_KEYS },
    schema: { tags, summary: 'The events behind a trace, one row per event and lot, sortable and paged; without a trace, every event you may see', querystring: eventsQuery, response: eventsAnswer },
  }, async (request) => {
    const q = request.query as EventsQuery;
    const lang = requestLang(request);
    if (q.lot === undefined && q.ibc === undefined && q.shipment === undefined && q.material === undefined) return allEvents(registry, store, service, principal(request), q, lang);
    const trace = await service.trace(principal(request), q, lang);
    const rows = sortRows(traceRows(registry, trace, lang, await visibleFor(request)), q.sort);
    const page = q.page ?? 1;
    const pageSize = q.pageSize ?? 50;
    return { data: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length, page, pageSize, boundary: trace.answer.boundary };
  });

  app.get('/api/v3/trace/csv', {
    config: { access: TRACE_KEYS },
    schema: { tags, summary: 'The trace\'s events as a sortable CSV: one row per event and lot, with what, lot, quantity, unit, where from, where to, when and the reference document', querystring: csvQuery, produces: ['text/csv'] },
  }, async (request, reply) => {
    const q = request.query as TraceQuery & { sort?: string };
    const lang = requestLang(request);
    const trace = await service.trace(principal(request), q, lang);
    const rows = sortRows(traceRows(registry, trace, lang, await visibleFor(request)), q.sort);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${exportName(trace)}.csv"`);
    reply.header('cache-control', 'no-store');
    return reply.send(traceCsv(registry, rows, lang));
  });

  app.get('/api/v3/trace/epcis', {
    config: { access: TRACE_KEYS },
    schema: { tags, summary: 'The trace\'s events as an EPCIS 2.0 document', querystring: traceQuery, response: epcisAnswer, produces: ['application/ld+json', 'application/json'] },
  }, async (request, reply) => {
    const trace = await service.trace(principal(request), request.query as TraceQuery, requestLang(request));
    reply.header('content-type', 'application/ld+json; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${exportName(trace)}.jsonld"`);
    reply.header('cache-control', 'no-store');
    return epcisDocument(trace);
  });

  app.get('/api/v3/trace/search', {
    config: { access: [...new Set([...TRACE_KEYS, ...EVENTS_KEYS, ...HISTORY_KEYS])] },
    schema: { tags, summary: 'Lots, IBCs and shipments to trace, by part of their number', querystring: searchQuery, response: searchAnswer },
  }, async (request) => searchTraceable(registry, store, service, principal(request), (request.query as { q: string }).q, requestLang(request)));

  app.get('/api/v3/trace/history', {
    config: { access: HISTORY_KEYS },
    schema: { tags, summary: 'One lot\'s steps in time order: made, moved, used, with its stock after each', querystring: historyQuery, response: historyAnswer },
  }, async (request) => lotHistory(registry, store, service, principal(request), request.query as { lot: string; material?: string }, requestLang(request)));
}
