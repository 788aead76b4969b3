import { createReadStream, existsSync } from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { metrics } from '../metrics/registry';
import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { smtpMailer, type Mailer } from '../auth/mailer';
import type { AuthPrincipal } from '../auth/principal';
import { tokenId } from '../auth/sessions';
import type { ServerConfig } from '../config';
import { requestLang } from '../routes/masterdata';
import type { Store, StoredDoc } from '../store/types';
import { EXPORT_COLLECTION_SPEC, ExportJobs, storeTarget } from './exports';
import { ReportReader } from './reader';
import { SAVED_FILTER_COLLECTION_SPEC, SavedFilters, type SavedFilterBody } from './savedFilters';
import { ReportSchedules, SCHEDULE_COLLECTION_SPEC, type ScheduleBody } from './schedules';
import {
  catalogueAnswer, countAnswer, countQuery, createdExportAnswer, deletedAnswer, downloadQuery, exportAnswer, exportBody, exportLinkAnswer, exportsAnswer, idParam, keyIdParams, keyParam, rowsAnswer, rowsQuery,
  savedFilterBody, savedFilterCreated, savedFiltersAnswer, scheduleBody, scheduleCreated, schedulesAnswer,
} from './schemas';
import { ReportService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    reportExports: ExportJobs;
    reportSchedules: ReportSchedules;
    /** The embedded store's report reader thread; undefined on MongoDB. */
    reportReader: ReportReader | undefined;
  }
}

export interface ReportRoutesOptions {
  registry: Registry;
  store: Store;
  config: Pick<ServerConfig, 'dataDir' | 'publicUrl' | 'smtpUrl'> & { identity: Pick<ServerConfig['identity'], 'mailFrom'> };
  mailer?: Mailer;
  /** How often due schedules are looked for; 0: never (a test calls runDue itself). */
  scheduleIntervalMs?: number;
  now?: () => Date;
  /** The heap of each report thread, the reader's and the exports' (default REPORT_THREAD_HEAP and EXPORT_THREAD_HEAP; a test gives a small one). */
  threadHeap?: ResourceLimits;
}

const SCHEDULE_EVERY_MS = 60_000;
/**
 * How long the link the screen asks for when its user clicks "Download" works. The browser
 * follows it at once; the link exists so the file streams straight to disk as a native download
 * (a fetch into a blob held a million-row file in the tab's memory and showed nothing until all
 * of it had come) without the session token in an address.
 */
export const CLICK_LINK_MS = 60_000;

/** A token still good for this export: a mailed link's, or a click's not yet used. */
function liveToken(doc: StoredDoc | null, token: string, now: number): 'mailed' | 'click' | null {
  if (!doc) return null;
  if (sameToken(token, doc.tokenHash) && Date.parse(String(doc.tokenExpiresAt)) > now) return 'mailed';
  if (sameToken(token, doc.clickTokenHash) && Date.parse(String(doc.clickTokenExpiresAt)) > now) return 'click';
  return null;
}

