import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDef } from '../../../engine/src/index';
import { buildApp } from '../app';
import { tokenId } from '../auth/sessions';
import { realRegistry, startHarness, type Harness } from '../testing/harness';
import { EXPORT_COLLECTION, MAX_RUNNING } from './exports';
import { reportRoutes } from './routes';
import { DELIVERY_REPORT, fixtureDeliveries, insertDeliveries, withFixtureReports } from './testing/fixtures';

/**
 * What an export job records always matches the files: a thread that fails leaves a failed job
 * and no file (partial or whole), a file that is not ready or not yours is not served, and a
 * restart puts jobs and files back in agreement.
 */
// A conversion that fails on one row in the middle of the stream, after rows were written.
const FAILING: ReportDef = { ...DELIVERY_REPORT, key: 'fixture_failing', pipeline: [{ $addFields: { asNumber: { $toInt: '$comments' } } }] };

let h: Harness;
let user: { id: string; headers: Record<string, string> };
let dir: string;

beforeAll(async () => {
  const reg = withFixtureReports(realRegistry());
  h = await startHarness({ registry: { ...reg, reports: { ...reg.reports, [FAILING.key]: FAILING } } });
  await insertDeliveries(h.store, fixtureDeliveries(3000, ['dep-a'], (i) => (i === 1500 ? 'not a number' : String(i))));
  user = await h.userWith(['Reports']);
  dir = h.app.reportExports.dir;
});
afterAll(async () => { await h?.close(); });

const exportOf = async (report: string) => {
  const r = await h.app.inject({ method: 'POST', url: `/api/v3/reports/${report}/exports`, headers: user.headers, payload: {} });
  expect(r.statusCode, r.body).toBe(202);
  return r.json().id as string;
};
const download = (id: string, query = '', headers = user.headers) => h.app.inject({ method: 'GET', url: `/api/v3/reports/exports/${id}/download${query}`, headers });
const filesOf = (id: string) => readdirSync(dir).filter((f) => f.startsWith(id));
/** A job as a scheduled run leaves it, with a mailed token we know. */
async function jobWith(status: string, expiresInMs = 86_400_000): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const doc = await h.store.insert(EXPORT_COLLECTION, {
    userId: user.id, report: 'fixture_deliveries', fileName: 'fixture_deliveries', filters: [], status, rows: 0, total: null, progress: 0, lang: 'en',
    createdAt: new Date().toISOString(), tokenHash: tokenId(token), tokenExpiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });
  return { id: doc.id, token };
}

describe('export failures', () => {
  it('fails a job whose thread throws half-way, leaves no file, and frees its slot for the next export', async () => {
    // More failing jobs than slots: each one must give its slot back.
    const failing = await Promise.all(Array.from({ length: MAX_RUNNING + 1 }, () => exportOf(FAILING.key)));
    for (const id of failing) {
      const job = await h.app.reportExports.finished(id);
      expect(job, id).toMatchObject({ status: 'failed' });
      expect(String(job!.error)).not.toBe('');
      expect(String(job!.error)).not.toContain(dir);
      expect(filesOf(id)).toEqual([]);
      expect((await download(id)).json().error).toMatchObject({ code: 'EXPORT_NOT_READY' });
      expect((await download(id)).statusCode).toBe(409);
    }
    const good = await exportOf('fixture_deliveries');
    expect(await h.app.reportExports.finished(good)).toMatchObject({ status: 'done' });
    expect(filesOf(good)).toEqual([`${good}.csv`]);
    expect((await download(good)).statusCode).toBe(200);
  });

  it('answers 409 for a queued or running export, with a session or with its token', async () => {
    for (const status of ['queued', 'running']) {
      const { id, token } = await jobWith(status);
      for (const r of [await download(id), await download(id, `?token=${token}`, {})]) {
        expect(r.statusCode, status).toBe(409);
        expect(r.json().error).toMatchObject({ code: 'EXPORT_NOT_READY', params: { status } });
      }
    }
  });

  it('serves a file to its own token only, and not once the token has expired', async () => {
    const id = await exportOf('fixture_deliveries');
    await h.app.reportExports.finished(id);
    const { token } = await jobWith('done');
    const own = randomBytes(32).toString('base64url');
    await h.store.patch(EXPORT_COLLECTION, id, { tokenHash: tokenId(own), tokenExpiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await download(id, `?token=${own}`, {})).statusCode).toBe(200);
    // Another export's live token opens nothing here, and says no more than an unknown export.
    const other = await download(id, `?token=${token}`, {});
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    await h.store.patch(EXPORT_COLLECTION, id, { tokenExpiresAt: new Date(Date.now() - 1).toISOString() });
    expect((await download(id, `?token=${own}`, {})).json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    // Someone else's token never reaches a file through the session route either.
    const stranger = await h.userWith(['Reports']);
    expect((await download(id, '', stranger.headers)).statusCode).toBe(404);
  });

  it('exports again after the files directory was removed under the running server', async () => {
    rmSync(dir, { recursive: true, force: true });
    const id = await exportOf('fixture_deliveries');
    expect(await h.app.reportExports.finished(id)).toMatchObject({ status: 'done' });
    expect((await download(id)).statusCode).toBe(200);
  });

  it('puts jobs and files back in agreement at a restart', async () => {
    const kept = await exportOf('fixture_deliveries');
    const lost = await exportOf('fixture_deliveries');
    for (const id of [kept, lost]) await h.app.reportExports.finished(id);
    rmSync(join(dir, `${lost}.csv`));
    // A file gone from under a done job is not served.
    expect((await download(lost)).json().error).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
    const orphans = ['orphan.csv.part', 'orphan.csv', `${kept}.csv.part`];
    for (const name of orphans) writeFileSync(join(dir, name), 'a,b\r\n');
    const config = { dataDir: join(dir, '..'), publicUrl: 'http://reports.test', identity: { mailFrom: 'x@reports.test' } };
    const restarted = await buildApp({ registry: h.registry, store: h.store, authenticator: h.sessions, plugins: [(a) => reportRoutes(a, { registry: h.registry, store: h.store, config, scheduleIntervalMs: 0 })] });
    await restarted.ready();
    try {
      const status = async (id: string) => (await restarted.inject({ method: 'GET', url: `/api/v3/reports/exports/${id}`, headers: user.headers })).json();
      expect(await status(lost)).toMatchObject({ status: 'failed', error: 'the file is gone' });
      expect(await status(kept)).toMatchObject({ status: 'done' });
      for (const name of orphans) expect(existsSync(join(dir, name)), name).toBe(false);
      expect(existsSync(join(dir, `${kept}.csv`))).toBe(true);
      expect((await restarted.inject({ method: 'GET', url: `/api/v3/reports/exports/${kept}/download`, headers: user.headers })).statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
