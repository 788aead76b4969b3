import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { csvLine } from '../masterdata/exportCsv';
import { startSmtp } from '../testing/smtp';
import { realRegistry, startHarness, type Harness } from '../testing/harness';
import { EXPORT_COLLECTION } from './exports';
import { reportRoutes } from './routes';
import { fixtureDeliveries, insertDeliveries, withFixtureReports, type FixtureDelivery } from './testing/fixtures';

const ES_STATUS: Record<string, string> = {};
let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let user: { id: string; headers: Record<string, string> };
// Every 50th comment starts like a formula: the CSV must not hand it to a spreadsheet as one.
const data = fixtureDeliveries(3000, ['dep-a', 'dep-b'], (i) => (i % 50 === 0 ? `=HYPERLINK("http://x.test/${i}")` : `note, "${i}"`));
const shown = data.filter((d) => d.deliveryStatus !== 'Draft').sort((a, b) => b.sendDate.localeCompare(a.sendDate));

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ registry: withFixtureReports(realRegistry()), env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://reports.test:8080', MAIL_FROM: 'Reports <no-reply@reports.test>' } });
  for (const s of h.registry.workflows.delivery.states) ES_STATUS[s.id] = typeof s.label === 'string' ? s.label : s.label.es;
  await insertDeliveries(h.store, data);
  user = await h.userWith(['Reports']);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

/** The CSV the rows should give, written out by hand from the fixture (Spanish labels). */
function expectedCsv(rows: FixtureDelivery[]): string {
  const header = csvLine(['Fecha de envío', 'Envío', 'Lotes', 'Estado', 'Comentarios', 'Cantidad total']);
  return header + rows.map((d) => csvLine([
    d.sendDate.slice(0, 10), d.shipmentID, d.productData.map((p) => p.batchId).join('; '), ES_STATUS[d.deliveryStatus], d.comments, String(d.totalQuantity),
  ])).join('');
}

