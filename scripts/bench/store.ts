/**
 * Store benchmark: npx tsx scripts/bench/store.ts
 *   BENCH_DOCS (default 200000)  documents to insert
 *   MONGODB_URI                  also run against MongoDB (a throw-away database)
 *   BENCH_DIR                    where the embedded store writes (default: a temp directory, removed)
 *   BENCH_PHASE_SECONDS (20)     cap on each one-at-a-time loop; the count actually done is printed
 *                                (mongo-java-server scans the whole collection for most lookups)
 * Prints, per store: inserts/s, upserts/s (one at a time by unique key), sorted first page of 20
 * with a filter, a case-insensitive search page, get by id, $match+$group, a sorted aggregation
 * page ($match, $sort, $limit), a whole sorted aggregation through aggregateCursor, and RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { MongoStore } from '../../server/src/store/mongo.js';
import { SqliteStore } from '../../server/src/store/sqlite.js';
import type { Doc, Store } from '../../server/src/store/types.js';

const DOCS = Number(process.env.BENCH_DOCS ?? 200_000);
const UPSERTS = Math.min(10_000, DOCS);
const COLL = 'companies';
const TYPES = ['producer', 'distributor', 'retailer', 'lab'];
const CITIES = ['Rosario', 'Córdoba', 'Mendoza', 'Salta', 'La Plata', 'Paraná', 'Neuquén'];

function company(i: number): Doc {
  return {
    name: `Empresa ${(i * 7919) % DOCS} ${CITIES[i % CITIES.length]} SA`,
    cuit: `30-${String(10_000_000 + i)}-${i % 10}`,
    type: TYPES[i % 4],
    state: i % 10 === 0 ? 3 : 1,
    employees: (i * 31) % 500,
    address: { street: `Calle ${i % 900}`, city: CITIES[i % CITIES.length], zip: String(2000 + (i % 300)) },
    email: `contacto${i}@empresa.com.ar`,
  };
}

const PHASE_MS = Number(process.env.BENCH_PHASE_SECONDS ?? 20) * 1000;

/** Runs f(i) for i < n or until the phase cap; returns [done, ms]. */
async function loop(n: number, f: (i: number) => Promise<unknown>): Promise<[number, number]> {
  const t = performance.now();
  let i = 0;
  while (i < n && performance.now() - t < PHASE_MS) await f(i++);
  return [i, performance.now() - t];
}

const mb = () => `${Math.round(process.memoryUsage().rss / 1048576)} MB`;
const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en')}/s`;

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

/** Median of `reps` runs (fewer if the phase cap is reached), in ms with two decimals. */
async function median(reps: number, f: () => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < reps && (i === 0 || performance.now() - start < PHASE_MS); i++) times.push((await timed(f))[1]);
  reps = times.length;
  times.sort((a, b) => a - b);
  return `${times[Math.floor(reps / 2)].toFixed(2)} ms`;
}

async function bench(label: string, store: Store, reopen?: () => Promise<Store>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await store.ensureCollection({ name: COLL, uniqueKeys: [['cuit']], indexes: ['name', 'cuit', 'state', 'type'] });

  const batch = 10_000;
  const [, insertMs] = await timed(async () => {
    for (let i = 0; i < DOCS; i += batch) {
      await store.insertMany(COLL, Array.from({ length: Math.min(batch, DOCS - i) }, (_, j) => company(i + j)));
    }
  });
  out[`insert ${DOCS.toLocaleString('en')} (insertMany of ${batch.toLocaleString('en')})`] = rate(DOCS, insertMs);
  out['RSS after insert'] = mb();

  const [upserts, upsertMs] = await loop(UPSERTS, async (i) => {
    const doc = company((i * 104_729) % DOCS);
    if (i % 2 === 0) doc.employees = (doc.employees as number) + 1; // half changed, half unchanged
    await store.upsertMany(COLL, ['cuit'], [doc]);
  });
  out[`upsert by unique key, one at a time (${upserts.toLocaleString('en')})`] = rate(upserts, upsertMs);

  out['sorted first page of 20, filter {state, type}'] = await median(51, () =>
    store.find(COLL, { filter: { state: 1, type: 'lab' }, sort: { name: 1 }, limit: 20 }));
  const q = { $regex: 'córdoba', $options: 'i' };
  const search = { state: { $ne: 3 }, $or: [{ name: q }, { cuit: q }] };
  out['search page: $regex i on 2 fields, sorted, 20'] = await median(21, () => store.find(COLL, { filter: search, sort: { name: 1 }, limit: 20 }));
  out['search total: count of the same filter'] = await median(5, () => store.count(COLL, search));

  const ids = (await store.find(COLL, { sort: { id: 1 }, limit: 2000, projection: { id: 1 } })).map((d) => d.id);
  const [gets, getMs] = await loop(10_000, (i) => store.get(COLL, ids[(i * 7) % ids.length]));
  out[`get by id (${gets.toLocaleString('en')})`] = rate(gets, getMs);

  out['$match + $group over all documents'] = await median(3, () => store.aggregate(COLL, [
    { $match: { state: 1 } },
    { $group: { _id: '$type', n: { $sum: 1 }, employees: { $avg: '$employees' } } },
  ]));
  out['$match + $sort {name: -1} + $limit 20'] = await median(21, () => store.aggregate(COLL, [
    { $match: { state: 1 } }, { $sort: { name: -1 } }, { $limit: 20 },
  ]));
  const [rows, cursorMs] = await timed(async () => {
    let n = 0;
    for await (const b of store.aggregateCursor(COLL, [{ $match: { state: 1 } }, { $sort: { name: 1 } }, { $project: { _id: 0, name: 1, cuit: 1, city: '$address.city' } }])) n += b.length;
    return n;
  });
  out[`aggregateCursor, sorted, $project (${rows.toLocaleString('en')} rows)`] = rate(rows, cursorMs);
  out['RSS at end'] = mb();

  if (reopen) {
    await store.close();
    const [again, reopenMs] = await timed(async () => {
      const s = await reopen();
      await s.find(COLL, { sort: { name: 1 }, limit: 20 });
      return s;
    });
    out['reopen + first sorted page'] = `${reopenMs.toFixed(1)} ms`;
    await again.close();
  } else {
    await store.close();
  }
  console.log(`\n${label}`);
  for (const [k, v] of Object.entries(out)) console.log(`  ${k.padEnd(52)} ${v}`);
  return out;
}

const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'bench-store-'));
try {
  console.log(`store benchmark: ${DOCS.toLocaleString('en')} company documents, node ${process.version}`);
  await bench(`embedded (SQLite, ${dir})`, new SqliteStore({ dataDir: dir }), async () => new SqliteStore({ dataDir: dir }));
} finally {
  if (!process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true });
}

const uri = process.env.MONGODB_URI;
if (uri) {
  const dbName = `bench_store_${Date.now().toString(36)}`;
  try {
    await bench(`MongoDB (${uri.replace(/\/\/[^@/]*@/, '//***@')}, database ${dbName})`, await MongoStore.connect({ uri, dbName }));
  } finally {
    const client = new MongoClient(uri);
    await client.connect();
    await client.db(dbName).dropDatabase();
    await client.close();
  }
} else {
  console.log('\nMongoDB: skipped (MONGODB_URI not set)');
}
