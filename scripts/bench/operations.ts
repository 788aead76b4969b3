/**
 * Operations (issue 15): a ledger of 1,000,000 movements on the embedded store (or
 * MONGODB_URI), the server in its own process, then
 *   - stock of one material, batch and deposit, now and on a past date (GET /api/v3/stock), p50/p99;
 *   - 10-line shipment confirmations from 20 concurrent clients: confirmations/s, p50, p99;
 *   - master-data creates from 20 concurrent clients in the same run, and the ratio;
 *   - the floor: the store's own writes for one confirmation (the same reads and writes,
 *     in a transaction where the store has them), 20 at a time, with no HTTP, no planning.
 * Targets (embedded): stock p99 < 10 ms; confirmations ≥ 300/s with p99 < 50 ms.
 *
 *   npx tsx scripts/bench/operations.ts
 *   BENCH_MOVEMENTS=200000 BENCH_CONFIRMS=1000 npx tsx scripts/bench/operations.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { prepareStore } from '../../server/src/boot';
import { openStore } from '../../server/src/store/index';
import type { Doc, Store } from '../../server/src/store/types';
import { BALANCES, balanceId, checkMovements, MOVEMENTS, writeMovements } from '../../server/src/ledger/ledger';
import { newId } from '../../server/src/store/ids';
import { spawnServer } from '../../server/src/testing/process';
import { seedShipping, shipmentRegistry } from '../../server/src/workflows/testing/fixture';
import { stopProcess } from './lib';

const MOVES = Number(process.env.BENCH_MOVEMENTS ?? 1_000_000);
const CONFIRMS = Number(process.env.BENCH_CONFIRMS ?? 2_000);
const CLIENTS = 20;
const LINES = 10;
/** Movements per balance key: 10,000 keys of 100 movements for a million. */
const PER_KEY = 100;
const LOOKUPS = 500;

