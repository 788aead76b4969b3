import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { importableEntities, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { Store } from '../store/types';
import { errorFile } from '../imports/errorFile';
import { getJob, IMPORT_COLLECTIONS, JOBS, presentJob, rejectedPage, toJob } from '../imports/jobs';
import { DEFAULT_IMPORT_LIMITS } from '../imports/limits';
import { ImportRunner } from '../imports/runner';
import { metrics } from '../metrics/registry';
import { templateCsv } from '../imports/template';
import { checkEntityAccess, keepUpload, prepareJob, readFields, receive } from '../imports/upload';

export interface ImportRoutesOptions {
  registry: Registry;
  store: Store;
  /** Uploads and staging files; default `$DATA_DIR/imports` (./data/imports). */
  dir?: string;
  /** Largest upload accepted (bytes on the wire; a gzip file counts compressed). Default 50 MB. */
  maxFileBytes?: number;
  /** Largest CSV content once decompressed. Default 512 MB. */
  maxContentBytes?: number;
  /** Data rows a file may hold. Default 1,500,000. */
  maxRows?: number;
  /** Starts of a job (crashes included) before it is given up instead of resumed. Default 2. */
  maxAttempts?: number;
  /** See RunnerOptions.writeWhileValidating (default true). */
  writeWhileValidating?: boolean;
  /** Rows validated per batch (2,000) and staged rows written per transaction (1,000); tests make them small. */
  validateBatch?: number;
  applyBatch?: number;
  /** Hands the runner to the caller (tests wait on it, the bench reads it). */
  onRunner?: (runner: ImportRunner) => void;
}

const MB = 1024 * 1024;
const tags = ['Imports'];
const access = 'Data Import';

const idParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' } },
} as const;

const pageQuery = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
} as const;

/**
 * CSV imports (issue 7): templates, uploads that run as background jobs, their progress and
 * their error files. Everything needs the Data Import key; importing an entity also needs
 * that entity's own access key. See docs/imports.md.
 */
