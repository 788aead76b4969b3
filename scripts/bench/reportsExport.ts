/**
 * One report export's own work, in this process (no server, no thread): the export worker's
 * writeExport on a read-only connection to a store a reports bench left, the CSV written to a
 * file; prints the time, rows/s, the file's sha256 and, beside it, the floor (reportsFloor.ts).
 * For profiling (node's --cpu-prof) and for checking that a change leaves every CSV byte for byte
 * the same (compare the sha256 before and after).
 *
 *   npx tsx scripts/bench/reportsExport.ts --data /tmp/rep200k [--reports a,b] [--out DIR] [--lang en]
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/reportsExport.ts --data /tmp/rep200k --reports ibc_return_history
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireDefinitions } from '../../definitions/read';
import { parseReportQuery, type Lang } from '../../engine/src/index';
import { writeExport } from '../../server/src/reports/exportWorker';
import { SqliteStore } from '../../server/src/store/sqlite';
import { floorScan, REPORTS } from './reportsFloor';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i < 0 ? undefined : process.argv[i + 1]; };
const DATA = arg('--data');
if (!DATA) throw new Error('--data DIR: a store a reports bench filled (scripts/bench/reports.ts)');
const OUT = arg('--out') ?? '/tmp/tm-report-exports';
const LANG = (arg('--lang') ?? 'en') as Lang;
const ONLY = arg('--reports')?.split(',');
mkdirSync(OUT, { recursive: true });

const registry = requireDefinitions(process.cwd());
for (const r of REPORTS.filter((x) => !ONLY || ONLY.includes(x.key))) {
  const floor = process.argv.includes('--no-floor') ? undefined : await floorScan(r, { file: join(DATA, 'store.sqlite') });
  const store = new SqliteStore({ dataDir: DATA, readOnly: true });
  store.holdSnapshot();
  const file = join(OUT, `${r.key}.csv`);
  const def = registry.reports[r.key];
  const t = performance.now();
  const cpu = process.cpuUsage();
  let rows = 0;
  let total = 0;
  let totalMs = 0;
  try {
    await writeExport(store, { registry, report: r.key, query: parseReportQuery(registry, def, {}), lang: LANG, file }, (m) => {
      if (m.kind === 'total') { total = m.total; totalMs = performance.now() - t; }
      if (m.kind === 'done') rows = m.rows;
    });
  } finally {
    await store.close();
  }
  const ms = performance.now() - t;
  // CPU time besides the wall clock: on a machine shared with other work it is the steadier figure.
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  console.log(`${r.key.padEnd(36)} ${String(rows).padStart(8)} rows (total ${total} in ${(totalMs / 1000).toFixed(2)} s) in ${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s) = ${String(Math.round(rows / (ms / 1000))).padStart(7)} rows/s` +
    `${floor ? `   floor ${Math.round(floor.rows / (floor.scanMs / 1000))} rows/s (${floor.rows} rows)` : ''}   sha256 ${sha.slice(0, 16)}`);
}
