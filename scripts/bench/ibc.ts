/**
 * IBCs (issue 16): 100,000 IBCs and 2,000,000 ibc_event rows (20 an IBC: fill, ship, receive,
 * return, QC… over two years, 500 customers) on the embedded store in a temp dir, the IBC routes
 * served in this process on 127.0.0.1:3620, then
 *   - look-up by serial number and by NFC tag (GET /api/v3/ibc/lookup), p50/p99;
 *   - holdings for all customers (GET /api/v3/ibc/holdings) and fleet measures (GET /api/v3/ibc/measures);
 *   - the floor: a plain scan of the same events (store.find, keyset pages, the fold's projection),
 *     and the cold start (the whole log folded into the summary once), with the ratios;
 *   - the ADR dates and alerts pass over the fleet (the 6-hourly job).
 * Targets: look-up p99 < 10 ms; holdings < 500 ms; measures < 2 s.
 *
 *   npx tsx scripts/bench/ibc.ts
 *   IBC_BENCH_IBCS=10000 IBC_BENCH_EVENTS=200000 npx tsx scripts/bench/ibc.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app';
import { prepareStore } from '../../server/src/boot';
import { Sessions } from '../../server/src/auth/sessions';
import { openStore } from '../../server/src/store/index';
import { encodeTime } from '../../server/src/store/ids';
import type { Doc } from '../../server/src/store/types';
import { realRegistry } from '../../server/src/testing/harness';
import { ibcRoutes } from '../../server/src/ibc/routes';
import { raiseIbcAlerts } from '../../server/src/ibc/alerts';
import { EventSummaries, IBC_EVENT, ibcCollections } from '../../server/src/ibc/summary';

const IBCS = Number(process.env.IBC_BENCH_IBCS ?? 100_000);
const EVENTS = Number(process.env.IBC_BENCH_EVENTS ?? 2_000_000);
const CUSTOMERS = 500;
const LOOKUPS = 1_000;
const PORT = Number(process.env.IBC_BENCH_PORT ?? 3620);
const ROUNDS = Math.max(1, Math.round(EVENTS / IBCS));
const DAY = 86_400_000;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(1).padStart(8)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'tm-bench-ibc-'));
const registry = realRegistry();
const store = await openStore({ dataDir: dir });
await prepareStore(registry, store);
for (const spec of ibcCollections(registry)) await store.ensureCollection(spec);

// The fleet's life: each IBC walks the cycle from its own phase, one step a round, rounds over two years.
const CYCLE = [
  ['fill', 'in_stock_empty', 'prepared'], ['ship', 'prepared', 'in_transit'], ['receive', 'in_transit', 'at_customer'],
  ['return', 'at_customer', 'returned'], ['startQC', 'returned', 'in_qc'], ['passQC', 'in_qc', 'in_stock_empty'],
] as const;
const start = Date.now() - 730 * DAY;
const span = 720 * DAY;
const customers = (await store.insertMany('company', Array.from({ length: CUSTOMERS }, (_, c) => ({ company_name: `Customer ${c}`, state: 1 })))).map((c) => c.id);
/** Ids as the log's rows get them when they are written at `ms` (newId keeps to the clock it last saw). */
let serial = 0;
const idAt = (ms: number) => encodeTime(ms) + (serial++).toString(32).toUpperCase().padStart(16, '0');
const ibcIds = Array.from({ length: IBCS }, () => idAt(start - DAY));
const state = ibcIds.map(() => ({ uses: 0, status: 'in_stock_empty', customer: '', lastCustomer: '', customerSince: '' }));
const t0 = Date.now();
let written = 0;
for (let r = 0; r < ROUNDS && written < EVENTS; r++) {
  for (let from = 0; from < IBCS && written < EVENTS; from += 10_000) {
    const docs: Doc[] = [];
    for (let i = from; i < Math.min(IBCS, from + 10_000) && written + docs.length < EVENTS; i++) {
      const s = state[i];
      const [transition, fromState, to] = CYCLE[(r + (i % CYCLE.length)) % CYCLE.length];
      const atMs = start + Math.floor(((r * IBCS + i) / (ROUNDS * IBCS)) * span);
      const at = new Date(atMs).toISOString();
      if (transition === 'fill') s.uses++;
      if (transition === 'receive') Object.assign(s, { customer: customers[(i * 7 + r) % CUSTOMERS], customerSince: at });
      if (transition === 'receive') s.lastCustomer = s.customer;
      if (transition === 'return') s.customer = '';
      s.status = to;
      docs.push({
        id: idAt(atMs), record: ibcIds[i], serial: `IBC-${i}`, transition, from: fromState, to, at, since: at, by: 'bench', deposit: 'D1',
        ...(s.lastCustomer ? { customer: s.lastCustomer, customerSince: s.customerSince } : {}), uses: s.uses,
        operation: { workflow: 'ibc_delivery', id: `op-${r}-${i}`, transition },
      });
    }
    await store.insertMany(IBC_EVENT, docs);
    written += docs.length;
  }
}
for (let i = 0; i < IBCS; i += 10_000) {
  await store.insertMany('ibc_container', ibcIds.slice(i, i + 10_000).map((id, k) => {
    const n = i + k;
    const s = state[n];
    const made = new Date(start - (n % 2000) * DAY).toISOString().slice(0, 10);
    return {
      id, serial_number: `IBC-${n}`, nfcTagNumber: `NFC-${n}`, deposit_id: 'D1', state: 1, material_type: n % 10 === 0 ? 'metal' : 'rigid_plastic',
      manufactured_date: made, status: s.status, numberOfUses: s.uses,
      ...(s.customer ? { customer: s.customer } : {}), ...(s.lastCustomer ? { lastCustomer: s.lastCustomer, customerSince: s.customerSince } : {}),
    } as Doc;
  }));
}
console.log(`fleet: ${IBCS} IBCs, ${written} ibc_event rows, ${CUSTOMERS} customers, written in ${((Date.now() - t0) / 1000).toFixed(1)} s (${store.kind})`);