export async function importRoutes(app: FastifyInstance, opts: ImportRoutesOptions): Promise<void> {
  const { registry: reg, store } = opts;
  const dir = opts.dir ?? join(process.env.DATA_DIR ?? './data', 'imports');
  const maxFileBytes = opts.maxFileBytes ?? DEFAULT_IMPORT_LIMITS.maxFileBytes;
  const maxContentBytes = opts.maxContentBytes ?? DEFAULT_IMPORT_LIMITS.maxContentBytes;
  mkdirSync(dir, { recursive: true });
  for (const spec of IMPORT_COLLECTIONS) await store.ensureCollection(spec);

  const runner = new ImportRunner(reg, store, {
    dir, maxContentBytes, maxRows: opts.maxRows, maxAttempts: opts.maxAttempts, writeWhileValidating: opts.writeWhileValidating,
    validateBatch: opts.validateBatch, applyBatch: opts.applyBatch, log: app.log, hooks: app.writeHooks,
  });
  opts.onRunner?.(runner);
  // Jobs a previous run left unfinished resume once the server is up; a closing server lets
  // the running batch finish and leaves the rest to the next start.
  app.addHook('onReady', async () => { await runner.recover(); });
  app.addHook('preClose', async () => { await runner.stop(); });
  const unmeasure = metrics.gauge('import_jobs', 'Import jobs waiting (queued) and being run', () => {
    const { queued, running } = runner.states;
    return [{ labels: { state: 'queued' }, value: queued }, { labels: { state: 'running' }, value: running }];
  }, ['state']);
  app.addHook('onClose', async () => { unmeasure(); });
  app.readiness.register('imports', () => (runner.accepting ? undefined : 'the import runner is stopped'));

  await app.register(multipart, { limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: 1000, parts: 20 } });
  // Any other body reaches the handler unread, which answers 415 naming multipart/form-data.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const entities = importableEntities(reg);

  app.get('/api/imports/templates/:entity.csv', {
    config: { access },
    schema: {
      tags,
      summary: 'Download the CSV template of an entity: its columns (enabled extensions included) and an example row',
      produces: ['text/csv'],
      params: { type: 'object', required: ['entity'], properties: { entity: { type: 'string', enum: entities } } },
      querystring: {
        type: 'object',
        properties: {
          headers: { type: 'string', enum: ['ids', 'labels'], default: 'ids', description: 'Field ids (dotted paths) or label chains.' },
          lang: { type: 'string', enum: ['en', 'es', 'fr'], default: 'en', description: 'The language of label headers and examples (a label missing in French reads as its English).' },
        },
      },
    },
  }, async (request, reply) => {
    const { entity } = request.params as { entity: string };
    const q = request.query as { headers: 'ids' | 'labels'; lang: 'en' | 'es' | 'fr' };
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${entity}-template.csv"`)
      .send(templateCsv(reg, entity, { headers: q.headers, lang: q.lang }));
  });

  app.post('/api/imports', {
    config: {
      access,
      docBody: {
        type: 'object',
        required: ['file', 'entity'],
        properties: {
          file: { type: 'string', format: 'binary', description: `CSV (UTF-8, UTF-16 or Latin-1; comma, semicolon or tab), or the same gzip-compressed; at most ${Math.round(maxFileBytes / MB)} MB` },
          entity: { type: 'string', enum: entities },
          dryRun: { type: 'boolean', default: false, description: 'Validate the whole file and count what would change; write nothing.' },
          mode: { type: 'string', enum: ['all-or-nothing', 'valid-only'], default: 'all-or-nothing', description: 'all-or-nothing: any rejected row and nothing is written. valid-only: the valid rows are written, the rest reported.' },
        },
      },
    },
    schema: { tags, summary: 'Start an import (multipart upload); answers 202 with the job at once', consumes: ['multipart/form-data'] },
  }, async (request, reply) => {
    const upload = await receive(request, dir, maxFileBytes);
    try {
      const req = readFields(reg, upload.fields);
      checkEntityAccess(reg, request, req.entity);
      const { job } = await prepareJob(reg, request, upload, req, maxContentBytes);
      await keepUpload(upload, runner.uploadPath(job.id));
      await store.insert(JOBS, job as never);
      runner.enqueue(job.id);
      return reply.status(202).header('location', `/api/imports/${job.id}`).send(presentJob(job));
    } catch (e) {
      await rm(upload.path, { force: true });
      throw e;
    }
  });

  app.get('/api/imports', {
    config: { access },
    schema: {
      tags,
      summary: 'List imports, newest first: who, when, file, entity, counts, status',
      querystring: {
        type: 'object',
        properties: {
          ...pageQuery,
          entity: { type: 'string', enum: entities },
          status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed', 'rolled_back'] },
        },
      },
    },
  }, async (request) => {
    const q = request.query as { page: number; pageSize: number; entity?: string; status?: string };
    const filter: Record<string, unknown> = {};
    if (q.entity) filter.entity = q.entity;
    if (q.status) filter.status = q.status;
    const [docs, total] = await Promise.all([
      store.find(JOBS, { filter, sort: { createdAt: -1 }, skip: (q.page - 1) * q.pageSize, limit: q.pageSize }),
      store.count(JOBS, filter),
    ]);
    return { data: docs.map((d) => presentJob(toJob(d))), total, page: q.page, pageSize: q.pageSize };
  });

  const jobOr404 = async (id: string) => {
    const job = await getJob(store, id);
    if (!job) throw new ApiError('IMPORT_NOT_FOUND', { id: id.slice(0, 100) });
    return job;
  };

  app.get('/api/imports/:id', {
    config: { access },
    schema: { tags, summary: 'Status and progress of an import, with its rejected rows (paged)', params: idParam, querystring: { type: 'object', properties: pageQuery } },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const q = request.query as { page: number; pageSize: number };
    const job = await jobOr404(id);
    const data = await rejectedPage(store, job.id, (q.page - 1) * q.pageSize, q.pageSize);
    return { ...presentJob(job), errors: { data, total: job.errorRows, page: q.page, pageSize: q.pageSize } };
  });

  app.get('/api/imports/:id/errors.csv', {
    config: { access },
    schema: {
      tags,
      summary: 'Download the error file: the rejected rows as uploaded, plus an Import errors column',
      produces: ['text/csv'],
      params: idParam,
      querystring: { type: 'object', properties: { rows: { type: 'string', enum: ['rejected', 'all'], default: 'rejected', description: 'all: every row, with an empty error cell when it is fine.' } } },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const job = await jobOr404(id);
    if (job.status === 'queued' || job.phase === 'validating') throw new ApiError('IMPORT_NOT_READY', { status: job.status });
    const everyRow = (request.query as { rows: string }).rows === 'all';
    const base = job.fileName.replace(/\.(csv|txt|gz)$/gi, '').replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80) || 'import';
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${base}-errors.csv"`)
      .send(Readable.from(errorFile(store, job, runner.uploadPath(job.id), maxContentBytes, everyRow)));
  });
}
