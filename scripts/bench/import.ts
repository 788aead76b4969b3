/**
 * CSV import benchmark (issue 7): material files of 100,000 and 1,000,000 rows (valid rows
 * with their agrochemicalMaterial columns, referencing a company and a plant division the
 * bench inserts first), imported end to end — upload, parse, validate, upsert — into the real
 * server (server/src/main.ts) in its own process on 127.0.0.1 on the embedded store. Prints
 * rows/s, the server's peak RSS (VmHWM), papaparse's parse-only time of the same file in the
 * same run, and the load average before and after each size — for a dry run, the import
 * itself (into an empty material collection), and a re-import of the same file (every row
 * unchanged, nothing written).
 *
 *   npx tsx scripts/bench/import.ts             # 100k and 1M
 *   npx tsx scripts/bench/import.ts 100000      # chosen sizes
 *   npx tsx scripts/bench/import.ts --heap=none # server without the heap cap
 *   npx tsx scripts/bench/import.ts 100000 --prof=/tmp/prof # and a CPU profile of the server
 *   npx tsx scripts/bench/import.ts 100000 --import-only    # no dry run nor re-import (a profile of the import alone)
 *
 * The server runs with the old-space cap `npm start` sets (--heap=MB to change it): without
 * one V8 lets garbage grow the heap far past what is live.
 *
 * Files over the 50 MB upload limit are sent gzip-compressed (the import accepts .csv.gz);
 * the parse-only figure is always the uncompressed CSV.
 */
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, seedOverApi } from '../../server/src/imports/testing/process';
import { spawnServer } from '../../server/src/testing/process';
import { writeMaterialCsv } from '../../server/src/imports/testing/materials';
import { parseOnly, profileArgs, startHeapMb } from './lib';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
/** The old-space cap `npm start` gives the server (package.json); --heap=MB or --heap=none. */
const HEAP_MB = startHeapMb() ?? 'none';
const importOnly = process.argv.includes('--import-only');
const heap = process.argv.find((a) => a.startsWith('--heap='))?.slice(7) ?? HEAP_MB;
const serverEnv: Record<string, string> = heap === 'none' ? {} : { NODE_OPTIONS: `--max-old-space-size=${heap}` };
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];
const LIMIT = 50 * 1024 * 1024;
const ADMIN = { ADMIN_EMAIL: 'bench@test.local', ADMIN_PASSWORD: 'Bench-import-2026' };

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface Timed {
  ms: number;
  validatedMs: number;
  job: Record<string, unknown>;
  /** Highest resident set seen while validating and while writing (sampled at each poll). */
  rss: { validating: number; applying: number };
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** One import from upload to the end of its job, polled every 100 ms. */
async function timed(c: ReturnType<typeof client>, pid: number, fields: Record<string, string>, path: string, name: string): Promise<Timed> {
  const t0 = performance.now();
  const { id } = await c.upload(fields, await openAsBlob(path), name);
  let validatedMs = 0;
  const rss = { validating: 0, applying: 0 };
  for (;;) {
    const job = await c.get(`/api/imports/${id as string}?pageSize=1`);
    if (!validatedMs && job.phase === 'applying') validatedMs = performance.now() - t0;
    const phase = job.phase === 'applying' ? 'applying' : 'validating';
    rss[phase] = Math.max(rss[phase], rssMb(pid));
    if (job.status !== 'queued' && job.status !== 'running') {
      if (job.status !== 'succeeded') throw new Error(`import ended ${String(job.status)}: ${JSON.stringify(job.error)}`);
      return { ms: performance.now() - t0, validatedMs, job, rss };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function run(rows: number, tmp: string): Promise<void> {
  const csv = join(tmp, `materials-${rows}.csv`);
  await writeMaterialCsv(csv, rows);
  let upload = csv;
  if (statSync(csv).size > LIMIT) {
    upload = `${csv}.gz`;
    await writeMaterialCsv(upload, rows);
  }
  const dataDir = join(tmp, `data-${rows}`);
  const server = await spawnServer({ DATA_DIR: dataDir, ...ADMIN, ...serverEnv }, { timeoutMs: 60_000, nodeArgs: profileArgs() });
  const loadBefore = load();
  try {
    const c = client(server.url);
    await c.signIn(ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    await seedOverApi(c);
    const name = upload.split('/').pop()!;
    const pid = server.child.pid!;
    const dry = importOnly ? undefined : await timed(c, pid, { entity: 'material', dryRun: 'true' }, upload, name);
    const commit = await timed(c, pid, { entity: 'material' }, upload, name);
    // The import leaves its rows' search text to be indexed after it: the first search pays for what is left.
    const s0 = performance.now();
    const found = await c.get(`/api/v3/masterdata/material?q=${encodeURIComponent(`SENASA ${String(rows).padStart(7, '0')}`)}`);
    const firstSearchMs = performance.now() - s0;
    const again = importOnly ? undefined : await timed(c, pid, { entity: 'material' }, upload, name);
    const peak = peakRssMb(server.child.pid!);
    const parse = await parseOnly(csv);
    const rate = rows / (commit.ms / 1000);
    const line = (label: string, r: Timed) => console.log(`  ${label.padEnd(22)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${Math.round(rows / (r.ms / 1000)).toLocaleString('en').padStart(7)} rows/s  ${(r.ms / parse.ms).toFixed(1).padStart(5)}x parse  ${JSON.stringify(r.job.counts)}${r.validatedMs ? `  (validated at ${(r.validatedMs / 1000).toFixed(1)} s)` : ''}  RSS ${r.rss.validating.toFixed(0)}${r.rss.applying ? `/${r.rss.applying.toFixed(0)}` : ''} MB`);
    console.log(`\n${rows.toLocaleString('en')} rows (${(statSync(csv).size / 1e6).toFixed(0)} MB CSV, uploaded as ${upload.endsWith('.gz') ? `gzip, ${(statSync(upload).size / 1e6).toFixed(0)} MB` : 'CSV'}); parse only ${(parse.ms / 1000).toFixed(2)} s (papaparse, same file); load average ${loadBefore} before, ${load()} after`);
    if (dry) line('dry run', dry);
    line('import (end to end)', commit);
    console.log(`  first search right after   ${(firstSearchMs / 1000).toFixed(2)} s (${String(found.total)} found; indexes the rows whose search text still waits)`);
    if (again) line('re-import, unchanged', again);
    console.log(`  server peak RSS        ${peak.toFixed(0)} MB (VmHWM, whole run)`);
    const ok = (b: boolean) => (b ? 'met' : 'NOT met');
    console.log(`  targets: >= 20,000 rows/s ${ok(rate >= 20_000)}; <= 5x parse-only ${ok(commit.ms / parse.ms <= 5)}${rows >= 1_000_000 ? `; 1M under 90 s ${ok(commit.ms < 90_000)}; peak RSS < 500 MB ${ok(peak < 500)}` : ''}`);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'tm-bench-import-'));
try {
  console.log(`import bench: node ${process.version}, ${cpus().length} cores, load average ${load()}, server ${serverEnv.NODE_OPTIONS ?? 'without a heap cap'}`);
  for (const rows of SIZES) await run(rows, tmp);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
