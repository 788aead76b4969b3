/**
 * The operations view (issue 18 item 6) through the real server: Prometheus metrics at /metrics
 * and who may read them, readiness with its checks, and the server caches listed and cleared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { metrics } from '../metrics/registry';
import { multipart, startImportHarness } from '../imports/testing/harness';

const TOKEN = 'metrics-scraper-token-0123456789';
const A = 'extensions.agrochemicalMaterial';
const MATERIALS = `name,state,${['product_id', 'erp_id', 'company_id', 'material_type', 'plant_origin', 'senasa_name'].map((c) => `${A}.${c}`).join(',')}\nGlifosato,1,P1,M1,C000001,formulated_product,DIV-001,GLIFOSATO\n`;

let h: Harness;
let monitoring: Record<string, string>;
let other: Record<string, string>;
beforeAll(async () => {
  h = await startHarness({ env: { METRICS_TOKEN: TOKEN } });
  monitoring = (await h.userWith(['Monitoring'])).headers;
  other = (await h.userWith(['Reports', 'Data Import'])).headers;
});
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

describe('/metrics', () => {
  it('serves request, process, export and import metrics in the Prometheus format to the scraper\'s token', async () => {
    expect((await get('/api/health')).statusCode).toBe(200);
    const r = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(/^tracemesh_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/m);
    expect(r.body).toContain('# TYPE tracemesh_process_resident_memory_bytes gauge');
    expect(r.body).toMatch(/^tracemesh_report_exports\{state="queued"\} 0$/m);
    expect(r.body).toMatch(/^tracemesh_report_exports\{state="running"\} 0$/m);
    expect(r.body).toMatch(/^tracemesh_import_jobs\{state="queued"\} 0$/m);
    expect(r.body).toContain('# TYPE tracemesh_report_exports_ended_total counter');
    expect(r.body).toContain('# TYPE tracemesh_import_jobs_ended_total counter');
  });

  it('counts a finished report export by outcome, and labels routes by their pattern, never a concrete id', async () => {
    const scrape = async () => (await get('/metrics', monitoring)).body;
    const done = (text: string) => Number(/^tracemesh_report_exports_ended_total\{outcome="done"\} (\d+)/m.exec(text)?.[1] ?? 0);
    const before = done(await scrape());
    const user = await h.userWith(['Alerts']);
    const started = await h.app.inject({ method: 'POST', url: '/api/v3/reports/get_alerts_data/exports', headers: user.headers, payload: {} });
    expect(started.statusCode, started.body).toBe(202);
    const job = await h.app.reportExports.finished((started.json() as { id: string }).id);
    expect(job?.status).toBe('done');
    const text = await scrape();
    expect(done(text)).toBe(before + 1);
    expect(text).toContain('route="/api/v3/reports/:key/exports"');
    expect(text).not.toContain(user.id);
    expect(text).not.toMatch(/@test\.local/);
  });

  it('counts an import job that ended by its status, and shows the runner idle again', async () => {
    const imports = await startImportHarness();
    try {
      const scrape = async () => (await imports.app.inject({ method: 'GET', url: '/metrics', headers: await imports.userWith(['Monitoring']) })).body;
      const ended = (text: string) => Number(/^tracemesh_import_jobs_ended_total\{status="succeeded"\} (\d+)/m.exec(text)?.[1] ?? 0);
      const before = ended(await scrape());
      const body = multipart({ entity: 'material', dryRun: 'true' }, { name: 'materials.csv', content: MATERIALS });
      const r = await imports.app.inject({ method: 'POST', url: '/api/imports', headers: { ...(await imports.userWith(['Data Import', 'Master Data'])), ...body.headers }, payload: body.payload });
      expect(r.statusCode, r.body).toBe(202);
      await imports.runner.idle();
      const text = await scrape();
      expect(ended(text)).toBe(before + 1);
      expect(text).toMatch(/^tracemesh_import_jobs\{state="queued"\} 0$/m);
    } finally {
      await imports.close();
    }
  });

  it('refuses anyone else: no token, a wrong token, a user without the Monitoring key', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(401);
    const r = await get('/metrics', other);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: { code: 'FORBIDDEN', params: { key: 'Monitoring' } } });
  });

  it('keeps who and which record out of labels', () => {
    expect(() => metrics.counter('probe_total', 'a probe', ['user_email'])).toThrow(/who or which record/);
    expect(() => metrics.counter('probe_total', 'a probe', ['record_id'])).toThrow(/who or which record/);
  });
});

describe('/api/ready', () => {
  it('answers 200 naming each check: the store and the background workers', async () => {
    const r = await get('/api/ready');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as { status: string; checks: { name: string; ok: boolean }[] };
    expect(body.status).toBe('ready');
    // The embedded store's reports run on a reader thread of their own; MongoDB runs them itself.
    const reader = h.store.kind === 'embedded' ? ['report-reader'] : [];
    expect(body.checks.map((c) => c.name).sort()).toEqual(['imports', 'report-exports', ...reader, 'store']);
    expect(body.checks.every((c) => c.ok)).toBe(true);
  });

  it('answers 503 naming the check that failed, a thrown error, a returned reason or no answer in time', async () => {
    const off = [
      h.app.readiness.register('probe-throws', () => { throw new Error('the worker died'); }),
      h.app.readiness.register('probe-reason', () => 'lease lost'),
    ];
    try {
      const r = await get('/api/ready');
      expect(r.statusCode).toBe(503);
      const failed = (r.json() as { checks: { name: string; ok: boolean; reason?: string }[] }).checks.filter((c) => !c.ok);
      expect(failed).toEqual([
        expect.objectContaining({ name: 'probe-throws', reason: 'the worker died' }),
        expect.objectContaining({ name: 'probe-reason', reason: 'lease lost' }),
      ]);
    } finally {
      for (const f of off) f();
    }
    const late = await h.app.readiness.run(20);
    expect(late.ready).toBe(true);
    const stop = h.app.readiness.register('probe-slow', () => new Promise<void>((resolve) => setTimeout(resolve, 500)));
    try {
      const slow = await h.app.readiness.run(20);
      expect(slow.checks.find((c) => c.name === 'probe-slow')).toMatchObject({ ok: false, reason: 'no answer within 20 ms' });
    } finally {
      stop();
    }
    expect((await get('/api/ready')).statusCode).toBe(200);
  });

  it('answers 503 naming the store when the store no longer answers', async () => {
    const own = await startHarness();
    try {
      expect((await own.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      await own.store.close();
      const r = await own.app.inject({ method: 'GET', url: '/api/ready' });
      expect(r.statusCode).toBe(503);
      expect((r.json() as { checks: { name: string; ok: boolean }[] }).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['store']);
    } finally {
      await own.app.close();
    }
  });
});

describe('/api/v3/caches', () => {
  it('lists the server caches with their entries, and clears one or all', async () => {
    const embedded = h.store.kind === 'embedded';
    const names = ['dashboard-groups', 'ibc-event-summary', 'oidc-discovery', ...(embedded ? ['store-search'] : [])];
    // The fleet measures fold the IBC log into the summary cache; a list search fills the store's.
    const ibc = await h.userWith(['ibcTraceability']);
    expect((await get('/api/v3/ibc/measures', ibc.headers)).statusCode).toBe(200);
    const master = await h.userWith(['Master Data']);
    expect((await get('/api/v3/masterdata/material?search=acid', master.headers)).statusCode).toBe(200);
    const entries = async () => Object.fromEntries(((await get('/api/v3/caches', monitoring)).json() as { data: { name: string; entries: number }[] }).data.map((c) => [c.name, c.entries]));
    const list = await get('/api/v3/caches', monitoring);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { data: { name: string; description: string }[] }).data.map((c) => c.name)).toEqual(names);
    expect((await entries())['ibc-event-summary']).toBe(1);
    if (embedded) expect((await entries())['store-search']).toBeGreaterThan(0);

    const one = await h.app.inject({ method: 'POST', url: '/api/v3/caches/ibc-event-summary/clear', headers: monitoring });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ cleared: ['ibc-event-summary'], data: expect.arrayContaining([expect.objectContaining({ name: 'ibc-event-summary', entries: 0 })]) });
    if (embedded) expect((await entries())['store-search']).toBeGreaterThan(0);
    // Cleared, the next read rebuilds it and answers the same.
    const before = (await get('/api/v3/ibc/measures', ibc.headers)).json() as unknown;
    expect((await entries())['ibc-event-summary']).toBe(1);
    await h.app.inject({ method: 'POST', url: '/api/v3/caches/ibc-event-summary/clear', headers: monitoring });
    expect((await get('/api/v3/ibc/measures', ibc.headers)).json()).toEqual(before);

    const all = await h.app.inject({ method: 'POST', url: '/api/v3/caches/clear', headers: monitoring });
    expect(all.statusCode).toBe(200);
    expect((all.json() as { cleared: string[] }).cleared).toEqual(names);
    if (embedded) expect((await entries())['store-search']).toBe(0);
  });

  it('answers 404 for a cache it does not have, and refuses users without the Monitoring key', async () => {
    const missing = await h.app.inject({ method: 'POST', url: '/api/v3/caches/nope/clear', headers: monitoring });
    expect(missing.statusCode).toBe(404);
    expect((await get('/api/v3/caches')).statusCode).toBe(401);
    expect((await get('/api/v3/caches', other)).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'POST', url: '/api/v3/caches/clear', headers: other })).statusCode).toBe(403);
  });
});
