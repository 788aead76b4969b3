/**
 * Master-data API under load on the embedded store (or MONGODB_URI): 100,000 companies and
 * 100,000 materials, then autocannon (100 connections, 20 s each) on search, get by id and
 * create, beside a bare Fastify hello-world in the same run. Run: npx tsx scripts/bench/api.ts
 * (`--prof=DIR`: the server writes a CPU profile there; BENCH_SECONDS shortens each run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireDefinitions } from '../../definitions/read';
import { openStore } from '../../server/src/store/index';
import { ensureAdmin, prepareStore } from '../../server/src/boot';
import { newId } from '../../server/src/store/ids';
import { drained, load, profileArgs, signIn, startProcess, stopProcess } from './lib';

const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-api-'));
const env = { DATA_DIR: dir, ADMIN_EMAIL: 'bench@test.local', ADMIN_PASSWORD: 'Bench-pass-2026', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) };
const words = ['Agro', 'Campo', 'Semillas', 'Insumos', 'Cereales', 'Química', 'Pampa', 'Litoral', 'Norte', 'Sur'];

const registry = requireDefinitions(process.cwd());
const store = await openStore({ dataDir: dir, mongodbUri: process.env.MONGODB_URI });
await prepareStore(registry, store);
await ensureAdmin(registry, store, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
const t0 = Date.now();
const ids: string[] = [];
for (let i = 0; i < N; i += 1000) {
  const companies = Array.from({ length: Math.min(1000, N - i) }, (_, k) => {
    const n = i + k;
    const id = newId();
    if (n % 97 === 0) ids.push(id);
    return { id, company_name: `${words[n % 10]} ${words[(n >> 3) % 10]} ${n} S.A.`, email: `c${n}@example.com.ar`, state: 1 };
  });
  await store.insertMany('company', companies);
  await store.insertMany('material', companies.map((c, k) => ({ id: newId(), name: `Producto ${i + k}`, state: 1 })));
}
console.log(`seeded ${N} companies and ${N} materials in ${((Date.now() - t0) / 1000).toFixed(1)} s (${store.kind})`);
await store.close();

const server = await startProcess('server/src/main.ts', env, profileArgs());
const hello = await startProcess('scripts/bench/hello.ts', {});
const headers = { authorization: `Bearer ${await signIn(server.url, env.ADMIN_EMAIL, env.ADMIN_PASSWORD)}`, 'content-type': 'application/json' };

let q = 0;
let c = 0;
const onServer = async (label: string, opts: Parameters<typeof load>[1]) => {
  await drained(`${server.url}/api/v3/masterdata/company/${ids[0]}`, headers);
  return load(label, opts);
};
const results = [
  await load('hello-world (bare Fastify)', { url: `${hello.url}/hello`, duration: DURATION }),
  await onServer('get by id', { url: server.url, duration: DURATION, requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: `/api/v3/masterdata/company/${ids[q++ % ids.length]}` }) }] }),
  // What people type into a search box: a distinctive part of a name or code (a handful of hits).
  await onServer('list with q (specific)', { url: server.url, duration: DURATION, requests: [{ method: 'GET', headers, setupRequest: (req) => { const n = (q++ * 7919) % N; return { ...req, path: `/api/v3/masterdata/company?q=${encodeURIComponent(`${words[(n >> 3) % 10]} ${n}`)}` }; } }] }),
  // The worst case: two common words that match about 1% of all companies (about 1,000 rows to count and sort).
  await onServer('list with q (broad, ~1% match)', { url: server.url, duration: DURATION, requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: `/api/v3/masterdata/company?q=${encodeURIComponent(`${words[q % 10]} ${words[(q++ >> 1) % 10]}`)}` }) }] }),
  await onServer('create', { url: server.url, duration: DURATION, requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, path: '/api/v3/masterdata/company', body: JSON.stringify({ company_name: `Bench ${process.pid} ${c++}`, state: 1, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } } }) }) }] }),
];
const [h, get, search, broad, create] = results;
console.log(`get-by-id / hello-world throughput: ${((get.rps / h.rps) * 100).toFixed(0)}% (target at least 25%)`);
console.log(`targets: get by id >= 3000 req/s (${get.rps.toFixed(0)}), search p99 < 100 ms (specific ${search.p99}, broad ${broad.p99}), create >= 1000/s (${create.rps.toFixed(0)})`);
await stopProcess(server.child);
await stopProcess(hello.child);
rmSync(dir, { recursive: true, force: true });