async function finished(id: string, headers = user.headers): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${id}`, headers });
    expect(r.statusCode, r.body).toBe(200);
    if (r.json().status === 'done' || r.json().status === 'failed') return r.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('CSV export jobs', () => {
  it('exports every row as the screen shows it, on a worker thread, while the server keeps answering', async () => {
    const started = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers: { ...user.headers, 'accept-language': 'es' }, payload: {} });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: 'queued' });
    const id = started.json().id as string;
    const t0 = performance.now();
    const health = await h.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
    const job = await finished(id);
    expect(job).toMatchObject({ id, report: 'fixture_deliveries', status: 'done', rows: shown.length, total: shown.length, progress: 1, fileName: 'fixture_deliveries' });
    expect(job).not.toHaveProperty('tokenHash');
    const file = await h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${id}/download`, headers: user.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="fixture_deliveries-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(file.body).toBe(expectedCsv(shown));
    expect(file.body).toContain(`'=HYPERLINK(""http://x.test/50"")`);
    const mine = (await h.app.inject({ method: 'GET', url: '/api/v3/reports/exports', headers: user.headers })).json().data as { id: string }[];
    expect(mine[0].id).toBe(id);
  });

  it('keeps the filters and sort asked for, and the user\'s warehouse group', async () => {
    const group = await h.store.insert('group', { name: 'Export A', access: ['Reports'], warehouses: ['dep-a'], state: 1 });
    const scoped = await h.userWith(['Reports'], { groups: [group.id] });
    const headers = { ...scoped.headers, 'x-warehouse-group': 'Export A', 'accept-language': 'es' };
    const r = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers, payload: { filters: { 'sendDate.from': '2024-06-01', status: 'Accepted' }, sort: 'shipmentID' } });
    expect(r.statusCode, r.body).toBe(202);
    const job = await finished(r.json().id, headers);
    const expected = shown.filter((d) => d.deposit === 'dep-a' && d.sendDate >= '2024-06-01' && d.deliveryStatus === 'Accepted').sort((a, b) => a.shipmentID.localeCompare(b.shipmentID));
    expect(job).toMatchObject({ status: 'done', rows: expected.length, filters: { 'sendDate.from': '2024-06-01', status: 'Accepted' }, sort: 'shipmentID' });
    const file = await h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${r.json().id}/download`, headers });
    expect(file.body).toBe(expectedCsv(expected));
  });

  it('refuses bad filters before queueing, a report the user may not run, and someone else\'s export', async () => {
    const bad = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers: user.headers, payload: { filters: { 'sendDate.from': '2024-06-02', 'sendDate.to': '2024-06-01' } } });
    expect(bad.json().error).toMatchObject({ code: 'REPORT_RANGE_INVERTED' });
    const alertsOnly = await h.userWith(['Alerts']);
    const forbidden = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers: alertsOnly.headers, payload: {} });
    expect(forbidden.statusCode).toBe(403);
    const mine = await h.app.inject({ method: 'POST', url: '/api/v3/reports/get_alerts_data/exports', headers: alertsOnly.headers, payload: {} });
    expect(mine.statusCode).toBe(202);
    await finished(mine.json().id, alertsOnly.headers);
    const other = await h.userWith(['Reports', 'Alerts']);
    for (const url of [`/api/v3/reports/exports/${mine.json().id}`, `/api/v3/reports/exports/${mine.json().id}/download`]) {
      expect((await h.app.inject({ method: 'GET', url, headers: other.headers })).json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    }
    expect((await h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${mine.json().id}/download?token=${'x'.repeat(43)}` })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${mine.json().id}/download` })).statusCode).toBe(401);
  });

  it('gives its owner a link that downloads the file once without the session, and no one else', async () => {
    const started = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers: { ...user.headers, 'accept-language': 'es' }, payload: { filters: { status: 'Accepted' } } });
    const id = started.json().id as string;
    const other = await h.userWith(['Reports']);
    expect((await h.app.inject({ method: 'POST', url: `/api/v3/reports/exports/${id}/link`, headers: other.headers })).json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    expect((await h.app.inject({ method: 'POST', url: `/api/v3/reports/exports/${id}/link` })).statusCode).toBe(401);
    await finished(id);
    const link = await h.app.inject({ method: 'POST', url: `/api/v3/reports/exports/${id}/link`, headers: user.headers });
    expect(link.statusCode, link.body).toBe(200);
    const { url, expiresAt } = link.json() as { url: string; expiresAt: string };
    expect(url).toMatch(new RegExp(`^/api/v3/reports/exports/${id}/download\\?token=[\\w-]{43}$`));
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(30_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const stored = await h.store.get(EXPORT_COLLECTION, id);
    expect(JSON.stringify(stored)).not.toContain(url.split('token=')[1]);

    const file = await h.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="fixture_deliveries-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(file.body).toBe(expectedCsv(shown.filter((d) => d.deliveryStatus === 'Accepted')));
    // Used once: the same address downloads nothing again.
    expect((await h.app.inject({ method: 'GET', url })).json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    // Nor does one for another export, nor one whose minute has passed.
    const again = (await h.app.inject({ method: 'POST', url: `/api/v3/reports/exports/${id}/link`, headers: user.headers })).json() as { url: string };
    const mineOther = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/exports', headers: user.headers, payload: {} });
    await finished(mineOther.json().id);
    expect((await h.app.inject({ method: 'GET', url: again.url.replace(id, mineOther.json().id) })).statusCode).toBe(404);
    await h.store.patch(EXPORT_COLLECTION, id, { clickTokenExpiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await h.app.inject({ method: 'GET', url: again.url })).statusCode).toBe(404);
    // An export not finished has no link.
    const running = await h.store.insert(EXPORT_COLLECTION, { userId: user.id, report: 'fixture_deliveries', fileName: 'fixture_deliveries', status: 'running', rows: 10, total: 100, progress: 0.1, createdAt: new Date().toISOString() });
    const early = await h.app.inject({ method: 'POST', url: `/api/v3/reports/exports/${running.id}/link`, headers: user.headers });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'EXPORT_NOT_READY' });
    await h.store.delete(EXPORT_COLLECTION, running.id);
  });
});

describe('scheduled reports', () => {
  it('runs a due schedule as its user and mails a link that downloads the file without signing in', async () => {
    const created = await h.app.inject({
      method: 'POST', url: '/api/v3/reports/fixture_deliveries/schedules', headers: { ...user.headers, 'accept-language': 'es' },
      payload: { frequency: 'weekly', weekday: 1, hour: 6, filters: { status: 'Total Reject' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json() as { id: string; nextRunAt: string; email: string };
    expect(new Date(schedule.nextRunAt).getUTCDay()).toBe(1);
    expect(new Date(schedule.nextRunAt).getUTCHours()).toBe(6);
    // Not due yet: nothing happens.
    expect(await h.app.reportSchedules.runDue(new Date(Date.parse(schedule.nextRunAt) - 60_000))).toBe(0);
    const arrived = smtp.next();
    expect(await h.app.reportSchedules.runDue(new Date(schedule.nextRunAt))).toBe(1);
    const mail = await arrived;
    expect(mail.to).toEqual([schedule.email]);
    expect(mail.text).toContain('Entregas (fixture)');
    const link = /http:\/\/reports\.test:8080(\/api\/v3\/reports\/exports\/[\w-]+\/download\?token=[\w-]+)/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    const file = await h.app.inject({ method: 'GET', url: link![1] });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toBe(expectedCsv(shown.filter((d) => d.deliveryStatus === 'Total Reject')));
    const listed = (await h.app.inject({ method: 'GET', url: '/api/v3/reports/fixture_deliveries/schedules', headers: user.headers })).json().data as { nextRunAt: string; lastRunAt: string }[];
    expect(Date.parse(listed[0].nextRunAt) - Date.parse(schedule.nextRunAt)).toBe(7 * 86_400_000);
    expect(listed[0].lastRunAt).toBe(schedule.nextRunAt);
  });

  it('sends nothing to a user who lost the report\'s key, and refuses a weekly schedule without its day', async () => {
    const leaving = await h.userWith(['Reports']);
    const created = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/schedules', headers: leaving.headers, payload: { frequency: 'daily', hour: 23 } });
    expect(created.statusCode).toBe(201);
    await h.store.patch('user', leaving.id, { access: [] });
    const exportsBefore = await h.store.count(EXPORT_COLLECTION, { userId: leaving.id });
    expect(await h.app.reportSchedules.runDue(new Date(created.json().nextRunAt))).toBe(0);
    expect(await h.store.count(EXPORT_COLLECTION, { userId: leaving.id })).toBe(exportsBefore);
    const noDay = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/schedules', headers: user.headers, payload: { frequency: 'weekly', hour: 3 } });
    expect(noDay.statusCode).toBe(400);
    const badHour = await h.app.inject({ method: 'POST', url: '/api/v3/reports/fixture_deliveries/schedules', headers: user.headers, payload: { frequency: 'daily', hour: 24 } });
    expect(badHour.statusCode).toBe(400);
  });
});

describe('recovery', () => {
  it('fails the exports a stopped server left queued or running and removes their partial files', async () => {
    const dir = h.app.reportExports.dir;
    const left = await Promise.all(['queued', 'running'].map((status) => h.store.insert(EXPORT_COLLECTION, {
      userId: user.id, report: 'fixture_deliveries', fileName: 'fixture_deliveries', filters: [], status, rows: 10, total: 100, progress: 0.1, lang: 'en', createdAt: new Date().toISOString(),
    })));
    for (const job of left) writeFileSync(join(dir, `${job.id}.csv.part`), 'Send date,Shipment\r\n2024-01-01,SH-1\r\n');
    const config = { dataDir: join(dir, '..'), publicUrl: 'http://reports.test', identity: { mailFrom: 'x@reports.test' } };
    const restarted = await buildApp({ registry: h.registry, store: h.store, authenticator: h.sessions, plugins: [(a) => reportRoutes(a, { registry: h.registry, store: h.store, config, scheduleIntervalMs: 0 })] });
    await restarted.ready();
    try {
      for (const job of left) {
        const r = await restarted.inject({ method: 'GET', url: `/api/v3/reports/exports/${job.id}`, headers: user.headers });
        expect(r.json()).toMatchObject({ status: 'failed', error: 'interrupted' });
        expect(existsSync(join(dir, `${job.id}.csv.part`))).toBe(false);
        const download = await restarted.inject({ method: 'GET', url: `/api/v3/reports/exports/${job.id}/download`, headers: user.headers });
        expect(download.json().error).toMatchObject({ code: 'EXPORT_NOT_READY' });
      }
    } finally {
      await restarted.close();
    }
  });
});
