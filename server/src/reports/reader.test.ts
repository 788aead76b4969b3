import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatError, parseReportQuery, reportPlan, type Registry, type ReportDef } from '../../../engine/src/index';
import { buildApp } from '../app';
import { Sessions } from '../auth/sessions';
import { prepareStore } from '../boot';
import { SqliteStore } from '../store/sqlite';
import { realRegistry, testUsers } from '../testing/harness';
import { ReportReader } from './reader';
import { reportRoutes } from './routes';
import { DELIVERY_REPORT, fixtureDeliveries, insertDeliveries, withFixtureReports } from './testing/fixtures';

/**
 * On the embedded store, a report page the engine cannot cut in SQL runs on the reader thread:
 * the same answer as the store gives, the server answering other requests meanwhile, and a
 * pipeline too big for the thread's heap a 422 REPORT_TOO_LARGE that costs the thread only.
 */
const column = (id: string, type: 'text' | 'number') => ({ id, label: { en: id, es: id, fr: id }, type, field: id, sortable: true });

/** A $group over the whole source: no page can be cut before it. */
const BY_DEPOSIT: ReportDef = {
  ...DELIVERY_REPORT, key: 'fixture_by_deposit', filters: [], dedupeBy: undefined,
  pipeline: [{ $group: { _id: '$deposit', deliveries: { $sum: 1 }, quantity: { $sum: '$totalQuantity' } } }, { $addFields: { deposit: '$_id' } }],
  columns: [column('deposit', 'text'), column('deliveries', 'number'), column('quantity', 'number')],
  sort: { deposit: 1 },
};
/** Seconds of mingo work: a 20,000-element array built for each delivery. */
const SLOW: ReportDef = {
  ...BY_DEPOSIT, key: 'fixture_slow',
  pipeline: [{ $addFields: { spin: { $size: { $range: [0, 20_000] } } } }, ...BY_DEPOSIT.pipeline],
};
/**
 * Every delivery with a 50,000-number array, all held for the sort: far past the test thread's
 * heap, in many small allocations as a real report's are (one allocation bigger than V8's last
 * headroom is fatal to the whole process, whatever the thread's limits).
 */
const HUGE: ReportDef = {
  ...BY_DEPOSIT, key: 'fixture_huge',
  pipeline: [
    { $group: { _id: '$deposit', rows: { $push: '$$ROOT' } } }, { $unwind: '$rows' }, { $replaceRoot: { newRoot: '$rows' } },
    { $addFields: { spin: { $range: [0, 50_000] } } },
  ],
};

/** Small, so running out takes a moment; room enough for the thread's code and one page. */
const HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

let dir: string;
let store: SqliteStore;
let registry: Registry;
let app: FastifyInstance;
let reader: ReportReader;
let headers: Record<string, string>;

beforeAll(async () => {
  const reg = withFixtureReports(realRegistry());
  registry = { ...reg, reports: { ...reg.reports, ...Object.fromEntries([BY_DEPOSIT, SLOW, HUGE].map((d) => [d.key, d])) } };
  dir = mkdtempSync(join(tmpdir(), 'tm-reader-'));
  store = new SqliteStore({ dataDir: dir });
  await prepareStore(registry, store);
  await insertDeliveries(store, fixtureDeliveries(3000, ['dep-a', 'dep-b', 'dep-c']));
  const sessions = new Sessions(registry, store);
  const config = { dataDir: dir, publicUrl: 'http://reports.test', identity: { mailFrom: 'x@reports.test' } };
  app = await buildApp({
    registry, store, authenticator: sessions,
    plugins: [fp((a: FastifyInstance) => reportRoutes(a, { registry, store, config, scheduleIntervalMs: 0, threadHeap: HEAP }))],
  });
  await app.ready();
  reader = app.reportReader!;
  headers = (await testUsers(store, sessions)(['Reports'])).headers;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers });
const planOf = (def: ReportDef, params: Record<string, string> = {}) => reportPlan(registry, def, parseReportQuery(registry, def, params));

