/**
 * The outbox drained against the fake authority (issue 18, "Speed"): 10,000 declarations made
 * pending at once on the embedded store (or MongoDB with MONGODB_URI), the fake in its own
 * process on 127.0.0.1:4121 answering 5 % of calls 503 (seeded), the worker of server/src/sync
 * sending them over HTTP. Prints records/s (target ≥ 200/s), double declarations (must be 0:
 * keys committed twice, records declared under two keys), resends the authority answered as
 * duplicates, and the time from the declared state to synced (p50, p99) for that burst; then
 * the same time for a steady flow of declarations (100/s for 10 s, the worker polling every 100 ms).
 *
 *   npx tsx scripts/bench/sync.ts
 *   SYNC_BENCH_RECORDS=2000 SYNC_BENCH_TRANSIENT=0.2 SYNC_BENCH_CONCURRENCY=16 npx tsx scripts/bench/sync.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareStore } from '../../server/src/boot';
import { openStore } from '../../server/src/store/index';
import { dropDatabase } from '../../server/src/store/mongo-gaps';
import { realRegistry } from '../../server/src/testing/harness';
import { createHttpAuthority } from '../../server/src/sync/authority/http';
import type { FakeStats } from '../../server/src/sync/authority/fake';
import { SYNC_ATTEMPT, SYNC_JOB } from '../../server/src/sync/collections';
import { drained, seedPending, WORKFLOW } from '../../server/src/sync/seedPending';
import { SyncWorker } from '../../server/src/sync/worker';
import { startProcess, stopProcess } from './lib';

const N = Number(process.env.SYNC_BENCH_RECORDS ?? 10_000);
const RATE = Number(process.env.SYNC_BENCH_TRANSIENT ?? 0.05);
const PORT = Number(process.env.SYNC_BENCH_PORT ?? 4121);
const CONCURRENCY = Number(process.env.SYNC_BENCH_CONCURRENCY ?? 32);
const PACED_RATE = Number(process.env.SYNC_BENCH_PACED_RATE ?? 100);
const PACED_SECONDS = Number(process.env.SYNC_BENCH_PACED_SECONDS ?? 10);
const USER = 'bench';
const PASSWORD = 'bench-authority-secret';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function control(url: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}/_control${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`fake control ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const reg = realRegistry();
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-sync-'));
const fake = await startProcess('scripts/fake-authority.ts', { AUTHORITY_USER: USER, AUTHORITY_PASSWORD: PASSWORD, FAKE_AUTHORITY_PORT: String(PORT) }, [], PORT);
const mongo = process.env.MONGODB_URI?.replace(/\/+$/, '');
const dbName = `bench_sync_${Date.now().toString(36)}`;
const store = await openStore(mongo ? { mongodbUri: `${mongo}/${dbName}` } : { dataDir: dir });
try {
  await prepareStore(reg, store);
  await control(fake.url, '/fault', { mode: 'transientRate', rate: RATE, seed: 1 });
  const seeding = Date.now();
  await seedPending(store, reg, N, 'bench');
  console.log(`${N} pending declarations written in ${((Date.now() - seeding) / 1000).toFixed(1)} s (${store.kind} store); ${RATE * 100} % transient failures; ${CONCURRENCY} calls in flight`);

  const worker = new SyncWorker(reg, store, createHttpAuthority({ baseUrl: fake.url, user: USER, password: PASSWORD, timeoutMs: 10_000 }), {
    instance: 'bench', concurrency: CONCURRENCY, batch: CONCURRENCY * 4, pollMs: 5, baseDelayMs: 100, maxDelayMs: 2_000,
  });
  // The burst: all declared at the moment the worker starts.
  const t0 = Date.now();
  worker.start();
  await drained(store, 30 * 60_000, 500);
  const seconds = (Date.now() - t0) / 1000;
  await worker.stop();

  const stats = await control(fake.url, '/stats') as FakeStats;
  const doubleKeys = Object.values(stats.commitsPerKey).filter((c) => c > 1).length;
  const doubleRecords = Object.values(stats.commitsPerRecord).filter((c) => c > 1).length;
  const records = await store.find(WORKFLOW, { projection: { sync: 1 } });
  const synced = records.filter((r) => (r.sync as { status?: string }).status === 'synced');
  const latency = synced.map((r) => Date.parse((r.sync as { syncedAt: string }).syncedAt) - t0).sort((a, b) => a - b);
  const [attempts, retries] = await Promise.all([store.count(SYNC_ATTEMPT, {}), store.count(SYNC_ATTEMPT, { outcome: 'retry' })]);

  console.log(`drained in ${seconds.toFixed(1)} s: ${(N / seconds).toFixed(0)} records/s (target >= 200)`);
  console.log(`synced ${synced.length}/${N}; double declarations ${doubleKeys + doubleRecords} (keys committed twice ${doubleKeys}, records under two keys ${doubleRecords}; must be 0)`);
  console.log(`calls ${stats.calls}, attempts logged ${attempts}, retried ${retries}, transient failures answered ${stats.faulted}, resends answered as duplicates ${stats.duplicates}`);
  console.log(`declared -> synced: p50 ${pct(latency, 50)} ms, p99 ${pct(latency, 99)} ms, max ${latency.at(-1)} ms`);
  if (synced.length !== N || doubleKeys + doubleRecords > 0) process.exitCode = 1;

  // Steady flow: declarations arriving one by one at PACED_RATE a second, the worker polling every 100 ms.
  const paced = new SyncWorker(reg, store, createHttpAuthority({ baseUrl: fake.url, user: USER, password: PASSWORD, timeoutMs: 10_000 }), {
    instance: 'bench-paced', concurrency: CONCURRENCY, pollMs: 100, baseDelayMs: 100, maxDelayMs: 2_000,
  });
  paced.start();
  const flow: string[] = [];
  const started = Date.now();
  for (let i = 0; i < PACED_RATE * PACED_SECONDS; i++) {
    flow.push(...await seedPending(store, reg, 1, `paced${i}`));
    const due = started + ((i + 1) * 1000) / PACED_RATE;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  }
  await drained(store, 10 * 60_000, 100);
  await paced.stop();
  const jobs = new Map((await store.find(SYNC_JOB, { filter: { recordId: { $in: flow } }, projection: { recordId: 1, declaredAt: 1 } })).map((j) => [j.recordId, Date.parse(String(j.declaredAt))]));
  const flowLatency = (await store.find(WORKFLOW, { filter: { id: { $in: flow } }, projection: { sync: 1 } }))
    .map((r) => Date.parse((r.sync as { syncedAt: string }).syncedAt) - jobs.get(r.id)!).sort((a, b) => a - b);
  console.log(`steady flow of ${PACED_RATE}/s for ${PACED_SECONDS} s (${flow.length} declarations): declared -> synced p50 ${pct(flowLatency, 50)} ms, p99 ${pct(flowLatency, 99)} ms`);
} finally {
  await store.close();
  // The wire server keeps every database in its heap: a bench's would slow the next run.
  if (mongo) await dropDatabase(mongo, dbName);
  await stopProcess(fake.child);
  rmSync(dir, { recursive: true, force: true });
}
