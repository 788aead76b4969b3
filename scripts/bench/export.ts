/**
 * CSV export against the server's responsiveness (issue 13): 350,000 companies on the embedded
 * store (or MONGODB_URI), the real server (server/src/main.ts) in its own process under the heap
 * cap `npm start` sets, and /api/health asked one request at a time (10 ms apart) while 0, 1 and
 * 2 exports of the whole table run. Prints health p50/p99/max beside each export's duration and
 * rows/s; the run with no export is the floor. Target: health p99 < 100 ms during two exports.
 *
 *   npx tsx scripts/bench/export.ts            # 350,000 rows
 *   BENCH_RECORDS=50000 npx tsx scripts/bench/export.ts
 *   BENCH_PORT=3360 npx tsx scripts/bench/export.ts   # a fixed port for the server
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireDefinitions } from '../../definitions/read';
import { ensureAdmin, prepareStore } from '../../server/src/boot';
import { newId } from '../../server/src/store/ids';
import { openStore } from '../../server/src/store/index';
import { profileArgs, signIn, startHeapMb, startProcess, stopProcess } from './lib';

const N = Number(process.env.BENCH_RECORDS ?? 350_000);
const FLOOR_MS = 5_000;
/** Bounds every wait of the bench: an export that takes longer than this is reported as failed. */
const EXPORT_TIMEOUT_MS = 600_000;
const HEAP_MB = startHeapMb();
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-export-'));
const env = { DATA_DIR: dir, ADMIN_EMAIL: 'bench@test.local', ADMIN_PASSWORD: 'Bench-pass-2026', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) };
const cities = ['Rosario', 'Córdoba', 'Mendoza', 'Salta', 'Paraná', 'Tandil', 'Junín'];

const registry = requireDefinitions(process.cwd());
const store = await openStore({ dataDir: dir, mongodbUri: process.env.MONGODB_URI });
await prepareStore(registry, store);
await ensureAdmin(registry, store, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
const t0 = Date.now();
for (let i = 0; i < N; i += 5000) {
  await store.insertMany('company', Array.from({ length: Math.min(5000, N - i) }, (_, k) => {
    const n = i + k;
    // Names repeat every 1,000 rows: ties in the default sort, broken by id.
    return { id: newId(), company_name: `Company ${String(n % 1000).padStart(4, '0')} S.A.`, email: `c${n}@example.com.ar`, phone_number: [`+54 341 ${n}`], address: { city: cities[n % cities.length], street: `Calle ${n}` }, state: n % 10 === 0 ? 3 : 1 };
  }));
}
console.log(`seeded ${N} companies in ${((Date.now() - t0) / 1000).toFixed(1)} s (${store.kind})`);
await store.close();

const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
const server = await startProcess('server/src/main.ts', env, [...(HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []), ...profileArgs()], port);
const headers = { authorization: `Bearer ${await signIn(server.url, env.ADMIN_EMAIL, env.ADMIN_PASSWORD)}` };

/** /api/health latencies, one request at a time, until `until` settles. */
async function sampleHealth(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => { done = true; });
  const times: number[] = [];
  const deadline = Date.now() + EXPORT_TIMEOUT_MS;
  while (!done && Date.now() < deadline) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(60_000) });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

/** One whole export: its duration, rows and bytes. */
async function exportAll(): Promise<{ ms: number; rows: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(`${server.url}/api/v3/masterdata/company/export.csv`, { headers, signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`export answered ${res.status}`);
  let rows = -1; // the header line
  let bytes = 0;
  for await (const chunk of res.body!) {
    bytes += chunk.length;
    for (const b of chunk as Uint8Array) if (b === 10) rows++;
  }
  return { ms: performance.now() - t, rows, bytes };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function report(label: string, times: number[], exports: { ms: number; rows: number }[]): number {
  const s = [...times].sort((a, b) => a - b);
  const p99 = pct(s, 99);
  const ex = exports.map((e) => `${(e.ms / 1000).toFixed(1)} s, ${e.rows} rows, ${Math.round(e.rows / (e.ms / 1000))} rows/s`).join('; ');
  console.log(`${label.padEnd(12)} health n=${String(s.length).padStart(5)}  p50 ${pct(s, 50).toFixed(1).padStart(7)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  max ${s[s.length - 1].toFixed(1).padStart(7)} ms${ex ? `   export: ${ex}` : ''}`);
  return p99;
}

report('0 exports', await sampleHealth(new Promise((r) => setTimeout(r, FLOOR_MS))), []);
for (const concurrent of [1, 2]) {
  const running = Promise.all(Array.from({ length: concurrent }, exportAll));
  const [times, exports] = await Promise.all([sampleHealth(running), running]);
  const p99 = report(`${concurrent} export${concurrent > 1 ? 's' : ''}`, times, exports);
  if (exports.some((e) => e.rows !== N)) console.log(`  an export returned ${exports.map((e) => e.rows).join(' and ')} rows, not ${N}`);
  if (concurrent === 2) console.log(`target: health p99 < 100 ms during two exports of ${N} rows (${p99.toFixed(1)} ms)`);
}
await stopProcess(server.child);
rmSync(dir, { recursive: true, force: true });
