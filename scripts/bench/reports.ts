/**
 * Reports (issue 17): 1,000,000 operation records and their events (reportsFill.ts) on the
 * embedded store in a temp dir (or MongoDB with --mongo / MONGODB_URI, in a database of its own),
 * the real server (server/src/main.ts) in its own process under `npm start`'s heap cap, then for
 * five representative reports
 *   - the first page with the default sort (GET /api/v3/reports/:key/rows), median and p95 of 20;
 *   - a full CSV export (POST /api/v3/reports/:key/exports, polling GET /api/v3/reports/exports/:id,
 *     then the download): rows/s and the server's RSS growth (VmRSS of its process);
 *   - /api/health p99 while two exports run at once, sampled from a process of its own;
 * and beside each, measured in the same run, the floor: a plain scan of the same rows (SQL
 * `SELECT doc FROM <table> WHERE …` on the same database file, every row JSON.parse-d; on MongoDB
 * a find() cursor over the same filter), with the ratio. A report whose route answers 404 is
 * skipped with a line saying so.
 * Targets: first page < 500 ms; export ≥ 50,000 rows/s, RSS growth < 100 MB; health p99 < 100 ms.
 *
 *   npx tsx scripts/bench/reports.ts                 # 1,000,000 records, embedded
 *   npx tsx scripts/bench/reports.ts --scale 0.05    # 50,000 records
 *   npx tsx scripts/bench/reports.ts --mongo         # MONGODB_URI or mongodb://127.0.0.1:27217; default scale 0.05
 *   BENCH_PORT=3580 npx tsx scripts/bench/reports.ts # the server's port (default 3580)
 *   npx tsx scripts/bench/reports.ts --data DIR --reports a,b  # an embedded store a run left (kept), some reports only
 *   npx tsx scripts/bench/reports.ts --scale 0.2 --keep --reports none  # fill a store and keep it (its directory is printed)
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { requireDefinitions } from '../../definitions/read';
import { prepareStore } from '../../server/src/boot';
import { openStore } from '../../server/src/store/index';
import { procUse, profileArgs, settled, signIn, startHeapMb, startProcess, stopProcess } from './lib';
import { describeFill, fillReports } from './reportsFill';
import { dropMongo, floorScan, REPORTS, type BenchReport, type Floor } from './reportsFloor';

const T0 = performance.now();
const arg = (name: string) => { const i = process.argv.indexOf(name); return i < 0 ? undefined : process.argv[i + 1]; };
const MONGO = process.argv.includes('--mongo') || !!process.env.MONGODB_URI;
/**
 * The CI wire server holds its data in its JVM heap: a twentieth of the embedded run, with the
 * report exports' files and jobs, needs more than its default 1 GB (MONGO_WIRE_HEAP=6g works).
 */
const SCALE = Number(arg('--scale') ?? (MONGO ? 0.05 : 1));
const RECORDS = Math.round(1_000_000 * SCALE);
const PAGE_RUNS = 20;
const EXPORT_TIMEOUT_MS = 900_000;
const PORT = Number(process.env.BENCH_PORT ?? 3580);
const ADMIN = { email: 'bench@test.local', password: 'Bench-pass-2026' };

