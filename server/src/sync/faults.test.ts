/**
 * The worker against the fake authority over real HTTP, on the real store, while the authority
 * is down, flapping, slow, dropping its replies after committing, failing now and then, and
 * refusing: afterwards every record is synced exactly once and every attempt is in the log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, realRegistry } from '../testing/harness';
import type { Store } from '../store/types';
import { startFakeAuthority, type FakeAuthority } from './authority/fake';
import { createHttpAuthority } from './authority/http';
import { FAKE_PASSWORD, FAKE_USER } from './authority/testing';
import { SYNC_ATTEMPT, SYNC_JOB } from './collections';
import { SyncService } from './service';
import { drained, expectExactlyOnce, seedPending } from './testing';
import { backoffMs, SyncWorker } from './worker';

const reg = realRegistry();
const N = 40;
let fake: FakeAuthority;
let opened: Awaited<ReturnType<typeof openTestStore>>;
let store: Store;
let worker: SyncWorker;

beforeAll(async () => {
  fake = await startFakeAuthority({ host: '127.0.0.1', user: FAKE_USER, password: FAKE_PASSWORD });
});
afterAll(async () => { await fake?.stop(); });
afterEach(async () => {
  await worker?.stop();
  await opened?.dispose();
  fake.control.reset();
});

/** A fresh store with N pending declarations and a worker sending them (a short client timeout, quick backoff). */
async function scenario(prefix: string, timeoutMs = 2_000): Promise<string[]> {
  opened = await openTestStore(reg, 'tm-sync-');
  store = opened.store;
  const ids = await seedPending(store, reg, N, prefix);
  worker = new SyncWorker(reg, store, createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs }), {
    instance: 'faults', pollMs: 10, baseDelayMs: 5, maxDelayMs: 40, concurrency: 8,
  });
  return ids;
}

const waitFor = async (cond: () => Promise<boolean>, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the sync worker under faults', () => {
  it('retries while the authority is down, with growing delays, and sends everything once it is back', async () => {
    const ids = await scenario('down');
    fake.control.set('down');
    worker.start();
    await waitFor(async () => (await store.count(SYNC_ATTEMPT, { outcome: 'retry' })) >= 2 * N);
    expect(await store.count(SYNC_JOB, { state: 'done' })).toBe(0);
    const [job] = await store.find(SYNC_JOB, { filter: { attempts: { $gte: 2 } }, limit: 1 });
    expect(job).toMatchObject({ state: expect.stringMatching(/pending|leased/), lastError: expect.any(String) });
    fake.control.set('up');
    await drained(store);
    await expectExactlyOnce(store, ids, fake.control.stats());
  });

  it('sends everything once while the authority flaps (every other call 503)', async () => {
    const ids = await scenario('flap');
    fake.control.set('flap');
    worker.start();
    await drained(store);
    const stats = fake.control.stats();
    expect(stats.faulted).toBeGreaterThan(0);
    await expectExactlyOnce(store, ids, stats);
  });

  it('sends everything once when answers come after the client gave up (the authority committed them meanwhile)', async () => {
    const ids = await scenario('slow', 100);
    fake.control.set('slow', { delayMs: 300, times: N / 2 });
    worker.start();
    await drained(store);
    const stats = fake.control.stats();
    expect(stats.duplicates).toBeGreaterThan(0);
    await expectExactlyOnce(store, ids, stats);
    expect(await store.count(SYNC_ATTEMPT, { outcome: 'retry', 'answer.error': { $regex: 'no answer within 100 ms' } })).toBeGreaterThan(0);
  });

  it('sends everything once when the authority commits and the reply is lost', async () => {
    const ids = await scenario('drop');
    fake.control.set('dropAfterCommit', { times: N / 2 });
    worker.start();
    await drained(store);
    const stats = fake.control.stats();
    expect(stats.duplicates).toBeGreaterThanOrEqual(N / 2);
    await expectExactlyOnce(store, ids, stats);
  });

  it('sends everything once with 30 % transient failures', async () => {
    const ids = await scenario('transient');
    fake.control.set('transientRate', { rate: 0.3, seed: 7 });
    worker.start();
    await drained(store);
    await expectExactlyOnce(store, ids, fake.control.stats());
  });

  it('marks refused ones failed with the reason, not retried; re-synced, they are sent once', async () => {
    const ids = await scenario('refused');
    fake.control.set('reject', { reason: 'lot unknown to the authority', code: 'unknown_lot', times: 5 });
    worker.start();
    await drained(store);
    const failed = await store.find('product_import', { filter: { 'sync.status': 'failed' } });
    expect(failed).toHaveLength(5);
    for (const r of failed) expect(r.sync).toMatchObject({ reason: 'lot unknown to the authority', attempts: 1 });
    expect(await store.count(SYNC_ATTEMPT, { outcome: 'refused' })).toBe(5);
    const service = new SyncService(reg, store, () => worker.poke());
    for (const r of failed) await service.resync('product_import', r.id);
    await drained(store);
    await expectExactlyOnce(store, ids, fake.control.stats());
  });
});

describe('the backoff', () => {
  it('doubles from the base up to the cap, jittered between half and all of it, and waits at least what Retry-After says', () => {
    const o = { baseDelayMs: 1_000, maxDelayMs: 60_000 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, o, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, o, () => 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffMs(30, o, () => 1)).toBe(60_000);
    expect(backoffMs(1, o, () => 0.5, 9_000)).toBe(9_000);
  });
});
