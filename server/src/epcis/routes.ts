import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { locationUri, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../plugins/jsonDepth';
import type { Store } from '../store/types';
import { ENGINE, OperationService } from '../workflows/service';
import { CAPTURE_BEHAVIOURS, CaptureService, type CaptureBehaviour } from './capture';
import { canonicalId } from './digitalLink';
import type { EpcisLimits } from './limits';
import { pageToken, parseQuery } from './params';
import { withProblemDetails } from './problem';
import { EventQuery } from './query';
import {
  captureAnswer, captureBody, captureHeaders, captureParam, discoveryAnswer, eventsQuery, jobAnswer, jobsAnswer, queryDocumentAnswer,
} from './schemas';

/** The features that show events (schemas/features.json): their keys may query them. */
const EVENT_FEATURES = ['events', 'traceability-map', 'data-import/event'];
const VERSION_HEADERS = { 'gs1-epcis-version': '2.0.0', 'gs1-cbv-version': '2.0.0', 'gs1-epcis-min': '2.0.0', 'gs1-epcis-max': '2.0.0' };

/**
 * The EPCIS 2.0 API (docs/epcis.md): `GET /api/epcis/events` answers the standard query a page at
 * a time; `POST /api/epcis/capture` takes an EPCISDocument; the capture jobs say how each went.
 * Errors carry the standard's problem fields beside the API's own error body (problem.ts).
 */
export async function epcisRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; limits: EpcisLimits }): Promise<void> {
  const { registry, store, limits } = opts;
  const capture = new CaptureService(store, limits);
  if (!store.capabilities.transactions) {
    const n = await capture.recoverInterrupted();
    if (n > 0) app.log.warn({ captures: n }, 'EPCIS captures interrupted by a stop were taken back');
  }
  const query = new EventQuery(store);
  const operations = new OperationService(registry, store, ENGINE);
  // Capture writes the event entities: their access key (Data Import). Reading them: any key of a feature showing events.
  const captureKey = registry.entities.object_events?.access ?? 'Data Import';
  const featureKeys = registry.features.features.filter((f) => EVENT_FEATURES.includes(f.id)).map((f) => f.access).filter((k): k is string => typeof k === 'string');
  const queryKeys = [...new Set([...featureKeys, captureKey])];
  const captureHeadersOut = { 'gs1-epcis-capture-limit': String(limits.captureEvents), 'gs1-epcis-capture-file-size-limit': String(limits.captureBytes) };
  const tags = ['EPCIS'];
  const principal = (request: FastifyRequest) => request.principal as AuthPrincipal;
  const admin = (p: AuthPrincipal) => p.access.includes(registry.access.superadmin);

  withProblemDetails(app);
  app.addHook('onSend', async (request, reply) => {
    void reply.headers(VERSION_HEADERS);
    if (request.routeOptions.url?.startsWith('/api/epcis/capture')) void reply.headers(captureHeadersOut);
  });
  // EPCIS documents travel as JSON-LD too; parsed as JSON is, depth first.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/ld+json', { parseAs: 'string' }, (request, body, done) => {
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) return done(new ApiError('JSON_TOO_DEEP', { limit: MAX_JSON_DEPTH }), undefined);
    return parseJson(request, body as string, done);
  });
  app.setErrorHandler(async (err: Error & { code?: string }) => {
    // The capture route's own limit, not the API's body limit, is what the client met.
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new ApiError('EPCIS_CAPTURE_TOO_LARGE', { limit: limits.captureBytes });
    throw err;
  });

  /** The selected warehouse group's deposits as EPCIS locations (null: no group selected). */
  const scopeOf = async (p: AuthPrincipal): Promise<Set<string> | null> => {
    const warehouse = await operations.warehouse(p);
    if (!warehouse) return null;
    const ids = [...warehouse.divisions];
    const divisions = ids.length ? await store.find('company_division', { filter: { id: { $in: ids } }, projection: { gln: 1 } }) : [];
    const gln = new Map(divisions.map((d) => [d.id, typeof d.gln === 'string' ? d.gln : undefined]));
    // An event names a deposit by its GLN when it had one then, else by its id: both are the deposit's.
    return new Set(ids.flatMap((id) => [locationUri(id), locationUri(id, { deposits: { [id]: { gln: gln.get(id) } } })]).map(canonicalId));
  };

  app.get('/api/epcis/events', {
    config: { access: queryKeys },
    schema: { tags, summary: 'EPCIS events matching the standard query parameters, a page at a time (EPCISQueryDocument)', querystring: eventsQuery(limits), response: queryDocumentAnswer },
  }, async (request, reply) => {
    const p = principal(request);
    const { parsed, digest } = parseQuery(request.query as Record<string, unknown>, limits.maxPerPage, p.selectedWarehouse ?? null);
    const page = await query.page(parsed, await scopeOf(p));
    if (page.next) void reply.header('link', `<${nextLink(request, pageToken(page.next, digest))}>; rel="next"`);
    return {
      '@context': page.context, type: 'EPCISQueryDocument', schemaVersion: '2.0', creationDate: new Date().toISOString(),
      epcisBody: { queryResults: { queryName: 'SimpleEventQuery', resultsBody: { eventList: page.events } } },
    };
  });

  const discovery = (allow: string, extra: Record<string, string>) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(204).headers({ allow, ...extra }).send();
  app.options('/api/epcis/events', {
    config: { access: queryKeys }, schema: { tags, summary: 'What the events endpoint supports (GS1- headers)', response: discoveryAnswer },
  }, discovery('OPTIONS, GET', {}));
  app.options('/api/epcis/capture', {
    config: { access: captureKey }, schema: { tags, summary: 'What the capture endpoint supports: its limits and error behaviour (GS1- headers)', response: discoveryAnswer },
  }, discovery('OPTIONS, POST, GET', { 'gs1-capture-error-behaviour': CAPTURE_BEHAVIOURS.join(', ') }));

  app.post('/api/epcis/capture', {
    bodyLimit: limits.captureBytes,
    config: { access: captureKey, docBody: captureBody },
    schema: {
      tags, headers: captureHeaders, response: captureAnswer,
      summary: `Capture an EPCISDocument: at most ${limits.captureEvents} events and ${limits.captureBytes} bytes; all or nothing unless GS1-Capture-Error-Behaviour is proceed`,
    },
  }, async (request, reply) => {
    const behaviour = (request.headers['gs1-capture-error-behaviour'] ?? 'rollback') as CaptureBehaviour;
    const job = await capture.capture(request.body, behaviour, { userId: principal(request).userId, admin: admin(principal(request)) });
    return reply.status(202).header('location', `/api/epcis/capture/${job.captureID}`).send(job);
  });

  app.get('/api/epcis/capture', {
    config: { access: captureKey }, schema: { tags, summary: 'Your capture jobs, newest first (every one for a superadmin)', response: jobsAnswer },
  }, async (request) => ({ data: await capture.list(principal(request).userId, admin(principal(request)), 100) }));

  app.get('/api/epcis/capture/:id', {
    config: { access: captureKey }, schema: { tags, summary: 'A capture job: whether it ran, succeeded, and the errors of each event refused', params: captureParam, response: jobAnswer },
  }, async (request) => capture.job((request.params as { id: string }).id, principal(request).userId, admin(principal(request))));
}

/** The request's own URL with the next page's token in place of any earlier one (relative, as the Link header may be). */
function nextLink(request: FastifyRequest, token: string): string {
  const [path, qs = ''] = request.url.split('?');
  const params = new URLSearchParams(qs);
  params.delete('nextPageToken');
  params.set('nextPageToken', token);
  return `${path}?${params.toString()}`;
}