/** A store an earlier run filled (its fill is not repeated, the directory is kept). */
const DATA = arg('--data');
const ONLY = arg('--reports')?.split(',');
/** Keep the filled store for later runs (--data) and for reportsExport.ts. */
const KEEP = process.argv.includes('--keep');
const dir = DATA ?? mkdtempSync(join(tmpdir(), 'tm-bench-reports-'));
const uri = MONGO ? (() => { const u = new URL(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27217'); u.pathname = `/bench_reports_${randomBytes(4).toString('hex')}`; return u.toString(); })() : '';
console.log(`scale ${SCALE}: ${RECORDS} operation records on ${MONGO ? `MongoDB (${uri.replace(/\/\/[^@]*@/, '//')})` : `the embedded store (${dir})`}`);

const registry = requireDefinitions(process.cwd());
const store = await openStore({ dataDir: dir, mongodbUri: uri || undefined });
await prepareStore(registry, store);
if (!DATA) {
  const fill = await fillReports(registry, store, RECORDS, ADMIN);
  console.log(describeFill(fill, store.kind));
}
// The fill checked by the store's own aggregation (no HTTP, no report engine): the states, sync
// statuses and holdings the reports group by are all there.
for (const [label, coll, pipeline] of [
  ['deliveries by state', 'delivery', [{ $sortByCount: '$deliveryStatus' }]],
  ['declarations by sync status', 'product_declaration', [{ $sortByCount: '$sync.status' }]],
  ['IBCs held, top three customers', 'ibc_container', [{ $match: { status: 'at_customer' } }, { $sortByCount: '$customer' }, { $limit: 3 }]],
] as const) {
  const s = performance.now();
  const out = await store.aggregate(coll, pipeline as never);
  console.log(`  store.aggregate ${label.padEnd(31)} ${((performance.now() - s) / 1000).toFixed(2).padStart(6)} s  ${out.map((o) => `${String(o._id)}: ${String(o.count)}`).join(', ')}`);
}
await store.close();

const ms = (v: number) => `${v.toFixed(1).padStart(8)} ms`;
function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

// The floors, on the store as the fill left it, before the server starts.
const floors = new Map<string, Floor>();
const BENCHED = REPORTS.filter((r) => !ONLY || ONLY.includes(r.key));
for (const r of BENCHED) floors.set(r.key, await floorScan(r, MONGO ? { uri } : { file: join(dir, 'store.sqlite') }));
for (const r of BENCHED) {
  const f = floors.get(r.key)!;
  console.log(`floor ${r.key.padEnd(36)} scan ${String(f.rows).padStart(8)} rows ${ms(f.scanMs)} (${Math.round(f.rows / (f.scanMs / 1000))} rows/s)   first page ${ms(f.pageMs)}   [${r.floorLabel}]`);
}

const HEAP_MB = startHeapMb();
const env = { DATA_DIR: dir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...(uri ? { MONGODB_URI: uri } : {}) };
let t = performance.now();
const server = await startProcess('server/src/main.ts', env, [...(HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []), ...profileArgs()], PORT);
console.log(`server up in ${((performance.now() - t) / 1000).toFixed(1)} s (pid ${server.child.pid}, heap cap ${HEAP_MB ?? 'none'} MB)`);
// A run that fails half way must not leave the server holding its port.
process.on('exit', () => { if (server.child.exitCode === null) server.child.kill(); });
const headers = { authorization: `Bearer ${await signIn(server.url, ADMIN.email, ADMIN.password)}`, 'content-type': 'application/json' };
{
  const s = await settled(server.child.pid!);
  console.log(`server settled in ${(s.ms / 1000).toFixed(1)} s (its start-up work: ${(s.cpuMs / 1000).toFixed(2)} s of CPU)`);
}

/** The server process's resident set (MB), from /proc: the worker threads' memory included. */
function rssMb(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** The first page with the default sort: null when the route answers 404 (not merged yet). */
async function firstPage(r: BenchReport): Promise<{ times: number[]; rows: number; total?: number } | { missing: string }> {
  const times: number[] = [];
  let rows = 0;
  for (let k = 0; k < PAGE_RUNS; k++) {
    const s = performance.now();
    const res = await fetch(`${server.url}/api/v3/reports/${r.key}/rows?page=1&pageSize=20`, { headers });
    const text = await res.text();
    times.push(performance.now() - s);
    if (res.status === 404) return { missing: text.slice(0, 160) };
    if (!res.ok) throw new Error(`GET rows of ${r.key}: ${res.status} ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as Record<string, unknown>;
    const list = Object.values(body).find(Array.isArray) as unknown[] | undefined;
    rows = list?.length ?? 0;
  }
  const count = await fetch(`${server.url}/api/v3/reports/${r.key}/count`, { headers });
  const total = count.ok ? ((await count.json()) as { total?: number }).total : undefined;
  return { times, rows, total };
}

interface ExportRun { ms: number; jobMs: number; downloadMs: number; rows: number; bytes: number; rssBefore: number; rssPeak: number; status: string; cpuMs: number; mainCpuMs: number; diskMb: number }

/** One whole export: the job from POST to done (RSS sampled meanwhile), then its download. */
async function exportOnce(r: BenchReport): Promise<ExportRun> {
  const rssBefore = rssMb();
  const use0 = procUse(server.child.pid!);
  const used = () => { const u = procUse(server.child.pid!); return { cpuMs: u.cpuMs - use0.cpuMs, mainCpuMs: u.mainCpuMs - use0.mainCpuMs, diskMb: u.diskMb - use0.diskMb }; };
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssMb()); }, 50);
  const t0 = performance.now();
  try {
    const res = await fetch(`${server.url}/api/v3/reports/${r.key}/exports`, { method: 'POST', headers, body: '{}' });
    const text = await res.text();
    if (res.status !== 202) throw new Error(`POST exports of ${r.key}: ${res.status} ${text.slice(0, 300)}`);
    const { id } = JSON.parse(text) as { id: string };
    let job: { status: string; rows?: number; error?: string } = { status: 'queued' };
    while (!['done', 'failed'].includes(job.status)) {
      if (performance.now() - t0 > EXPORT_TIMEOUT_MS) throw new Error(`export of ${r.key} not done after ${EXPORT_TIMEOUT_MS / 1000} s`);
      // Polled often: a small export (14,487 rows) ends in a few hundred milliseconds, and a poll
      // every 100 ms added up to a third to its time.
      await new Promise((ok) => setTimeout(ok, 20));
      job = await (await fetch(`${server.url}/api/v3/reports/exports/${id}`, { headers })).json() as typeof job;
    }
    const jobMs = performance.now() - t0;
    // The job's own use: the download after it is the server's reading of a file.
    const jobUse = used();
    if (job.status === 'failed') return { ms: jobMs, jobMs, downloadMs: 0, rows: 0, bytes: 0, rssBefore, rssPeak, status: `failed: ${job.error ?? ''}`, ...jobUse };
    const d = performance.now();
    const file = await fetch(`${server.url}/api/v3/reports/exports/${id}/download`, { headers });
    if (!file.ok) throw new Error(`download of ${r.key}: ${file.status}`);
    let rows = -1; // the header line
    let bytes = 0;
    for await (const chunk of file.body!) {
      bytes += chunk.length;
      // Lines counted with Buffer's native search: a byte loop in JS took half a second of the
      // 108 MB download's time, the bench's own work counted as the server's.
      const buf = Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
      for (let at = buf.indexOf(10); at >= 0; at = buf.indexOf(10, at + 1)) rows++;
    }
    return { ms: performance.now() - t0, jobMs, downloadMs: performance.now() - d, rows, bytes, rssBefore, rssPeak, status: 'done', ...jobUse };
  } finally {
    clearInterval(sampler);
  }
}

/** /api/health latencies, one request at a time 10 ms apart, until `until` settles: sampled by a process of its own (healthSampler.ts). */
async function sampleHealth(until: Promise<unknown>): Promise<number[]> {
  const child = fork(new URL('./healthSampler.ts', import.meta.url), [server.url], { execArgv: ['--import', 'tsx'] });
  await new Promise((ok, fail) => { child.once('message', ok); child.once('error', fail); });
  await until.catch(() => undefined);
  const times = new Promise<number[]>((ok, fail) => { child.once('message', (m) => ok(m as number[])); child.once('error', fail); });
  child.send('stop');
  return (await times).sort((a, b) => a - b);
}

const available: BenchReport[] = [];
const exported = new Map<string, ExportRun>();
for (const r of BENCHED) {
  const f = floors.get(r.key)!;
  // A report answering an error (422 too large, say) is a figure of its own, not the end of the run.
  const page = await firstPage(r).catch((e: unknown) => ({ failed: e instanceof Error ? e.message : String(e) }));
  if ('failed' in page) {
    console.log(`${r.key}: FAILED ${page.failed}`);
    continue;
  }
  if ('missing' in page) {
    console.log(`${r.key}: skipped, GET /api/v3/reports/${r.key}/rows answers 404 (${page.missing})`);
    continue;
  }
  available.push(r);
  const first = page.times[0];
  const sorted = [...page.times].sort((a, b) => a - b);
  const median = pct(sorted, 50);
  console.log(`${r.key} (${r.kind}): first page (${page.rows} rows of ${page.total ?? '?'}; floor rows ${f.rows})  first ${ms(first)}  median ${ms(median)}  p95 ${ms(pct(sorted, 95))}   floor ${ms(f.pageMs)}  ratio ${(median / f.pageMs).toFixed(1)}   (target < 500 ms)`);
  const e = await exportOnce(r);
  exported.set(r.key, e);
  const perS = e.rows / (e.ms / 1000);
  console.log(`${r.key}: export ${e.status}, ${e.rows} rows, ${(e.bytes / 1e6).toFixed(1)} MB in ${(e.ms / 1000).toFixed(2)} s (job ${(e.jobMs / 1000).toFixed(2)} s + download ${(e.downloadMs / 1000).toFixed(2)} s) = ${Math.round(perS)} rows/s; ` +
    `RSS ${e.rssBefore.toFixed(0)} → peak ${e.rssPeak.toFixed(0)} MB (+${(e.rssPeak - e.rssBefore).toFixed(0)} MB)   floor ${Math.round(f.rows / (f.scanMs / 1000))} rows/s (${(f.scanMs / 1000).toFixed(2)} s)  time ratio ${(e.ms / f.scanMs).toFixed(1)}   (target ≥ 50,000 rows/s, RSS < +100 MB)`);
  console.log(`  the job's server CPU ${(e.cpuMs / 1000).toFixed(2)} s (${Math.round(e.rows / (e.cpuMs / 1000))} rows a CPU-second; its main thread ${(e.mainCpuMs / 1000).toFixed(2)} s), read from disk ${e.diskMb.toFixed(0)} MB` +
    (Number.isFinite(f.cpuMs) ? `;   floor CPU ${(f.cpuMs / 1000).toFixed(2)} s (${Math.round(f.rows / (f.cpuMs / 1000))} rows a CPU-second), read from disk ${f.diskMb.toFixed(0)} MB` : ''));
}

// Health while nothing runs (the floor), then while the two largest available exports run at once.
const idle = await sampleHealth(new Promise((ok) => setTimeout(ok, 3_000)));
console.log(`/api/health idle         n=${String(idle.length).padStart(5)}  p50 ${ms(pct(idle, 50))}  p99 ${ms(pct(idle, 99))}  max ${ms(idle[idle.length - 1])}`);
const pair = [...available].sort((a, b) => (exported.get(b.key)?.rows ?? 0) - (exported.get(a.key)?.rows ?? 0)).slice(0, 2);
if (pair.length === 2) {
  const running = Promise.all(pair.map(exportOnce));
  const [busy, runs] = await Promise.all([sampleHealth(running), running]);
  console.log(`/api/health, 2 exports   n=${String(busy.length).padStart(5)}  p50 ${ms(pct(busy, 50))}  p99 ${ms(pct(busy, 99))}  max ${ms(busy[busy.length - 1])}   ratio to idle p99 ${(pct(busy, 99) / pct(idle, 99)).toFixed(1)}   (target p99 < 100 ms)`);
  console.log(`  exports: ${pair.map((r, i) => `${r.key} ${runs[i].rows} rows in ${(runs[i].ms / 1000).toFixed(1)} s`).join('; ')}; RSS peak +${(Math.max(...runs.map((x) => x.rssPeak)) - runs[0].rssBefore).toFixed(0)} MB`);
} else {
  console.log(`/api/health during two exports: skipped, ${pair.length} report route(s) answer`);
}

await stopProcess(server.child);
if (MONGO) await dropMongo(uri);
if (!DATA && !KEEP) rmSync(dir, { recursive: true, force: true });
else if (!DATA) console.log(`store kept in ${dir} (--data ${dir} reuses it)`);
console.log(`elapsed ${((performance.now() - T0) / 1000).toFixed(0)} s`);