// The floor: every event read once, as the fold reads them.
let t = performance.now();
let scanned = 0;
let after: Doc | undefined;
for (;;) {
  const page = await store.find(IBC_EVENT, { sort: { id: 1 }, limit: 20_000, projection: { record: 1, transition: 1, from: 1, at: 1, customer: 1, customerSince: 1 }, ...(after ? { after } : {}) });
  scanned += page.length;
  if (page.length < 20_000) break;
  after = { id: page[page.length - 1].id };
}
const floor = performance.now() - t;
t = performance.now();
await new EventSummaries(store).rebuild();
const cold = performance.now() - t;
t = performance.now();
await raiseIbcAlerts(store, registry, new Date());
const alertPass = performance.now() - t;

const sessions = new Sessions(registry, store);
const admin = await store.insert('user', { email: 'bench@test.local', display_name: 'Bench', state: 1, access: ['ibcTraceability'], groups: [], templates: [], profiles: [] });
const { token } = await sessions.create(admin.id);
const headers = { authorization: `Bearer ${token}` };
const app = await buildApp({ registry, store, authenticator: sessions, plugins: [(a) => ibcRoutes(a, { registry, store, alertJob: false })] });
const url = await app.listen({ port: PORT, host: '127.0.0.1' });
const get = async (path: string) => {
  const res = await fetch(`${url}${path}`, { headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
};

for (const [label, q] of [['serial', (i: number) => `serial=IBC-${i}`], ['NFC tag', (i: number) => `nfc=NFC-${i}`]] as const) {
  const times: number[] = [];
  for (let k = 0; k < LOOKUPS; k++) {
    const i = (k * 7919) % IBCS;
    const s = performance.now();
    const out = await get(`/api/v3/ibc/lookup?${q(i)}`);
    times.push(performance.now() - s);
    if (out.serial_number !== `IBC-${i}`) throw new Error(`look-up ${label} ${i}: ${JSON.stringify(out).slice(0, 200)}`);
  }
  times.sort((a, b) => a - b);
  console.log(`look-up by ${label.padEnd(8)}            p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}   (target p99 < 10 ms)`);
}

async function timed(path: string, runs: number): Promise<{ first: number; p50: number; max: number; out: Record<string, unknown> }> {
  const times: number[] = [];
  let out: Record<string, unknown> = {};
  for (let k = 0; k < runs; k++) {
    const s = performance.now();
    out = await get(path);
    times.push(performance.now() - s);
  }
  const first = times[0];
  times.sort((a, b) => a - b);
  return { first, p50: pct(times, 50), max: times[times.length - 1], out };
}
const holdings = await timed('/api/v3/ibc/holdings', 20);
const measures = await timed('/api/v3/ibc/measures', 10);
await app.close();
await store.close();

console.log(`holdings, all ${(holdings.out.data as unknown[]).length} customers   first ${ms(holdings.first)}  p50 ${ms(holdings.p50)}  max ${ms(holdings.max)}   (target < 500 ms)`);
console.log(`fleet measures                  first ${ms(measures.first)}  p50 ${ms(measures.p50)}  max ${ms(measures.max)}   (target < 2 s)`);
console.log(`floor: scan of ${scanned} events      ${ms(floor)}`);
console.log(`cold start: the log folded once   ${ms(cold)}   (once per process start without a stored summary, or after a late row)`);
console.log(`ADR dates + alerts pass           ${ms(alertPass)}`);
console.log(`holdings / floor: ${(holdings.max / floor).toFixed(3)}; measures / floor: ${(measures.max / floor).toFixed(3)}; cold fold / floor: ${(cold / floor).toFixed(2)}`);
console.log(`measures: ${JSON.stringify({ ...measures.out, fillCountDistribution: (measures.out.fillCountDistribution as unknown[]).length + ' counts' })}`);
rmSync(dir, { recursive: true, force: true });
