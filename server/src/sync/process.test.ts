/**
 * The worker inside real server processes: killed with kill -9 in the middle of sending, a
 * restarted server finishes the job exactly once; and two servers on one MongoDB never send
 * the same job (the leases), each sending part of the outbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../boot';
import { openStore } from '../store/index';
import { dropDatabase } from '../store/mongo-gaps';
import type { Store } from '../store/types';
import { realRegistry } from '../testing/harness';
import { spawnServer, type ServerProcess } from '../testing/process';
import { startFakeAuthority, type FakeAuthority } from './authority/fake';
import { FAKE_PASSWORD, FAKE_USER } from './authority/testing';
import { SYNC_ATTEMPT, SYNC_JOB } from './collections';
import { drained, expectExactlyOnce, seedPending } from './testing';

const reg = realRegistry();
const dirs: string[] = [];
let fake: FakeAuthority;

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tm-sync-proc-'));
  dirs.push(d);
  return d;
};
/** A server whose worker sends to the fake: quick polls and backoff, a short lease. */
const serverEnv = (over: Record<string, string>) => ({
  DATA_DIR: tempDir(), ADMIN_EMAIL: 'root@test.local', ADMIN_PASSWORD: 'Root-pass-2026',
  AUTHORITY_BASE_URL: fake.url, AUTHORITY_USER: FAKE_USER, AUTHORITY_PASSWORD: FAKE_PASSWORD, AUTHORITY_TIMEOUT_MS: '5000',
  SYNC_POLL_MS: '20', SYNC_BACKOFF_BASE_MS: '10', SYNC_BACKOFF_MAX_MS: '100', SYNC_LEASE_MS: '1500', ...over,
});
const stopped = async (s: ServerProcess) => {
  s.child.kill('SIGTERM');
  expect(await s.exited, s.output()).toBe(0);
};
const waitFor = async (cond: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  fake = await startFakeAuthority({ host: '127.0.0.1', user: FAKE_USER, password: FAKE_PASSWORD });
});
afterAll(async () => {
  await fake?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the worker in the server process', () => {
  it('after kill -9 in the middle of sending, a restarted server sends the rest: every record synced once, every attempt logged', async () => {
    fake.control.reset();
    // The embedded store, whatever the run's MONGODB_URI.
    const env = serverEnv({ MONGODB_URI: '' });
    const seeded = await openStore({ dataDir: env.DATA_DIR });
    await prepareStore(reg, seeded);
    const ids = await seedPending(seeded, reg, 300, 'kill');
    await seeded.close();
    // Slow answers, so calls are in flight when the process dies.
    fake.control.set('slow', { delayMs: 60 });
    const first = await spawnServer(env);
    await waitFor(() => fake.control.stats().committed >= 60, 20_000).catch((e) => { throw new Error(`${e}: ${JSON.stringify(fake.control.stats()).slice(0, 300)}\n${first.output()}`); });
    first.child.kill('SIGKILL');
    await first.exited;
    const committedAtKill = fake.control.stats().committed;
    expect(committedAtKill).toBeLessThan(ids.length);
    fake.control.set('up');

    const second = await spawnServer(env);
    // The dead process's leases expire (SYNC_LEASE_MS), then its jobs are sent again under their keys.
    await waitFor(() => fake.control.stats().committed === ids.length);
    await new Promise((r) => setTimeout(r, 300));
    await stopped(second);

    const store = await openStore({ dataDir: env.DATA_DIR });
    try {
      await drained(store, 1);
      const stats = fake.control.stats();
      // Calls the dead process was waiting on are logged, unanswered, under its instance; each was settled later.
      const interrupted = await store.find(SYNC_ATTEMPT, { filter: { outcome: 'sending' } });
      expect(new Set(interrupted.map((a) => a.instance)).size).toBeLessThanOrEqual(1);
      for (const a of interrupted) expect(await store.count(SYNC_ATTEMPT, { key: a.key, outcome: 'ok' })).toBe(1);
      await expectExactlyOnce(store, ids, stats, interrupted.length);
      // Every call the authority received is in the log (an attempt logged as the process died may never have left it).
      const logged = await store.count(SYNC_ATTEMPT, {});
      expect(logged).toBeGreaterThanOrEqual(stats.calls);
      expect(logged - stats.calls).toBeLessThanOrEqual(interrupted.length);
    } finally {
      await store.close();
    }
  }, 120_000);
});

const uri = process.env.MONGODB_URI;
describe('two servers on one MongoDB', () => {
  // As the store contract: without the wire server this is visibly skipped, not passed.
  (uri ? it : it.skip)('lease jobs so no job is sent twice, and share the outbox', async () => {
    fake.control.reset();
    const u = new URL(uri!);
    const dbName = `sync_${randomBytes(5).toString('hex')}`;
    u.pathname = `/${dbName}`;
    const mongodbUri = u.toString();
    const store: Store = await openStore({ mongodbUri });
    try {
      await prepareStore(reg, store);
      fake.control.set('slow', { delayMs: 10 });
      // Leases that never expire during the test: any second send would be a lease taken twice.
      const env = { MONGODB_URI: mongodbUri, SYNC_LEASE_MS: '600000', SYNC_CONCURRENCY: '8' };
      const a = await spawnServer(serverEnv(env));
      const b = await spawnServer(serverEnv(env));
      // Seeded once both are polling, so both find the same jobs due at once.
      const ids = await seedPending(store, reg, 400, 'two');
      await drained(store, 90_000);
      await Promise.all([stopped(a), stopped(b)]);
      const stats = fake.control.stats();
      // On failure, the attempts of the keys sent more than once: which servers, what answer.
      const twice = await store.aggregate(SYNC_ATTEMPT, [
        { $group: { _id: '$key', n: { $sum: 1 }, by: { $push: { instance: '$instance', outcome: '$outcome', at: '$at' } } } },
        { $match: { n: { $gt: 1 } } },
      ]);
      expect(stats.duplicates, JSON.stringify(twice).slice(0, 2000)).toBe(0);
      expect(stats.calls).toBe(ids.length);
      await expectExactlyOnce(store, ids, stats);
      const byInstance = await store.aggregate(SYNC_ATTEMPT, [{ $group: { _id: '$instance', n: { $sum: 1 } } }]);
      expect(byInstance).toHaveLength(2);
      for (const i of byInstance) expect(i.n).toBeGreaterThan(0);
      expect(await store.count(SYNC_JOB, { state: 'done' })).toBe(ids.length);
    } finally {
      await store.close();
      await dropDatabase(uri!, dbName);
    }
  }, 180_000);
});