function sameToken(token: string, hash: unknown): boolean {
  const a = Buffer.from(tokenId(token));
  const b = Buffer.from(String(hash ?? ''));
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The reports API (CONTRACT17 §4, docs/api.md "Reports"): the catalogue, a report's rows and
 * count, CSV exports as background jobs, saved filters and mailed schedules. The routes take
 * any key some report needs; each report's own key is checked in the handler, since the report
 * is a parameter.
 */
export async function reportRoutes(app: FastifyInstance, opts: ReportRoutesOptions): Promise<void> {
  const { registry, store } = opts;
  for (const spec of [EXPORT_COLLECTION_SPEC, SAVED_FILTER_COLLECTION_SPEC, SCHEDULE_COLLECTION_SPEC]) await store.ensureCollection(spec);
  // On MongoDB the database runs the pipelines; the embedded store runs them in mingo, on a thread of their own.
  const target = store.kind === 'embedded' ? storeTarget(store) : undefined;
  const reader = target && 'dataDir' in target ? new ReportReader(target.dataDir, app.log, opts.threadHeap) : undefined;
  const service = new ReportService(registry, store, reader);
  const exports = new ExportJobs(registry, store, join(opts.config.dataDir, 'reports'), app.log, opts.now, opts.threadHeap);
  const interrupted = await exports.recover();
  if (interrupted > 0) app.log.warn({ interrupted }, 'report exports interrupted by a stop were failed');
  const mailer = opts.mailer ?? (opts.config.smtpUrl ? smtpMailer(opts.config.smtpUrl, opts.config.identity.mailFrom) : undefined);
  const schedules = new ReportSchedules(registry, store, service, exports, { mailer, publicUrl: opts.config.publicUrl, log: app.log, now: opts.now });
  const saved = new SavedFilters(store, opts.now);
  app.decorate('reportExports', exports);
  app.decorate('reportSchedules', schedules);
  app.decorate('reportReader', reader);

  const every = opts.scheduleIntervalMs ?? SCHEDULE_EVERY_MS;
  const timer = every > 0 ? setInterval(() => void schedules.runDue().catch((e: unknown) => app.log.error({ reason: String(e) }, 'report schedules failed')), every) : undefined;
  timer?.unref();
  const unmeasure = metrics.gauge('report_exports', 'Report exports waiting for a thread (queued) and running', () => {
    const { queued, running } = exports.states;
    return [{ labels: { state: 'queued' }, value: queued }, { labels: { state: 'running' }, value: running }];
  }, ['state']);
  app.readiness.register('report-exports', () => (exports.accepting ? undefined : 'the export jobs are closed'));
  if (reader) app.readiness.register('report-reader', () => (reader.accepting ? undefined : 'the report reader is closed'));
  app.addHook('onClose', async () => {
    unmeasure();
    if (timer) clearInterval(timer);
    await exports.close();
    await reader?.close();
    if (!opts.mailer) mailer?.close();
  });

  const access = service.accessKeys();
  const tags = ['Reports'];
  const principal = (request: FastifyRequest) => request.principal!;
  const key = (request: FastifyRequest) => (request.params as { key: string }).key;
  const params = (request: FastifyRequest) => request.params as { key: string; id: string };
  const own = async (p: AuthPrincipal, id: string): Promise<StoredDoc> => {
    const doc = await exports.get(id);
    if (!doc || doc.userId !== p.userId) throw new ApiError('EXPORT_NOT_FOUND', { id: id.slice(0, 100) });
    return doc;
  };

  app.get('/api/v3/reports', { config: { access }, schema: { tags, summary: 'The reports you may run, with their filters and columns in your language', response: catalogueAnswer } }, async (request) =>
    service.catalogue(principal(request), requestLang(request)));
  app.get('/api/v3/reports/:key/rows', { config: { access }, schema: { tags, summary: 'A page of a report\'s rows (getReportsData; the report\'s own query name)', params: keyParam, querystring: rowsQuery, response: rowsAnswer } }, async (request) =>
    service.rows(principal(request), key(request), request.query as Record<string, unknown>));
  app.get('/api/v3/reports/:key/count', { config: { access }, schema: { tags, summary: 'How many rows a report has with these filters', params: keyParam, querystring: countQuery, response: countAnswer } }, async (request) =>
    service.count(principal(request), key(request), request.query as Record<string, unknown>));

  app.post('/api/v3/reports/:key/exports', {
    config: { access }, schema: { tags, summary: 'Start a CSV export of a report (createExportedReport)', params: keyParam, body: exportBody, response: createdExportAnswer },
  }, async (request, reply) => {
    const p = principal(request);
    const def = service.runnable(p, key(request));
    const body = (request.body ?? {}) as { filters?: Record<string, string>; sort?: string };
    const query = service.checkedFilters(def, body.filters, body.sort);
    const job = await exports.create({
      userId: p.userId, report: def.key, fileName: def.export.fileName, filters: body.filters ?? {}, sort: body.sort, query, scope: await service.scope(p, def), lang: requestLang(request),
    });
    return reply.status(202).send({ id: job.id, status: 'queued' });
  });
  app.get('/api/v3/reports/exports', { config: { access }, schema: { tags, summary: 'Your report exports, newest first', response: exportsAnswer } }, async (request) =>
    ({ data: await exports.listFor(principal(request).userId) }));
  app.get('/api/v3/reports/exports/:id', { config: { access }, schema: { tags, summary: 'An export\'s status and progress', params: idParam, response: exportAnswer } }, async (request) =>
    own(principal(request), (request.params as { id: string }).id));
  app.post('/api/v3/reports/exports/:id/link', {
    config: { access },
    schema: { tags, summary: 'A link that downloads your finished export without the session, good once for a minute (what the screen\'s Download follows)', params: idParam, response: exportLinkAnswer },
  }, async (request) => {
    const doc = await own(principal(request), (request.params as { id: string }).id);
    if (doc.status !== 'done') throw new ApiError('EXPORT_NOT_READY', { id: doc.id, status: String(doc.status) });
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + CLICK_LINK_MS).toISOString();
    await store.patch(EXPORT_COLLECTION_SPEC.name, doc.id, { clickTokenHash: tokenId(token), clickTokenExpiresAt: expiresAt });
    return { url: `/api/v3/reports/exports/${encodeURIComponent(doc.id)}/download?token=${token}`, expiresAt };
  });
  app.get('/api/v3/reports/exports/:id/download', {
    config: { access, linkToken: 'token' },
    schema: { tags, summary: 'An export\'s CSV file (downloadReport): your own, or with a mailed link\'s or a click\'s token', params: idParam, querystring: downloadQuery, produces: ['text/csv'] },
  }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const token = (request.query as { token?: string }).token;
    let doc: StoredDoc | null;
    if (token !== undefined) {
      doc = await exports.get(id);
      const kind = liveToken(doc, token, Date.now());
      // An unknown export and a wrong, expired or used token answer alike.
      if (!kind) throw new ApiError('EXPORT_NOT_FOUND', { id: id.slice(0, 100) });
      // A click's link is good once: a copy of it (a proxy's log, the history) downloads nothing.
      if (kind === 'click') await store.patch(EXPORT_COLLECTION_SPEC.name, doc!.id, { clickTokenHash: null, clickTokenExpiresAt: null });
    } else {
      doc = await own(principal(request), id);
    }
    if (doc!.status !== 'done') throw new ApiError('EXPORT_NOT_READY', { id: doc!.id, status: String(doc!.status) });
    const file = exports.fileOf(doc!.id);
    if (!existsSync(file)) throw new ApiError('EXPORT_NOT_FOUND', { id: doc!.id });
    const day = String(doc!.finishedAt ?? doc!.createdAt).slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${String(doc!.fileName)}-${day}.csv"`);
    reply.header('cache-control', 'no-store');
    return reply.send(createReadStream(file));
  });

  app.get('/api/v3/reports/:key/saved-filters', { config: { access }, schema: { tags, summary: 'Your saved filters of a report', params: keyParam, response: savedFiltersAnswer } }, async (request) => {
    const p = principal(request);
    return saved.list(p.userId, service.runnable(p, key(request)));
  });
  app.post('/api/v3/reports/:key/saved-filters', { config: { access }, schema: { tags, summary: 'Save a named filter of a report', params: keyParam, body: savedFilterBody, response: savedFilterCreated } }, async (request, reply) => {
    const p = principal(request);
    const def = service.runnable(p, key(request));
    const body = request.body as SavedFilterBody;
    service.checkedFilters(def, body.filters, body.sort);
    return reply.status(201).send(await saved.create(p.userId, def, body));
  });
  app.delete('/api/v3/reports/:key/saved-filters/:id', { config: { access }, schema: { tags, summary: 'Delete one of your saved filters', params: keyIdParams, response: deletedAnswer } }, async (request, reply) => {
    const p = principal(request);
    await saved.remove(p.userId, service.runnable(p, params(request).key), params(request).id);
    return reply.status(204).send();
  });

  app.get('/api/v3/reports/:key/schedules', { config: { access }, schema: { tags, summary: 'Your schedules of a report', params: keyParam, response: schedulesAnswer } }, async (request) => {
    const p = principal(request);
    return schedules.list(p.userId, service.runnable(p, key(request)));
  });
  app.post('/api/v3/reports/:key/schedules', { config: { access }, schema: { tags, summary: 'Mail yourself a report daily or weekly', params: keyParam, body: scheduleBody, response: scheduleCreated } }, async (request, reply) => {
    const p = principal(request);
    const def = service.runnable(p, key(request));
    const body = request.body as ScheduleBody;
    service.checkedFilters(def, body.filters, body.sort);
    // The selected warehouse group must be the user's now; each run checks it again.
    await service.scope(p, def);
    return reply.status(201).send(await schedules.create(p, def, body, requestLang(request)));
  });
  app.delete('/api/v3/reports/:key/schedules/:id', { config: { access }, schema: { tags, summary: 'Delete one of your schedules', params: keyIdParams, response: deletedAnswer } }, async (request, reply) => {
    const p = principal(request);
    await schedules.remove(p.userId, service.runnable(p, params(request).key), params(request).id);
    return reply.status(204).send();
  });
}
