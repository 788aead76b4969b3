/**
 * Identity under load: sign-ins per second, and the latency of an authenticated
 * GET /api/auth/validate next to a public twin route doing the same work without the access
 * check, in the same run. Target: the access check adds under 1 ms at p50.
 *
 * Run: npx tsx scripts/bench/auth.ts   (BENCH_SECONDS, default 10, per autocannon run)
 *
 * The server runs in a child process (this file with --serve) so it has a core to itself; it is
 * the real app (buildApp + authRoutes over the embedded store in a temp DATA_DIR, or
 * MONGODB_URI), plus the twin route, which exists only in this process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { ensureAdmin, prepareStore } from '../../server/src/boot';
import { readConfig } from '../../server/src/config';
import { requireDefinitions } from '../../definitions/read';
import { openStore } from '../../server/src/store/index';
import { Sessions } from '../../server/src/auth/sessions';
import { hashPassword } from '../../server/src/auth/passwords';
import { authRoutes } from '../../server/src/routes/auth';
import { freePort } from '../../server/src/testing/process';

const USERS = 40;
const PASSWORD = 'Bench-pass-2026';
const TWIN = '/bench/validate-without-access-check';

/** The server side: what main.ts starts, plus the twin route. */
async function serve(): Promise<void> {
  const config = readConfig();
  const registry = requireDefinitions(config.root);
  const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri });
  await prepareStore(registry, store);
  await ensureAdmin(registry, store, config.adminEmail, config.adminPassword);
  const hash = await hashPassword(PASSWORD);
  const group = await store.insert('group', { name: 'Bench Hub', access: ['Imports', 'Reports'], warehouses: [], state: 1 });
  for (let i = 0; i < USERS; i++) {
    await store.insert('user', {
      email: `bench${i}@bench.local`, display_name: `Bench ${i}`, state: 1, access: ['Dashboards'], groups: [group.id],
      templates: ['traceabilityOperator'], profiles: [], password_hash: hash,
    });
  }
  const sessions = new Sessions(registry, store);
  // Resolved once, so the twin answers the same body without the per-request token lookup.
  let fixed: { detail: { access: string[]; groups: unknown[] } } | undefined;
  const app = await buildApp({
    registry, store, authenticator: sessions, logger: { level: config.logLevel },
    plugins: [
      (a) => authRoutes(a, { registry, store, sessions, config }),
      async (a: FastifyInstance) => {
        a.post('/bench/prime', { config: { public: true } }, async (req) => {
          const p = await sessions.resolve(String((req.body as { token: string }).token));
          fixed = { detail: { access: [...p!.access], groups: p!.groups } };
          return { ok: true };
        });
        a.get(TWIN, { config: { public: true } }, async () => fixed);
      },
    ],
  });
  const url = await app.listen({ port: config.port, host: '127.0.0.1' });
  console.log(`listening on ${url}`);
  process.once('SIGTERM', () => { void app.close().then(() => store.close()).then(() => process.exit(0)); });
}

/** Sequential keep-alive requests timed with hrtime: sub-millisecond latency, which autocannon rounds to whole ms. */
async function probe(url: string, headers: Record<string, string>, n: number): Promise<{ p50: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => { res.resume(); res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`)))); });
      req.on('error', reject);
      req.end();
    });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n * 0.5)], p99: times[Math.floor(n * 0.99)] };
}

async function cannon(label: string, opts: autocannon.Options): Promise<autocannon.Result> {
  const r = await autocannon(opts);
  const bad = r.errors + r.non2xx;
  console.log(`${label.padEnd(44)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(3)} ms   p99 ${String(r.latency.p99).padStart(3)} ms${bad ? `   errors/non-2xx ${bad}` : ''}`);
  return r;
}

async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-auth-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/auth.ts', '--serve'], {
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'admin@bench.local', ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => { out += d; if (out.includes('listening on')) resolve(); });
      child.once('exit', (c) => reject(new Error(`server exited with ${c}: ${out}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    let n = 0;
    const signIns = await cannon('sign-in (scrypt N=2^15, 8 connections)', {
      url: base, duration: seconds, connections: 8,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, path: '/api/auth/sign-in', body: JSON.stringify({ email: `bench${n++ % USERS}@bench.local`, password: PASSWORD }) }) }],
    });
    const { token } = await (await fetch(`${base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench0@bench.local', password: PASSWORD }) })).json() as { token: string };
    await fetch(`${base}/bench/prime`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const auth = { authorization: `Bearer ${token}` };

    // Warm both paths (JIT, store caches) before measuring either.
    await probe(`${base}/api/auth/validate`, auth, 500);
    await probe(`${base}${TWIN}`, {}, 500);
    // One connection: latency without queueing (autocannon records whole milliseconds).
    const checked1 = await cannon('GET /api/auth/validate, 1 connection', { url: `${base}/api/auth/validate`, headers: auth, duration: seconds, connections: 1 });
    const twin1 = await cannon('twin without access check, 1 connection', { url: `${base}${TWIN}`, duration: seconds, connections: 1 });
    // Ten connections: throughput; p50 here is mostly queueing (10 requests wait on one core).
    const checked10 = await cannon('GET /api/auth/validate, 10 connections', { url: `${base}/api/auth/validate`, headers: auth, duration: seconds, connections: 10 });
    const twin10 = await cannon('twin without access check, 10 connections', { url: `${base}${TWIN}`, duration: seconds, connections: 10 });
    const pChecked = await probe(`${base}/api/auth/validate`, auth, 3000);
    const pTwin = await probe(`${base}${TWIN}`, {}, 3000);
    const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
    console.log(`hrtime, sequential, 3000 each: validate p50 ${us(pChecked.p50)} p99 ${us(pChecked.p99)}; twin p50 ${us(pTwin.p50)} p99 ${us(pTwin.p99)}`);
    const diff = pChecked.p50 - pTwin.p50;
    const cpu = 1e6 / checked10.requests.average - 1e6 / twin10.requests.average;
    console.log(`sign-ins per second: ${signIns.requests.average.toFixed(1)}`);
    console.log(`access check at p50: +${us(diff)} (hrtime), +${checked1.latency.p50 - twin1.latency.p50} ms (autocannon, 1 connection); CPU per request at saturation: +${cpu.toFixed(0)} µs`);
    console.log(`target < 1 ms at p50: ${diff < 1 && checked1.latency.p50 - twin1.latency.p50 < 1 ? 'met' : 'NOT met'}`);
  } finally {
    await new Promise<void>((resolve) => { if (child.exitCode !== null) resolve(); else { child.once('exit', () => resolve()); child.kill('SIGTERM'); } });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
