/**
 * EPCIS (issue 19), on the embedded store, the real server (server/src/main.ts) in a child
 * process, one client in this one:
 *   - capture throughput: GS1-shaped documents of 500 events (epcisFill.ts) POSTed one after the
 *     other to /api/epcis/capture on an empty store, events/s; beside its floor, the store's own
 *     insert of the same headers and identifier rows (computed beforehand, 500 events a
 *     transaction) on another empty store;
 *   - query: 1,000,000 stored events (fillEpcisEvents), then the first page of
 *     GET /api/epcis/events?MATCH_anyEPCClass=<a lot> for lots drawn at random, p50/p95/p99; beside
 *     its floor, the store reading the same rows (the lot's identifier rows, then their headers).
 *
 *   npx tsx scripts/bench/epcis.ts
 *   EPCIS_BENCH_EVENTS=100000 EPCIS_BENCH_CAPTURES=20 npx tsx scripts/bench/epcis.ts
 *   EPCIS_BENCH_DATA=/tmp/epcis-1m EPCIS_BENCH_CAPTURES=0 npx tsx scripts/bench/epcis.ts   (fills the directory once, reuses it after; no capture part)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireDefinitions } from '../../definitions/read';
import { prepareStore } from '../../server/src/boot';
import { openStore } from '../../server/src/store/index';
import type { Store } from '../../server/src/store/types';
import { canonicalId } from '../../server/src/epcis/digitalLink';
import { EPCIS_EVENTS, EPCIS_IDS, idPrefix, prefixEnd } from '../../server/src/epcis/model';
import { capturedDocs, eventDocuments, fillEpcisEvents, lotsOf } from './epcisFill';
import { signIn, startHeapMb, startProcess, stopProcess } from './lib';

const EVENTS = Number(process.env.EPCIS_BENCH_EVENTS ?? 1_000_000);
const CAPTURES = Number(process.env.EPCIS_BENCH_CAPTURES ?? 100);
const PER_DOCUMENT = 500;
const QUERIES = Number(process.env.EPCIS_BENCH_QUERIES ?? 300);
/** A directory kept between runs: filled by the first, reused by the next (EPCIS_BENCH_EVENTS the same). */
const DATA = process.env.EPCIS_BENCH_DATA;
const ADMIN = { email: 'bench@test.local', password: 'Bench-pass-2026' };
const registry = requireDefinitions(process.cwd());
const HEAP_MB = startHeapMb();
const dirs: string[] = [];
const tempDir = (name: string) => { const d = mkdtempSync(join(tmpdir(), `tm-bench-epcis-${name}-`)); dirs.push(d); return d; };
process.on('exit', () => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(2).padStart(8)} ms`;
const summary = (times: number[]) => { const s = [...times].sort((a, b) => a - b); return `p50 ${ms(pct(s, 50))}  p95 ${ms(pct(s, 95))}  p99 ${ms(pct(s, 99))}`; };

async function server(dir: string) {
  const env = { DATA_DIR: dir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', SYNC_WORKER: 'off' };
  const s = await startProcess('server/src/main.ts', env, HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : []);
  process.on('exit', () => { if (s.child.exitCode === null) s.child.kill(); });
  const token = await signIn(s.url, ADMIN.email, ADMIN.password);
  return { ...s, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

// 1. Capture through the route (EPCIS_BENCH_CAPTURES=0 leaves it out).
if (CAPTURES > 0) {
  const documents = eventDocuments(CAPTURES, PER_DOCUMENT);
  const bodies = documents.map((d) => JSON.stringify(d));
  console.log(`capture: ${CAPTURES} documents of ${PER_DOCUMENT} GS1-shaped events (${(bodies[0].length / 1024).toFixed(0)} KB each), embedded store, server heap cap ${HEAP_MB ?? 'none'} MB`);
  const captureServer = await server(tempDir('capture'));
  // The first capture compiles GS1's schema: a warm-up document outside the figures.
  const warm = await fetch(`${captureServer.url}/api/epcis/capture`, { method: 'POST', headers: captureServer.headers, body: JSON.stringify(eventDocuments(1, 10, 7)[0]) });
  if (warm.status !== 202) throw new Error(`warm-up capture: ${warm.status} ${await warm.text()}`);
  const perCapture: number[] = [];
  let t = performance.now();
  for (const body of bodies) {
    const s = performance.now();
    const r = await fetch(`${captureServer.url}/api/epcis/capture`, { method: 'POST', headers: captureServer.headers, body });
    const job = await r.json() as { counts?: { stored: number }; error?: unknown };
    if (r.status !== 202 || job.counts?.stored !== PER_DOCUMENT) throw new Error(`capture: ${r.status} ${JSON.stringify(job).slice(0, 400)}`);
    perCapture.push(performance.now() - s);
  }
  const captureMs = performance.now() - t;
  // The same documents again: every event a duplicate (the hash look-ups, nothing written).
  t = performance.now();
  for (const body of bodies.slice(0, 10)) await (await fetch(`${captureServer.url}/api/epcis/capture`, { method: 'POST', headers: captureServer.headers, body })).json();
  const againMs = performance.now() - t;
  await stopProcess(captureServer.child);
  const routeRate = (CAPTURES * PER_DOCUMENT) / (captureMs / 1000);
  console.log(`  route:  ${Math.round(routeRate).toString().padStart(7)} events/s  (${(captureMs / 1000).toFixed(1)} s; per capture ${summary(perCapture)})`);
  console.log(`  again:  ${Math.round((10 * PER_DOCUMENT) / (againMs / 1000)).toString().padStart(7)} events/s  (10 documents already captured: duplicates, nothing stored)`);

  // 1b. The floor: the store's own insert of the same headers and identifier rows.
  const floorStore = await openStore({ dataDir: tempDir('floor') });
  await prepareStore(registry, floorStore);
  const prepared = documents.map((d, k) => capturedDocs((d.epcisBody as { eventList: Record<string, unknown>[] }).eventList, Date.now(), k * PER_DOCUMENT, new Date().toISOString()));
  t = performance.now();
  for (const p of prepared) {
    await floorStore.transaction(async (tx) => {
      await tx.insertMany(EPCIS_EVENTS, p.headers);
      await tx.insertMany(EPCIS_IDS, p.ids);
    });
  }
  const floorMs = performance.now() - t;
  const rowsPerEvent = prepared.reduce((n, p) => n + p.ids.length, 0) / (CAPTURES * PER_DOCUMENT);
  await floorStore.close();
  const floorRate = (CAPTURES * PER_DOCUMENT) / (floorMs / 1000);
  console.log(`  floor:  ${Math.round(floorRate).toString().padStart(7)} events/s  (insertMany of the headers and ${rowsPerEvent.toFixed(1)} identifier rows an event, 500 events a transaction)`);
  console.log(`  route / floor: ${(routeRate / floorRate).toFixed(2)}`);
}

// 2. A MATCH_anyEPCClass query's first page at EVENTS stored events (EPCIS_BENCH_EVENTS=0 leaves it out).
if (EVENTS > 0) {
  const dir = DATA ?? tempDir('query');
  if (DATA) mkdirSync(DATA, { recursive: true });
  const reuse = DATA !== undefined && existsSync(join(DATA, 'store.sqlite'));
  const store: Store = await openStore({ dataDir: dir });
  await prepareStore(registry, store);
  const fill = reuse ? { lots: lotsOf(EVENTS), ms: 0, rows: 0 } : await fillEpcisEvents(store, EVENTS);
  if (reuse) console.log(`query: ${await store.count(EPCIS_EVENTS)} events stored in ${dir} (reused), ${fill.lots.length} lots`);
  else console.log(`query: ${EVENTS} events filled in ${(fill.ms / 1000).toFixed(1)} s (${fill.rows} headers and identifier rows, ${Math.round(fill.rows / (fill.ms / 1000))} rows/s), ${fill.lots.length} lots`);
  let seed = 7;
  const draw = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return fill.lots[seed % fill.lots.length]; };
  const lots = Array.from({ length: QUERIES }, draw);

  // The floor first, in this process before the server opens the store: the lot's identifier rows (an id range), then their headers.
  const floorTimes: number[] = [];
  for (const lot of lots) {
    const s = performance.now();
    const prefix = idPrefix('C', canonicalId(lot));
    const end = prefixEnd(prefix);
    const rows = (await store.find(EPCIS_IDS, { filter: { id: { $gte: prefix } }, sort: { id: 1 }, limit: 31 })).filter((r) => r.id < end);
    const keys = [...new Set(rows.map((r) => r.id.slice(prefix.length, r.id.lastIndexOf('!'))))];
    await store.find(EPCIS_EVENTS, { filter: { id: { $in: keys } }, sort: { id: 1 } });
    floorTimes.push(performance.now() - s);
  }
  await store.close();

  const queryServer = await server(dir);
  const times: number[] = [];
  let listed = 0;
  for (const lot of [...lots.slice(0, 20), ...lots]) {
    const s = performance.now();
    const r = await fetch(`${queryServer.url}/api/epcis/events?MATCH_anyEPCClass=${encodeURIComponent(lot)}`, { headers: queryServer.headers });
    const doc = await r.json() as { epcisBody?: { queryResults: { resultsBody: { eventList: unknown[] } } } };
    if (r.status !== 200) throw new Error(`query: ${r.status} ${JSON.stringify(doc).slice(0, 300)}`);
    times.push(performance.now() - s);
    listed += doc.epcisBody!.queryResults.resultsBody.eventList.length;
  }
  await stopProcess(queryServer.child);
  const measured = times.slice(20); // the first 20 warm the server's caches
  console.log(`  route:  ${summary(measured)}  (${QUERIES} lots, ${(listed / times.length).toFixed(1)} events a page, first 20 requests left out as warm-up)`);
  console.log(`  floor:  ${summary(floorTimes)}  (store.find of the lot's identifier rows, then of their headers)`);
}
