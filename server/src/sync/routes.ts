import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { keysFor } from '../ibc/operationKeys';
import { canAccess } from '../../../engine/src/index';
import { workflowKeys } from '../../../engine/src/workflow/access';
import { requestLang } from '../routes/masterdata';
import { ENGINE, OperationService } from '../workflows/service';
import { metrics } from '../metrics/registry';
import type { Store } from '../store/types';
import type { AuthorityAdapter } from './authority/types';
import { startSyncAlertJob } from './deadlines';
import { registerSyncHooks } from './jobs';
import { attemptsAnswer, attemptsQuery, idParams, recordParams, remitoAnswer, remitoParams, resyncAnswer, statusAnswer } from './schemas';
import { SyncService } from './service';
import { SyncWorker } from './worker';
import { createHttpAuthority } from './authority/http';
import { authorityOptions } from './authority/settings';
import type { ServerConfig } from '../config';

export interface SyncRoutesOptions {
  registry: Registry;
  store: Store;
  /** Where the authority is, its credentials and the worker's settings. */
  config: Pick<ServerConfig, 'authority' | 'syncWorker'>;
  /** Another authority than the one config names (a test's). */
  authority?: AuthorityAdapter;
  /** The deadline alert pass (off for benches measuring the routes). */
  alertJob?: boolean;
}

/** The worker, started with the server, unless SYNC_WORKER=off or the authority is not configured (then the outbox only fills). */
function startWorker(app: FastifyInstance, opts: SyncRoutesOptions): SyncWorker | undefined {
  const { syncWorker: cfg, authority: where } = opts.config;
  if (!cfg.enabled) return undefined;
  const options = opts.authority ? undefined : authorityOptions(where, opts.registry.deployment.settings.integrations);
  if (options && 'missing' in options) {
    app.log.warn(`declarations are not sent to the authority: ${options.missing}`);
    return undefined;
  }
  const authority = opts.authority ?? createHttpAuthority(options!);
  const instance = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const worker = new SyncWorker(opts.registry, opts.store, authority, { ...cfg, instance, log: app.log });
  worker.start();
  const unregister = app.readiness.register('sync-worker', () => worker.health());
  app.addHook('onClose', async () => { unregister(); await worker.stop(); });
  return worker;
}

/**
 * Declarations to the authority: every declarable transition writes its outbox job with its
 * record; the worker sends them; the routes show the outbox, re-sync a failed record, list a
 * record's attempts and find records by remito number.
 */
export async function syncRoutes(app: FastifyInstance, opts: SyncRoutesOptions): Promise<void> {
  registerSyncHooks(app.writeHooks, opts.registry);
  const worker = startWorker(app, opts);
  const service = new SyncService(opts.registry, opts.store, () => worker?.poke());
  const reg = opts.registry;
  const logs = keysFor(reg, ['Sync Logs'], ['syncLogs']);
  const tags = ['Sync'];

  // syncToSenasa: a Sync Logs holder sends any refused record again; whoever works the operation
  // (its feature's keys) sends again the records they can open, in their selected warehouse.
  const syncKeys = keysFor(reg, ['Sync Logs'], ['syncToSenasa']);
  const operations = new OperationService(reg, opts.store, ENGINE, undefined, app.writeHooks);
  for (const wf of Object.values(reg.workflows).filter((w) => w.declarable)) {
    app.post(`/api/v3/sync/${wf.name}/:id/resync`, {
      config: { access: [...new Set([...syncKeys, ...workflowKeys(reg, wf, 'draft')])] },
      schema: { tags, summary: `Sends a ${wf.name} the authority refused again (syncToSenasa); 409 unless its sync failed`, params: idParams, response: resyncAnswer },
    }, async (request) => {
      const { id } = request.params as { id: string };
      const p = request.principal!;
      if (!syncKeys.some((key) => canAccess(p, { key }, reg.access.superadmin))) await operations.get(wf.name, id, p, requestLang(request));
      return service.resync(wf.name, id);
    });
  }
  // Any other workflow: 404 naming it (unknown, or not declared to the authority).
  app.post('/api/v3/sync/:workflow/:id/resync', {
    config: { access: syncKeys }, schema: { hide: true, params: recordParams },
  }, async (request) => {
    const p = request.params as { workflow: string; id: string };
    return service.resync(p.workflow, p.id);
  });
  app.get('/api/v3/sync/status', {
    config: { access: keysFor(reg, ['Sync Logs', 'Monitoring', 'Dashboards'], ['syncLogs']) },
    schema: { tags, summary: 'The outbox: jobs pending, being sent, failed, synced, due soon and past their legal deadline', response: statusAnswer },
  }, async () => service.status());
  app.get('/api/v3/sync/:workflow/:id/attempts', {
    config: { access: logs },
    schema: { tags, summary: 'Every call to the authority for a record, newest first (syncLogs)', params: recordParams, querystring: attemptsQuery, response: attemptsAnswer },
  }, async (request) => {
    const p = request.params as { workflow: string; id: string };
    const q = request.query as { page: number; pageSize: number };
    return service.attempts(p.workflow, p.id, q.page, q.pageSize);
  });
  app.get('/api/v3/sync/remito/:number', {
    config: { access: keysFor(reg, ['Sync Logs'], ['searchRemitoNumber']) },
    schema: { tags, summary: 'The declarable records with this remito number and their sync state (searchRemitoNumber)', params: remitoParams, response: remitoAnswer },
  }, async (request) => service.byRemito((request.params as { number: string }).number));

  // Read when scraped; an app closing takes its readings away (tests run several in one process).
  const gauges = [
    metrics.gauge('sync_outbox_depth', 'Declarations waiting to be sent or being sent', async () => { const c = await service.status(); return c.pending + c.leased; }),
    metrics.gauge('sync_jobs', 'Outbox jobs by state, and those past their legal deadline (overdue) or close to it (dueSoon)', async () =>
      Object.entries(await service.status()).map(([state, value]) => ({ labels: { state }, value })), ['state']),
  ];
  app.addHook('onClose', async () => { for (const remove of gauges) remove(); });
  if (opts.alertJob === false) return;
  const alerts = startSyncAlertJob(opts.store, opts.registry, app.log, opts.config.syncWorker.alertIntervalMs);
  app.addHook('onClose', () => alerts.stop());
}
