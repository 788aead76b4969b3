/**
 * CSV import benchmark (issue 7): material files of 100,000 and 1,000,000 rows (valid rows
 * with their agrochemicalMaterial columns, referencing a company and a plant division the
 * bench inserts first), imported end to end — upload, parse, validate, upsert — into a real
 * server process on 127.0.0.1 on the embedded store. Prints rows/s, the server's peak RSS
 * (VmHWM) and papaparse's parse-only time of the same file in the same run.
 *
 *   npx tsx scripts/bench/import.ts            # 100k and 1M
 *   npx tsx scripts/bench/import.ts 100000     # chosen sizes
 *
 * Files over the 50 MB upload limit are sent gzip-compressed (the import accepts .csv.gz);
 * the parse-only figure is always the uncompressed CSV.
 */
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, createReadStream } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { client, seedOverApi, spawnImportServer } from '../../server/src/imports/testing/process';
import { writeMaterialCsv } from '../../server/src/imports/testing/materials';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];
const LIMIT = 50 * 1024 * 1024;
const ADMIN = { ADMIN_EMAIL: 'bench@test.local', ADMIN_PASSWORD: 'Bench-import-2026' };

function parseOnly(path: string): Promise<{ ms: number; rows: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let rows = 0;
    Papa.parse(createReadStream(path, { encoding: 'utf8' }) as never, {
      chunk: (r: Papa.ParseResult<string[]>) => { rows += r.data.length; },
      complete: () => resolve({ ms: performance.now() - t, rows }),
      error: reject,
    } as never);
  });
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
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
  const server = await spawnImportServer({ DATA_DIR: dataDir, ...ADMIN });
  try {
    const c = client(server.url);
    await c.signIn(ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    await seedOverApi(c);
    const t0 = performance.now();
    const job = await c.upload({ entity: 'material' }, await openAsBlob(upload), upload.split('/').pop()!);
    const uploaded = performance.now() - t0;
    let done: Record<string, unknown>;
    let validatedAt = 0;
    for (;;) {
      done = await c.get(`/api/imports/${job.id as string}?pageSize=1`);
      if (!validatedAt && done.phase === 'applying') validatedAt = performance.now() - t0;
      if (done.status !== 'queued' && done.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const total = performance.now() - t0;
    const peak = peakRssMb(server.child.pid!);
    if (done.status !== 'succeeded') throw new Error(`import ended ${String(done.status)}: ${JSON.stringify(done.error)}`);
    const parse = await parseOnly(csv);
    const rate = rows / (total / 1000);
    console.log(`\n${rows.toLocaleString('en')} rows (${(statSync(csv).size / 1e6).toFixed(0)} MB CSV, uploaded as ${upload.endsWith('.gz') ? `gzip ${(statSync(upload).size / 1e6).toFixed(0)} MB` : 'CSV'})`);
    console.log(`  end to end      ${(total / 1000).toFixed(1)} s   ${Math.round(rate).toLocaleString('en')} rows/s   (upload ${(uploaded / 1000).toFixed(1)} s, validated at ${(validatedAt / 1000).toFixed(1)} s)`);
    console.log(`  counts          ${JSON.stringify(done.counts)}`);
    console.log(`  server peak RSS ${peak.toFixed(0)} MB (VmHWM)`);
    console.log(`  parse only      ${(parse.ms / 1000).toFixed(2)} s (papaparse, ${parse.rows.toLocaleString('en')} records)   ratio ${(total / parse.ms).toFixed(1)}x`);
    const ok = (b: boolean) => (b ? 'met' : 'NOT met');
    console.log(`  targets         >= 20,000 rows/s: ${ok(rate >= 20_000)};  <= 5x parse-only: ${ok(total / parse.ms <= 5)}${rows >= 1_000_000 ? `;  1M under 90 s: ${ok(total < 90_000)};  peak RSS < 500 MB: ${ok(peak < 500)}` : ''}`);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'tm-bench-import-'));
try {
  console.log(`import bench: node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const rows of SIZES) await run(rows, tmp);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
