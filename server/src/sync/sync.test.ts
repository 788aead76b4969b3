/**
 * The outbox through the real HTTP API on the real definitions, against the fake authority over
 * real HTTP: a declaration goes from pending to synced, a receiver's partial rejection waits for
 * the sender's declaration and names it, a refusal shows its reason and re-syncs, deadlines raise
 * alerts, and the routes refuse bad input with 4xx and nothing changed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { apiCaller } from '../testing/inject';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { startFakeAuthority, type FakeAuthority } from './authority/fake';
import { createHttpAuthority } from './authority/http';
import { FAKE_PASSWORD, FAKE_USER } from './authority/testing';
import { SYNC_ATTEMPT, SYNC_JOB } from './collections';
import { raiseSyncAlerts, syncAlertId } from './deadlines';
import { adoptPending } from './jobs';
import { SyncWorker } from './worker';
import { seedPending } from './seedPending';
import { metrics } from '../metrics/registry';

let h: Harness;
let fake: FakeAuthority;
let worker: SyncWorker;
let plant: string;
let dist: string;
let product: string;
let litre: string;
let sender: Record<string, string>;
let receiver: Record<string, string>;
let monitor: Record<string, string>;
let seq = 0;

const { call, ok } = apiCaller(() => h.app);
/** Passes until nothing is left to send now. */
const drain = async () => {
  for (let i = 0; i < 50 && (await worker.pass()) > 0;);
};

const importOne = async () => {
  const rec = await ok('POST', '/api/v3/operations/product_import', sender, {
    importDate: '2025-03-01', importID: `IMP-${seq++}`, deposit: plant,
    productData: [{ material: product, batchId: `P-${seq}`, quantity: 500, uom: litre, elaborationDate: '2025-01-15', expirationDate: '2027-01-15' }],
  }, 201);
  return (await ok('POST', `/api/v3/operations/product_import/${rec.id}/transitions/confirm`, sender, {})).record as Record<string, any>;
};

