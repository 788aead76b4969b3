/**
 * The ledger's verify (issue 18, Speed): an IBC account's chain of N events (default 1,000,000;
 * `--events=100000`) filled into an embedded store in a temp dir, every entry hashed as a
 * transition would chain it, then `verifyChains` timed (target < 10 s at 1,000,000). Beside it a
 * floor measured in the same run on the same database file: a plain SQL scan of the same rows
 * (the events and their entries) with a JSON.parse and a sha256 each. Prints both and the ratio.
 *
 * Verify is timed twice: walked in one part on the main thread, and in parts on threads (one a
 * core), as the server does (its default) for a chain of 100,000 entries or more on the embedded store.
 *
 *   npx tsx scripts/bench/chain.ts [--events=N] [--keep] [--reuse=DIR]
 *   --keep: leave the filled store in its temp dir; --reuse=DIR: time a store left so (no fill).
 */
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { requireDefinitions } from '../../definitions/read';
import { prepareStore } from '../../server/src/boot';
import { CHAIN_ENTRY, entryHash, GENESIS, posOf } from '../../server/src/chain/append';
import { eventHash } from '../../server/src/chain/canonical';
import { activeAccount, IBC_EVENTS, readChainSettings } from '../../server/src/chain/settings';
import { verifyChains } from '../../server/src/chain/verify';
import { newId } from '../../server/src/store/ids';
import { openStore } from '../../server/src/store/index';
import type { Doc } from '../../server/src/store/types';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const EVENTS = Number(arg('events') ?? 1_000_000);
const BATCH = 10_000;
const TRANSITIONS = ['fill', 'ship', 'receive', 'return', 'startQC', 'passQC'];

const registry = requireDefinitions(process.cwd());
const settings = readChainSettings(registry)!;
const account = activeAccount(settings, 'ibc');
const reuse = arg('reuse');
const dir = reuse ?? mkdtempSync(join(tmpdir(), 'bench-chain-'));
const store = await openStore({ dataDir: dir });
await prepareStore(registry, store);

/** An ibc_event row as the ibc workflow's log writes it. */
function event(i: number): Doc {
  const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  const t = TRANSITIONS[i % TRANSITIONS.length];
  return {
    id: `${newId()}.l0`, record: `ibc-${i % 100_000}`, serial: `IBC-${String(i % 100_000).padStart(6, '0')}`, transition: t,
    from: 'in_stock_empty', to: 'prepared', at, deposit: `dep-${i % 40}`, customer: `cust-${i % 500}`, customerSince: at.slice(0, 10),
    uses: i % 30, createdAt: at, createdBy: 'bench',
  };
}

let t0 = performance.now();
let prev = GENESIS;
for (let from = 0; !reuse && from < EVENTS; from += BATCH) {
  const events = Array.from({ length: Math.min(BATCH, EVENTS - from) }, (_, k) => event(from + k));
  const entries = events.map((doc, k) => {
    const body = { account, seq: from + k + 1, collection: IBC_EVENTS, eventId: doc.id as string, eventHash: eventHash(doc), prev };
    prev = entryHash(body);
    return { pos: posOf(account, body.seq), ...body, hash: prev, at: doc.at } as Doc;
  });
  await store.insertMany(IBC_EVENTS, events);
  await store.insertMany(CHAIN_ENTRY, entries);
}
if (!reuse) console.log(`filled ${EVENTS.toLocaleString('en')} chained ibc_event rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (embedded store, ${dir})`);
const entries = await store.count(CHAIN_ENTRY);

/** verifyChains' time, after checking it found the chain whole. */
async function timed(parts: number): Promise<number> {
  const t = performance.now();
  const report = await verifyChains(store, settings, { dataDir: dir, parts, parallelFrom: 1 });
  const ms = performance.now() - t;
  if (!report.ok || report.accounts.find((a) => a.account === account)!.entries !== entries) throw new Error(`verify did not find the chain whole: ${JSON.stringify(report)}`);
  return ms;
}
const cores = availableParallelism();
const oneMs = await timed(1);
const partsMs = await timed(cores);
await store.close();

/** The floor: the same rows read straight from the file, each parsed and hashed once. */
const db = new Database(join(dir, 'store.sqlite'), { readonly: true });
t0 = performance.now();
let rows = 0;
for (const table of [CHAIN_ENTRY, IBC_EVENTS]) {
  for (const text of db.prepare(`SELECT doc FROM "${table}"`).pluck().iterate()) {
    JSON.parse(text as string);
    hash('sha256', text as string, 'hex');
    rows++;
  }
}
const floorMs = performance.now() - t0;
db.close();

const line = (label: string, ms: number) => console.log(`${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${Math.round(entries / (ms / 1000)).toLocaleString('en').padStart(9)} entries/s  ratio to floor ${(ms / floorMs).toFixed(2)}`);
console.log(`verify of ${entries.toLocaleString('en')} entries and their events (target < 10 s at 1,000,000):`);
line('  one walk, main thread', oneMs);
line(`  ${cores} parts on ${cores} threads`, partsMs);
console.log(`  floor: SQL scan of the same ${rows.toLocaleString('en')} rows, JSON.parse + sha256 each: ${(floorMs / 1000).toFixed(2)} s`);
if (!process.argv.includes('--keep') && !reuse) rmSync(dir, { recursive: true, force: true });