const dir = mkdtempSync(join(tmpdir(), 'tm-bench-ops-'));
const uri = process.env.MONGODB_URI ? (() => { const u = new URL(process.env.MONGODB_URI!); u.pathname = `/bench_ops_${randomBytes(4).toString('hex')}`; return u.toString(); })() : '';
const registry = shipmentRegistry();

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(1).padStart(6)} ms`;

/** Runs `work(i)` for i < n from `clients` concurrent loops; each call's latency, and the throughput. */
async function concurrently(n: number, clients: number, work: (i: number) => Promise<void>): Promise<{ perSecond: number; p50: number; p99: number }> {
  let next = 0;
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      await work(i);
      times.push(performance.now() - t);
    }
  }));
  const total = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: n / total, p50: pct(times, 50), p99: pct(times, 99) };
}

// The ledger: KEYS balance keys (material × batch × deposit), PER_KEY movements each over two years.
const store: Store = await openStore({ dataDir: dir, mongodbUri: uri || undefined });
await prepareStore(registry, store);
await store.ensureCollection({ name: 'crash_seed', uniqueKeys: [], indexes: [] });
const seed = await seedShipping(store);
await store.insert('crash_seed', seed as never);
await store.insertMany('lot', Array.from({ length: 1000 }, (_, b) => ({ number: `B${String(b).padStart(4, '0')}`, material: seed.material, expirationDate: '2027-01-01' })));
const keys = Math.max(1, Math.floor(MOVES / PER_KEY));
const keyOf = (k: number) => ({ material: seed.material, batch: `B${String(k % 1000).padStart(4, '0')}`, deposit: k < 1000 ? seed.from : `DEP${Math.floor(k / 1000)}` });
const start = Date.parse('2024-01-01T00:00:00Z');
const t0 = Date.now();
const balances = new Map<string, number>();
for (let i = 0; i < MOVES; i += 10_000) {
  const docs: Doc[] = [];
  for (let j = i; j < Math.min(MOVES, i + 10_000); j++) {
    const k = j % keys;
    const key = keyOf(k);
    const quantity = j < keys ? 100_000 : Math.floor(j / keys) % 4 === 3 ? -5 : 20;
    balances.set(balanceId(key), (balances.get(balanceId(key)) ?? 0) + quantity);
    docs.push({ id: newId(), key: balanceId(key), ...key, quantity, unit: seed.uom, operation: { workflow: 'bench', id: `op${j}`, transition: 'seed' }, at: new Date(start + Math.floor((j / MOVES) * 730 * 86_400_000)).toISOString() });
  }
  await store.insertMany(MOVEMENTS, docs);
}
const balanceDocs = [...balances].map(([id, quantity]) => { const [material, batch, deposit] = id.split('|'); return { id, material, batch, deposit, quantity, unit: seed.uom }; });
for (let i = 0; i < balanceDocs.length; i += 10_000) await store.insertMany(BALANCES, balanceDocs.slice(i, i + 10_000));
console.log(`ledger: ${MOVES} movements over ${keys} balances in ${((Date.now() - t0) / 1000).toFixed(1)} s (${store.kind})`);

// The floor: what the store needs for one confirmation's reads and writes, with nothing around them.
const floorRecords = await store.insertMany('test_shipment', Array.from({ length: CONFIRMS }, (_, i) => ({ shipmentID: `F-${i}`, status: 'Draft', deposit: seed.from, history: [] })));
const floor = await concurrently(CONFIRMS, CLIENTS, async (i) => {
  const moves = Array.from({ length: LINES }, (_, l) => ({ ...keyOf((i * LINES + l) % 1000), quantity: -1, unit: seed.uom }));
  const work = async (s: Store) => {
    const rec = await s.get('test_shipment', floorRecords[i].id);
    await checkMovements(s, moves);
    const opId = newId();
    await writeMovements(s, moves, { workflow: 'floor', id: rec!.id, transition: 'confirm' }, new Date().toISOString(), opId);
    await s.insert('object_events', { id: `${opId}.e0`, event_time: new Date().toISOString(), biz_step: 'shipping' });
    await s.update('test_shipment', rec!.id, { ...rec!, status: 'In-Progress' });
  };
  await (store.capabilities.transactions ? store.transaction(work) : work(store));
});
await store.close();

const server = await spawnServer({ DATA_DIR: dir, MONGODB_URI: uri }, { script: 'server/src/workflows/testing/crash-child.ts', timeoutMs: 120_000 });
const headers = { authorization: `Bearer ${/TOKEN (\S+)/.exec(server.output())![1]}`, 'content-type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
};

for (const [label, at] of [['now', undefined], ['past date', '2024-09-15']] as const) {
  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const k = keyOf((i * 7919) % keys);
    const t = performance.now();
    const out = await call('GET', `/api/v3/stock?material=${k.material}&batch=${k.batch}&deposit=${k.deposit}${at ? `&at=${at}` : ''}`);
    times.push(performance.now() - t);
    if ((out.data as unknown[]).length !== 1) throw new Error(`stock of ${JSON.stringify(k)} ${label}: ${JSON.stringify(out).slice(0, 200)}`);
  }
  times.sort((a, b) => a - b);
  console.log(`stock lookup ${label.padEnd(10)} p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}   (target p99 < 10 ms)`);
}

const drafts: string[] = [];
for (let i = 0; i < CONFIRMS; i++) {
  const productData = Array.from({ length: LINES }, (_, l) => ({ material: seed.material, batchId: keyOf((i * LINES + l) % 1000).batch, amount: 1, uom: seed.uom }));
  drafts.push(String((await call('POST', '/api/v3/operations/test_shipment', { shipmentID: `S-${i}`, sendDate: '2025-05-01', deposit: seed.from, receiverDeposit: seed.to, productData })).id));
}
const confirms = await concurrently(CONFIRMS, CLIENTS, async (i) => { await call('POST', `/api/v3/operations/test_shipment/${drafts[i]}/transitions/confirm`, {}); });
const creates = await concurrently(CONFIRMS, CLIENTS, async (i) => { await call('POST', '/api/v3/masterdata/material', { name: `Bench material ${i}`, state: 1 }); });
await stopProcess(server.child);

const line = (label: string, f: { perSecond: number; p50: number; p99: number }) =>
  console.log(`${label.padEnd(36)} ${f.perSecond.toFixed(0).padStart(6)}/s  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}`);
line(`confirmations (${LINES} lines, ${CLIENTS} clients)`, confirms);
line(`master-data creates (${CLIENTS} clients)`, creates);
line('floor: the store\'s writes alone', floor);
console.log(`confirmations / creates: ${(confirms.perSecond / creates.perSecond).toFixed(2)}; confirmations / floor: ${(confirms.perSecond / floor.perSecond).toFixed(2)}   (target ≥ 300/s, p99 < 50 ms)`);
rmSync(dir, { recursive: true, force: true });