describe('the report reader thread (embedded store)', () => {
  it('answers a page and the count of a report that cannot page in SQL, as the store would', async () => {
    const plan = planOf(BY_DEPOSIT, { pageSize: '2' });
    expect(plan.pagedInStore).toBe(false);
    const served = reader.served;
    const rows = await get(`/api/v3/reports/${BY_DEPOSIT.key}/rows?pageSize=2`);
    expect(rows.statusCode, rows.body).toBe(200);
    const want = await store.aggregate(plan.collection, plan.rows);
    expect(rows.json()).toEqual({ deliveryData: want.slice(0, 2), page: 1, pageSize: 2, hasMore: true });
    expect(rows.json().deliveryData.map((r: { deposit: string }) => r.deposit)).toEqual(['dep-a', 'dep-b']);
    const count = await get(`/api/v3/reports/${BY_DEPOSIT.key}/count`);
    expect(count.json()).toEqual({ total: 3 });
    expect(reader.served - served).toBe(2);
  });

  it('leaves a page the store cuts in SQL, and a plain count, on the server\'s own thread', async () => {
    expect(planOf(DELIVERY_REPORT).pagedInStore).toBe(true);
    const served = reader.served;
    expect((await get(`/api/v3/reports/${DELIVERY_REPORT.key}/rows`)).statusCode).toBe(200);
    expect((await get(`/api/v3/reports/${DELIVERY_REPORT.key}/count`)).statusCode).toBe(200);
    expect(reader.served).toBe(served);
    // A filter on the pipeline's rows may have to read every record for one page: the thread reads it.
    expect(planOf(DELIVERY_REPORT, { comment: 'note 1' }).pagedInStore).toBe(false);
    const filtered = (await get(`/api/v3/reports/${DELIVERY_REPORT.key}/rows?comment=note%2029`)).json().deliveryData as { comments: string }[];
    expect(filtered).toHaveLength(20);
    for (const row of filtered) expect(row.comments).toContain('note 29');
    expect(reader.served).toBe(served + 1);
  });

  it('keeps the server answering while a slow pipeline runs', async () => {
    let done = false;
    const started = Date.now();
    const slow = get(`/api/v3/reports/${SLOW.key}/rows`).finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const t = Date.now();
      expect((await get('/api/health')).statusCode).toBe(200);
      waits.push(Date.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await slow;
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().deliveryData).toHaveLength(3);
    // The pipeline took long enough for the checks to mean something.
    const took = Date.now() - started;
    expect(took).toBeGreaterThan(300);
    // Answered all along, not once the pipeline ended: many health checks came back while it ran,
    // none waiting anywhere near the pipeline's time (a blocked event loop answers one, after it all).
    // No fixed bound in ms: on a busy machine every answer is slower, the pipeline's as much.
    expect(waits.length).toBeGreaterThan(5);
    expect(Math.max(...waits)).toBeLessThan(took / 2);
  }, 60_000);

  it('stops a pipeline past the time limit with 422 REPORT_TOO_SLOW, and refuses requests past the queue\'s length with 429', async () => {
    const limited = new ReportReader(dir, undefined, HEAP, { maxWaiting: 2, timeoutMs: 400 });
    try {
      const slow = planOf(SLOW);
      const running = limited.aggregate(slow.collection, slow.rows, SLOW.key).then(() => 'answered', (e: unknown) => e);
      const waiting = [1, 2].map(() => limited.aggregate(slow.collection, planOf(BY_DEPOSIT).rows, BY_DEPOSIT.key));
      // Two wait already: a third is refused at once, without touching the thread.
      await expect(limited.aggregate(slow.collection, planOf(BY_DEPOSIT).rows, BY_DEPOSIT.key)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      const stopped = await running;
      expect(stopped).toMatchObject({ code: 'REPORT_TOO_SLOW', status: 422, params: { report: SLOW.key, seconds: 1 } });
      // The ones that waited are answered by a new thread.
      for (const rows of await Promise.all(waiting)) expect(rows.map((r) => r.deposit)).toEqual(['dep-a', 'dep-b', 'dep-c']);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('answers 422 REPORT_TOO_LARGE for a pipeline past the thread\'s heap, and serves the next request on a new thread', async () => {
    const huge = get(`/api/v3/reports/${HUGE.key}/rows`);
    const queued = get(`/api/v3/reports/${BY_DEPOSIT.key}/count`);
    const r = await huge;
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error).toMatchObject({ code: 'REPORT_TOO_LARGE', params: { report: HUGE.key } });
    expect(r.json().error.message).toBe(formatError('REPORT_TOO_LARGE', { report: HUGE.key }));
    expect((await get('/api/health')).statusCode).toBe(200);
    // A request that waited behind it is not the one at fault: the new thread answers it.
    expect((await queued).json()).toEqual({ total: 3 });
    const again = await get(`/api/v3/reports/${BY_DEPOSIT.key}/rows`);
    expect(again.statusCode).toBe(200);
    expect(again.json().deliveryData).toHaveLength(3);
  }, 120_000);

  it('fails an export past its thread\'s heap as a job with the same message, and exports the next one', async () => {
    const start = async (key: string) => (await app.inject({ method: 'POST', url: `/api/v3/reports/${key}/exports`, headers, payload: {} })).json().id as string;
    const jobs = app.reportExports;
    const idle = jobs.idleThreads;
    const failed = await jobs.finished(await start(HUGE.key));
    expect(failed).toMatchObject({ status: 'failed', error: formatError('REPORT_TOO_LARGE', { report: HUGE.key }) });
    // The thread that ran out is not kept.
    expect(jobs.idleThreads).toBe(Math.max(0, idle - 1));
    expect(await jobs.finished(await start(BY_DEPOSIT.key))).toMatchObject({ status: 'done', rows: 3 });
    // One that finished is kept for the next export, which takes it instead of starting another.
    expect(jobs.idleThreads).toBe(Math.max(1, idle - 1));
    const before = jobs.idleThreads;
    const started = jobs.threadsStarted;
    const next = await start(DELIVERY_REPORT.key);
    const { total } = (await get(`/api/v3/reports/${DELIVERY_REPORT.key}/count`)).json() as { total: number };
    expect(total).toBeGreaterThan(2000);
    expect(await jobs.finished(next)).toMatchObject({ status: 'done', rows: total });
    expect(jobs.threadsStarted).toBe(started);
    expect(jobs.idleThreads).toBe(before);
    const csv = await app.inject({ method: 'GET', url: `/api/v3/reports/exports/${next}/download`, headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(total + 1);
  }, 120_000);
});