beforeAll(async () => {
  fake = await startFakeAuthority({ host: '127.0.0.1', user: FAKE_USER, password: FAKE_PASSWORD });
  h = await startHarness();
  worker = new SyncWorker(h.registry, h.store, createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 2_000 }), {
    instance: 'test', baseDelayMs: 1, maxDelayMs: 5, senderWaitMs: 0,
  });
  const unit = await h.store.insert('units_of_measurement', { name: 'LT', code: 'LT', state: 1 });
  litre = unit.id;
  product = (await h.store.insert('material', { name: 'Glyphosate 48 SL', uom: litre, gtin: '07790000000011', state: 1 })).id;
  const company = async (name: string, type: string) => (await h.store.insert('company', { company_name: name, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: type } }, state: 1 })).id;
  const division = async (name: string, company_id: string, gln: string) => (await h.store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id, country: 'AR', gln, state: 1,
  })).id;
  plant = await division('Plant deposit', await company('Agro SA', 'producer'), '7790000000017');
  dist = await division('Distributor deposit', await company('Dist SRL', 'distributor'), '7790000000024');
  const plantGroup = await h.store.insert('group', { name: 'Plant', access: ['Imports', 'Deliveries'], warehouses: [plant], state: 1 });
  const distGroup = await h.store.insert('group', { name: 'Distributor', access: ['Reception'], warehouses: [dist], state: 1 });
  sender = { ...(await h.userWith(['Imports', 'Deliveries'], { groups: [plantGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Plant' };
  receiver = { ...(await h.userWith(['Reception'], { groups: [distGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Distributor' };
  monitor = (await h.userWith(['Sync Logs'])).headers;
});
afterAll(async () => {
  await h?.close();
  await fake?.stop();
});
beforeEach(() => fake.control.set('up'));

describe('the outbox', () => {
  it('writes the job with the record when it reaches its declared state, with its 72 h deadline, and sends it once', async () => {
    const before = Date.now();
    const rec = await importOne();
    expect(rec.sync).toEqual({ status: '', deadline: expect.any(String) });
    const deadline = Date.parse(rec.sync.deadline);
    expect(deadline - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1_000);
    expect(deadline - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    const job = await h.store.get(SYNC_JOB, `product_import:${rec.id}:declare`);
    expect(job).toMatchObject({ state: 'pending', kind: 'declare', deadline: rec.sync.deadline, deposit: plant });

    await drain();
    const synced = (await h.store.get('product_import', rec.id))!;
    expect(synced.sync).toMatchObject({ status: 'synced', transactionId: expect.any(String), attempts: 1, deadline: rec.sync.deadline });
    expect(await h.store.get(SYNC_JOB, job!.id)).toMatchObject({ state: 'done', transactionId: (synced.sync as any).transactionId });
    expect(fake.control.stats().commitsPerKey[job!.id]).toBe(1);
    const published = await metrics.register.metrics();
    expect(published).toMatch(/tracemesh_sync_attempts_total\{kind="declare",outcome="ok"\} [1-9]/);
    expect(published).toMatch(/tracemesh_sync_outbox_depth 0/);
    expect(published).toMatch(/tracemesh_sync_jobs\{state="synced"\} 1/);

    const attempts = await ok('GET', `/api/v3/sync/product_import/${rec.id}/attempts`, monitor);
    expect(attempts.total).toBe(1);
    expect(attempts.data[0]).toMatchObject({
      outcome: 'ok', kind: 'declare', instance: 'test', durationMs: expect.any(Number),
      request: { key: job!.id, operation: 'product_import', lines: [{ gtin: '07790000000011', lot: `P-${seq}`, quantity: 500 }], originGln: '7790000000017' },
      answer: { ok: true, transactionId: (synced.sync as any).transactionId },
    });
  });

  it('sends a receiver\'s partial rejection after the sender\'s declaration, naming its transaction id and the refused quantity', async () => {
    const d = await ok('POST', '/api/v3/operations/delivery', sender, {
      sendDate: '2025-03-10', shipmentID: 'R-0001-00000077', deposit: plant, receiverDeposit: dist, receiverCompanyType: 'distributor',
      truckMapping: { truckNo: 'AB123CD', isoTankLicense: 'ISO-9' },
      productData: [{ material: product, batchId: `P-${seq}`, amount: 40, uom: litre }],
    }, 201);
    await ok('POST', `/api/v3/operations/delivery/${d.id}/transitions/confirm`, sender, {});
    const rejected = (await ok('POST', `/api/v3/operations/delivery/${d.id}/transitions/partialReject`, receiver, {
      comment: 'damaged drums', fields: { productData: [{ rejected: 15 }], receivedDate: '2025-03-11' },
    })).record;
    expect(rejected.sync).toEqual({ status: '', deadline: expect.any(String) });
    // A 15-minute deadline: moves are declared in real time.
    expect(Date.parse(rejected.sync.deadline) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    await drain();
    const declare = (await h.store.get(SYNC_JOB, `delivery:${d.id}:declare`))!;
    const reject = (await h.store.get(SYNC_JOB, `delivery:${d.id}:reject`))!;
    expect(declare).toMatchObject({ state: 'done' });
    expect(reject).toMatchObject({ state: 'done', partial: true });
    const [sent] = await h.store.find(SYNC_ATTEMPT, { filter: { key: reject.key, outcome: 'ok' } });
    expect(sent.request).toMatchObject({ kind: 'reject', transactionId: declare.transactionId, partial: true, reason: 'damaged drums', remito: 'R-0001-00000077', lines: [{ quantity: 15 }] });
    // The record shows the last step: the rejection, synced.
    expect((await h.store.get('delivery', d.id))!.sync).toMatchObject({ status: 'synced', transactionId: reject.transactionId });

    const found = await ok('GET', '/api/v3/sync/remito/R-0001-00000077', monitor);
    expect(found.data).toMatchObject([{ workflow: 'delivery', id: d.id, state: 'Partial Reject', sync: { status: 'synced' }, jobs: [{ kind: 'declare', state: 'done' }, { kind: 'reject', state: 'done' }] }]);
    expect((await ok('GET', '/api/v3/sync/remito/R-none', monitor)).data).toEqual([]);
  });

  it('marks a refused declaration failed with the authority\'s reason; re-sync sends it again; re-sync of one not failed is 409', async () => {
    fake.control.set('reject', { reason: 'the importer is not registered', code: 'not_registered', times: 1 });
    const rec = await importOne();
    await drain();
    const failed = (await h.store.get('product_import', rec.id))!;
    expect(failed.sync).toMatchObject({ status: 'failed', reason: 'the importer is not registered', attempts: 1 });
    expect((await ok('GET', '/api/v3/sync/status', monitor)).failed).toBe(1);

    const again = await ok('POST', `/api/v3/sync/product_import/${rec.id}/resync`, monitor, {});
    expect(again.sync).toEqual({ status: '', deadline: rec.sync.deadline });
    await drain();
    expect((await h.store.get('product_import', rec.id))!.sync).toMatchObject({ status: 'synced', attempts: 1 });
    expect((await ok('GET', '/api/v3/sync/status', monitor)).failed).toBe(0);
    const twice = await call('POST', `/api/v3/sync/product_import/${rec.id}/resync`, monitor, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'SYNC_NOT_FAILED', params: { state: 'synced' } });
    const attempts = await ok('GET', `/api/v3/sync/product_import/${rec.id}/attempts`, monitor);
    expect(attempts.data.map((a: { outcome: string }) => a.outcome)).toEqual(['ok', 'refused']);
    // /automation-sync-logs: the report over sync_attempt, its labels in every language, filtered by record.
    const report = await ok('GET', `/api/v3/reports/automation_sync_logs/rows?recordId=${rec.id}`, monitor);
    expect(report.syncLogData.map((r: Record<string, any>) => [r.outcomeLabel.es, r.message, r.kindLabel.fr])).toEqual([
      ['Aceptado', '', 'Déclaration'], ['Rechazado por la autoridad', 'the importer is not registered', 'Déclaration'],
    ]);
    expect(report.syncLogData[0]).toMatchObject({ workflow: 'product_import', recordId: rec.id, attempt: 1, transactionId: expect.any(String), durationMs: expect.any(Number) });
    // The log is the server's: the master-data API neither forges nor rewrites an attempt.
    const logged = (await h.store.find(SYNC_ATTEMPT, { filter: { recordId: rec.id }, limit: 1 }))[0];
    const forged = await call('POST', '/api/v3/masterdata/sync_attempt', monitor, { at: logged.at, workflow: 'product_import', recordId: 'x', key: 'k', kind: 'declare', attempt: 1, outcome: 'ok' });
    expect(forged.status).toBe(400);
    const { id: _id, ...rest } = logged;
    expect((await call('PUT', `/api/v3/masterdata/sync_attempt/${logged.id}`, monitor, { ...rest, outcome: 'refused' })).status).toBe(400);
    expect((await h.store.get(SYNC_ATTEMPT, logged.id))!.outcome).toBe(logged.outcome);
  });

  it('raises a due-soon alert, then an overdue one, once each, for a job not synced; the status counts it', async () => {
    fake.control.set('down');
    const rec = await importOne();
    const key = `product_import:${rec.id}:declare`;
    const job = (await h.store.get(SYNC_JOB, key))!;
    const deadline = Date.parse(String(job.deadline));
    // 25 % of 72 h before the deadline it is due soon.
    expect(deadline - Date.parse(String(job.dueSoonAt))).toBe(18 * 3_600_000);
    expect(await raiseSyncAlerts(h.store, h.registry, new Date(deadline - 19 * 3_600_000))).toBe(0);
    expect(await raiseSyncAlerts(h.store, h.registry, new Date(deadline - 3_600_000))).toBe(1);
    expect(await raiseSyncAlerts(h.store, h.registry, new Date(deadline - 3_000_000))).toBe(0);
    expect(await raiseSyncAlerts(h.store, h.registry, new Date(deadline + 1))).toBe(1);
    const alert = (await h.store.get('alert', syncAlertId('overdue', key)))!;
    expect(alert).toMatchObject({ severity: 'error', deposit: plant, operation: { workflow: 'product_import', id: rec.id }, title: { en: expect.stringContaining('overdue') } });
    // Named as the user knows it: the import number, not the record's internal id.
    expect((alert.title as Record<string, string>).es).toContain(rec.importID);
    expect((alert.title as Record<string, string>).en).not.toContain(rec.id);
    // /alerts lists it for whoever reads the alerts.
    const reader = (await h.userWith(['Alerts'])).headers;
    const rows = await ok('GET', '/api/v3/reports/get_alerts_data/rows', reader);
    expect(rows.alertsData).toContainEqual(expect.objectContaining({ id: syncAlertId('overdue', key), severity: 'error', title: alert.title }));
    const status = await ok('GET', '/api/v3/sync/status', monitor);
    expect(status).toMatchObject({ pending: 1, overdue: 0 });
    fake.control.set('up');
    await drain();
    expect((await ok('GET', '/api/v3/sync/status', monitor))).toMatchObject({ pending: 0, leased: 0 });
  });
  it('lets whoever works the operation send a refused record of their warehouse again, and nobody else\'s', async () => {
    fake.control.set('reject', { reason: 'the lot is unknown', code: 'unknown_lot', times: 1 });
    const rec = await importOne();
    await drain();
    expect((await h.store.get('product_import', rec.id))!.sync).toMatchObject({ status: 'failed' });
    // Imports too, but at the distributor's deposit: the plant's import is not theirs to open.
    const other = await h.store.insert('group', { name: 'Other importer', access: ['Imports'], warehouses: [dist], state: 1 });
    const elsewhere = { ...(await h.userWith(['Imports'], { groups: [other.id] })).headers, [WAREHOUSE_HEADER]: 'Other importer' };
    const refused = await call('POST', `/api/v3/sync/product_import/${rec.id}/resync`, elsewhere, {});
    expect(refused.status).toBe(404);
    expect((await h.store.get('product_import', rec.id))!.sync).toMatchObject({ status: 'failed' });
    expect((await ok('POST', `/api/v3/sync/product_import/${rec.id}/resync`, sender, {})).sync.status).toBe('');
    await drain();
    expect((await h.store.get('product_import', rec.id))!.sync).toMatchObject({ status: 'synced' });
  });
});

describe('records made pending without a transition', () => {
  it('gives a pending record without a job (an import, older data) its declaration job, once, and sends it', async () => {
    const rec = await h.store.insert('product_import', {
      importDate: '2025-03-02', importID: 'IMP-imported', deposit: plant, status: 'Imported', sync: { status: '' },
      productData: [{ material: product, batchId: 'P-imported', quantity: 5, uom: litre }],
    });
    const now = new Date();
    expect(await adoptPending(h.store, h.registry, now)).toBe(1);
    expect(await adoptPending(h.store, h.registry, now)).toBe(0);
    const job = (await h.store.get(SYNC_JOB, `product_import:${rec.id}:declare`))!;
    expect(Date.parse(String(job.deadline)) - now.getTime()).toBe(72 * 3_600_000);
    await drain();
    expect((await h.store.get('product_import', rec.id))!.sync).toMatchObject({ status: 'synced', deadline: job.deadline });
  });

  it('adopts thousands a page at a time, once each when two passes run together', async () => {
    // A store of its own: the main one's worker would send these thousands in the later tests.
    const own = await startHarness();
    try {
      const n = 2_500;
      const docs = Array.from({ length: n }, (_, i) => ({
        id: `bulk-${String(i).padStart(5, '0')}`, importDate: '2025-03-02', importID: `IMP-bulk-${i}`, deposit: 'deposit-x', status: 'Imported', sync: { status: '' },
        productData: [{ material: 'material-x', batchId: `P-bulk-${i}`, quantity: 5, uom: 'uom-x' }],
      }));
      await own.store.insertMany('product_import', docs);
      const now = new Date();
      const [a, b] = await Promise.all([adoptPending(own.store, own.registry, now), adoptPending(own.store, own.registry, now)]);
      expect(a + b).toBe(n);
      expect(await own.store.count(SYNC_JOB, { workflow: 'product_import' })).toBe(n);
      // Nothing new pending: the next pass adopts nothing.
      expect(await adoptPending(own.store, own.registry, now)).toBe(0);
      // More written pending behind the workflow's back (an import): those alone are adopted.
      const more = docs.slice(0, 1_500).map((d) => ({ ...d, id: `more-${d.id}`, importID: `more-${d.importID}` }));
      await own.store.insertMany('product_import', more);
      expect(await adoptPending(own.store, own.registry, now)).toBe(1_500);
      expect(await own.store.count(SYNC_JOB, { workflow: 'product_import' })).toBe(n + 1_500);
      expect(await own.store.count(SYNC_JOB, { recordId: { $in: more.map((d) => d.id) } })).toBe(1_500);
    } finally {
      await own.close();
    }
  });
});

describe('the worker started with the server', () => {
  it('sends with AUTHORITY_* set, and not with SYNC_WORKER=off; readiness checks the worker that runs', async () => {
    const env = { AUTHORITY_BASE_URL: fake.url, AUTHORITY_USER: FAKE_USER, AUTHORITY_PASSWORD: FAKE_PASSWORD, SYNC_POLL_MS: '20' };
    for (const worker of ['on', 'off']) {
      const other = await startHarness({ env: { ...env, SYNC_WORKER: worker } });
      try {
        const ids = await seedPending(other.store, other.registry, 3, `own-${worker}`);
        const until = Date.now() + 10_000;
        const synced = async () => other.store.count('product_import', { id: { $in: ids }, 'sync.status': 'synced' });
        while (worker === 'on' && (await synced()) < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        if (worker === 'off') await new Promise((r) => setTimeout(r, 300));
        expect(await synced()).toBe(worker === 'on' ? 3 : 0);
        // Readiness names the worker where one runs, and says it is stopped once it stops.
        const ready = async () => ((await other.app.inject({ method: 'GET', url: '/api/ready' })).json() as { checks: { name: string; ok: boolean; reason?: string }[] }).checks.find((c) => c.name === 'sync-worker');
        expect(await ready()).toEqual(worker === 'on' ? expect.objectContaining({ ok: true }) : undefined);
      } finally {
        await other.close();
      }
    }
  });
});

describe('the worker\'s health', () => {
  it('is stopped until started and after stopping, and stuck once nothing moved for longer than a lease', async () => {
    const own = new SyncWorker(h.registry, h.store, createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 2_000 }), { instance: 'health', leaseMs: 60_000, pollMs: 1_000 });
    expect(own.health()).toBe('the sync worker is stopped');
    own.start();
    try {
      expect(own.health()).toBeUndefined();
      expect(own.health(Date.now() + 61_000)).toMatch(/^the sync worker has not moved for 6\d s$/);
    } finally {
      await own.stop();
    }
    expect(own.health()).toBe('the sync worker is stopped');
  });
});

describe('bad input', () => {
  it('answers 404, 400 and 403 with a clear message and changes nothing', async () => {
    const rec = await importOne();
    const unknown = await call('POST', '/api/v3/sync/nothing/x/resync', monitor, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('UNKNOWN_WORKFLOW');
    const notDeclared = await call('POST', '/api/v3/sync/ibc/x/resync', monitor, {});
    expect(notDeclared.status).toBe(404);
    expect(notDeclared.body.error).toMatchObject({ code: 'SYNC_NOT_DECLARABLE', message: 'ibc operations are not declared to the authority' });
    const missing = await call('GET', '/api/v3/sync/product_import/nope/attempts', monitor);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('RECORD_NOT_FOUND');
    expect((await call('POST', '/api/v3/sync/product_import/bad%20id/resync', monitor, {})).status).toBe(400);
    expect((await call('GET', `/api/v3/sync/product_import/${rec.id}/attempts?pageSize=0`, monitor)).status).toBe(400);
    const pending = await call('POST', `/api/v3/sync/product_import/${rec.id}/resync`, monitor, {});
    expect(pending.status).toBe(409);
    expect(pending.body.error.params).toEqual({ entity: expect.any(String), state: 'pending' });
    expect((await call('GET', '/api/v3/sync/status', sender)).status).toBe(403);
    // The sender may send its own imports again (this one is not refused: 409); the receiver works no imports.
    expect((await call('POST', `/api/v3/sync/product_import/${rec.id}/resync`, sender, {})).status).toBe(409);
    expect((await call('POST', `/api/v3/sync/product_import/${rec.id}/resync`, receiver, {})).status).toBe(403);
    expect((await h.store.get('product_import', rec.id))!.sync).toEqual(rec.sync);
    await drain();
  });
});
