/**
 * The mobile app under /m (issue 20, speed): in one run, against the real server
 * (server/src/main.ts on the embedded store in a temp dir, 127.0.0.1),
 *   1. weight: the gzip size of the JavaScript /m/index.html loads at first (web/dist/m's Vite
 *      manifest: the entry, its static imports and the service-worker registration module that
 *      boot imports), beside the desktop sign-in route's figure (scripts/bench/web.ts);
 *   2. cold load in headless Chromium on a phone (390×844, a fresh context each run, service
 *      workers allowed but a first visit): navigation start → "Sign in" enabled after typing an
 *      e-mail and a password, median and p95, beside the desktop sign-in page loaded in turn
 *      with it (the peer);
 *   3. sync: 500 actions a device queued offline (Map Location with lat/lng, Map IBC to an NFC
 *      tag, Start QC; each on its own IBC, `offline: true`) POSTed to /api/v3/mobile/actions as
 *      the app sends them (batches of 100 in seq order, one after another) until all 500
 *      verdicts are in; every verdict applied and every IBC read back changed; then the same
 *      500 again (same device and seqs), which must apply nothing (every IBC read back
 *      unchanged). The peer: the same 500 transitions on other IBCs through the operations API
 *      (POST /api/v3/operations/ibc/:id/transitions/:t), one request after another.
 * Targets: first load ≤ 150 KB gzip, interactive < 1 s, 500 queued actions synced < 30 s.
 *
 *   npx tsx scripts/bench/mobile.ts [--runs N]     (MOBILE_BENCH_RUNS=N; BENCH_PORT=… for the port)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { requireDefinitions } from '../../definitions/read';
import { launchChromium } from '../../e2e/harness/browser';
import { ensureWebBuild } from '../../e2e/harness/build';
import { freePort } from '../../e2e/harness/net';
import { stamp, withSeedStore } from '../../e2e/harness/seed';
import { startServer, type RunningServer } from '../../e2e/harness/server';
import { hashPassword } from '../../server/src/auth/passwords';
import { adrDates, dayOf } from '../../server/src/ibc/dates';
import { VERDICTS } from '../../server/src/mobile/verdicts';
import { openStore } from '../../server/src/store/index';
import { signIn } from './lib';
import { chunksOf, coldSignIn, DESKTOP, entryOf, gzipWeight, median, percentile, printWeight, readManifest, signInWeight } from './webLoad';

const root = process.cwd();
const runsArg = process.argv.indexOf('--runs');
const RUNS = Math.max(1, Number(runsArg > 0 ? process.argv[runsArg + 1] : process.env.MOBILE_BENCH_RUNS ?? 9));
const ACTIONS = 500;
const BATCH = 100; // web/mobile/src/queue.ts MAX_BATCH
const WARM = 5;
const LIMIT_KB = 150;
const LIMIT_MS = 1000;
const LIMIT_SYNC_MS = 30_000;
const DESKTOP_LIMIT_KB = 200;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US', serviceWorkers: 'allow' } as const;
const USER = { email: 'bench.mobile@bench.local', password: 'Bench-mobile-2026' };
const GROUP = 'Bench Yard';
const DEVICE = 'bench-device-0001';
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

// ---- 1. weight -------------------------------------------------------------------------------
ensureWebBuild(root);
const mobileDist = join(root, 'web', 'dist', 'm');
const manifest = readManifest(mobileDist);
const entry = entryOf(manifest);
// registerSW (virtual:pwa-register) imports workbox-window dynamically at boot: part of the first load.
const registration = (manifest[entry].dynamicImports ?? []).filter((k) => /workbox-window/.test(k));
const firstLoadFiles = [...chunksOf(manifest, [entry]), ...chunksOf(manifest, registration)];
const mobileWeight = gzipWeight(mobileDist, [...new Set(firstLoadFiles)]);
const desktopWeight = signInWeight(root);
const mobileWeightOk = printWeight('JavaScript /m/ loads at first (gzip: entry, static imports, service-worker registration):', mobileWeight, LIMIT_KB);
printWeight('peer: JavaScript the desktop sign-in route loads (gzip):', desktopWeight, DESKTOP_LIMIT_KB);
const lazy = Object.values(manifest).filter((c) => c.file.endsWith('.js') && !firstLoadFiles.includes(c.file)).map((c) => c.file);
const worker = readdirSync(mobileDist).filter((f) => f.endsWith('.js'));
console.log(`  not in the first load: ${lazy.join(', ') || 'nothing'} (dynamic imports, ${kb(gzipWeight(mobileDist, lazy).total)});`
  + ` the service worker's own scripts ${worker.join(', ')} (${kb(gzipWeight(mobileDist, worker).total)})`);
// What the service worker then fetches on the first visit to precache it (sw.js's list), as the server sends it (.br when the build wrote one).
const precache = [...new Set([...readFileSync(join(mobileDist, 'sw.js'), 'utf8').matchAll(/url:"([^"]+)"/g)].map((m) => m[1]))];
const wire = (f: string) => statSync(existsSync(join(mobileDist, `${f}.br`)) ? join(mobileDist, `${f}.br`) : join(mobileDist, f)).size;
const raw = precache.filter((f) => !existsSync(join(mobileDist, `${f}.br`)) && !f.endsWith('.png') && wire(f) >= 1024);
console.log(`  the service worker then precaches ${precache.length} files, ${kb(precache.reduce((n, f) => n + wire(f), 0))} on the wire (sent uncompressed: ${raw.map((f) => `${f} ${kb(wire(f))}`).join(', ') || 'none'})`);

// ---- the server, seeded for the sync ---------------------------------------------------------
/** What each queued action does to its IBC: i % 5 → three Map Location, one Map IBC (NFC), one Start QC. */
interface Step { feature: string; transition: string; fields?: Record<string, unknown> }
function step(i: number, prefix: string): Step {
  switch (i % 5) {
    case 3: return { feature: 'mapIbc', transition: 'mapNfc', fields: { nfcTagNumber: `NFC-${prefix}-${String(i).padStart(5, '0')}` } };
    case 4: return { feature: 'performQc', transition: 'startQC' };
    default: return { feature: 'mapLocation', transition: 'mapLocation', fields: { location: { lat: -33 - i / 1000, lng: -60 - i / 1000 } } };
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'tm-bench-mobile-'));
const ibcs: Record<'mobile' | 'peer' | 'warm', string[]> = { mobile: [], peer: [], warm: [] };
let server: RunningServer | undefined;
let browser: Browser | undefined;
let failed = !mobileWeightOk;
try {
  const t0 = performance.now();
  await withSeedStore(root, dataDir, async (store) => {
    const keys = ['ibc.mobile.maplocation', 'ibc.mobile.performqc'];
    const country = await store.insert('country', { country_name: 'Argentina', senasa_country_id: '32', sap_country_id: 'AR', sap_country_description: 'Argentina', state: 1, ...stamp() });
    const company = await store.insert('company', { company_name: 'Bench Envases S.A.', state: 1, ...stamp() });
    const deposit = await store.insert('company_division', {
      division_name: 'Bench deposit', division_type: 'deposit', senasa_id_type: 'depositID', erp_id: 'D-BENCH', company_id: company.id, country: country.id, state: 1, ...stamp(),
    });
    const group = await store.insert('group', { name: GROUP, description: GROUP, access: keys, warehouses: [deposit.id], state: 1, ...stamp() });
    await store.insert('user', {
      email: USER.email, display_name: 'Bench Mobile', state: 1, access: keys, groups: [group.id], templates: [], profiles: [],
      language: 'en', notification_channel: 'local', password_hash: await hashPassword(USER.password), ...stamp(),
    });
    const settings = requireDefinitions(root).deployment.settings.ibc;
    for (const [set, n] of [['mobile', ACTIONS], ['peer', ACTIONS], ['warm', 2 * WARM]] as const) {
      const docs = Array.from({ length: n }, (_, i) => {
        const ibc = { serial_number: `IBC-${set}-${String(i).padStart(5, '0')}`, company_id: company.id, manufactured_date: dayOf(new Date(), -365), material_type: 'rigid_plastic', capacity: 1000, deposit_id: deposit.id };
        return { ...ibc, ...adrDates(ibc, settings), status: 'in_stock_empty', numberOfUses: 0, state: 1, ...stamp() };
      });
      ibcs[set] = (await store.insertMany('ibc_container', docs)).map((d) => d.id);
    }
  });
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  server = await startServer(root, port, { DATA_DIR: dataDir });
  console.log(`server on ${server.url} (seeded ${2 * ACTIONS + 2 * WARM} IBCs and a user holding Map Location and Perform QC (mobile) in ${secs(performance.now() - t0)})`);
  const url = server.url;

  // ---- 2. cold loads, phone and desktop in turn ----------------------------------------------
  browser = await launchChromium();
  const phone: number[] = [];
  const desk: number[] = [];
  let scripts: string[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const m = await coldSignIn(browser, `${url}/m/`, PHONE);
    const d = await coldSignIn(browser, `${url}/`, { viewport: DESKTOP });
    if (i === 0) continue; // the first loads warm the server's file cache
    phone.push(m.ms);
    desk.push(d.ms);
    scripts = m.scripts;
  }
  await browser.close();
  browser = undefined;
  const fetched = scripts.map((s) => s.replace(/^\/m\//, ''));
  const unexpected = fetched.filter((f) => !firstLoadFiles.includes(f));
  console.log(`cold loads (navigation start → sign-in button enabled after typing), ${RUNS} each, in turn:`);
  console.log(`  /m/ on a phone (390×844):  runs ${phone.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`  peer: desktop sign-in:     runs ${desk.map((t) => t.toFixed(0)).join(', ')} ms`);
  const pm = median(phone);
  console.log(`  /m/      median ${pm.toFixed(0).padStart(5)} ms  p95 ${percentile(phone, 95).toFixed(0).padStart(5)} ms (target < ${LIMIT_MS} ms): ${pm < LIMIT_MS ? 'ok' : 'OVER'}`);
  console.log(`  desktop  median ${median(desk).toFixed(0).padStart(5)} ms  p95 ${percentile(desk, 95).toFixed(0).padStart(5)} ms`);
  console.log(`  scripts /m/ fetched: ${fetched.join(', ')}${unexpected.length ? `  (NOT in the counted first load: ${unexpected.join(', ')})` : ''}`);
  failed ||= pm >= LIMIT_MS || unexpected.length > 0;

  // ---- 3. sync ---------------------------------------------------------------------------------
  const token = await signIn(url, USER.email, USER.password);
  const headers = {
    authorization: `Bearer ${token}`, platform: 'mobile', 'accept-language': 'en', 'x-warehouse-group': encodeURIComponent(GROUP), 'content-type': 'application/json',
  };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok && res.status !== 204) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) as Record<string, any> : {};
  };
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`, { headers });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    return await res.json() as Record<string, any>;
  };
  await post('/api/v3/mobile/terms', { version: requireDefinitions(root).mobile!.termsVersion });

  const queued = (ids: string[], prefix: string, offline: boolean) => ids.map((recordId, i) => {
    const s = step(i, prefix);
    return {
      seq: i + 1, feature: s.feature, workflow: 'ibc', recordId, kind: 'transition', transition: s.transition,
      ...(s.fields ? { fields: s.fields } : {}), at: new Date(Date.now() - (ids.length - i) * 60_000).toISOString(), offline,
    };
  });
  type Verdict = { seq: number; status: string; record?: { id: string; state: string }; error?: { code: string; message: string } };
  const sync = async (device: string, actions: ReturnType<typeof queued>) => {
    const results: Verdict[] = [];
    const batches: number[] = [];
    for (let i = 0; i < actions.length; i += BATCH) {
      const t = performance.now();
      results.push(...(await post('/api/v3/mobile/actions', { deviceId: device, actions: actions.slice(i, i + BATCH) })).results as Verdict[]);
      batches.push(performance.now() - t);
    }
    return Object.assign(results, { batches });
  };
  const direct = async (ids: string[], prefix: string) => {
    for (const [i, id] of ids.entries()) {
      const s = step(i, prefix);
      await post(`/api/v3/operations/ibc/${id}/transitions/${s.transition}`, s.fields ? { fields: s.fields } : {});
    }
  };
  /** Every IBC as the operations API reads it, a few requests at a time (not timed). */
  const readAll = async (ids: string[]) => {
    const out: Record<string, any>[] = new Array(ids.length);
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < ids.length) {
        const i = next++;
        out[i] = (await get(`/api/v3/operations/ibc/${ids[i]}`)).record;
      }
    }));
    return out;
  };

  // Warm-up: a few of each path on their own IBCs, online (no offline stamp), so neither timed path pays for the first calls.
  await sync('bench-warm-up', queued(ibcs.warm.slice(0, WARM), 'WM', false));
  await direct(ibcs.warm.slice(WARM), 'WP');

  const actions = queued(ibcs.mobile, 'M', true);
  let t = performance.now();
  const verdicts = await sync(DEVICE, actions);
  const syncMs = performance.now() - t;
  const notApplied = verdicts.filter((v) => v.status !== 'applied');
  for (const v of notApplied.slice(0, 5)) console.log(`  NOT APPLIED seq ${v.seq}: ${v.error?.code} ${v.error?.message}`);

  const after = await readAll(ibcs.mobile);
  const wrong = after.filter((r, i) => {
    const s = step(i, 'M');
    const done = s.transition === 'mapLocation' ? r.location?.lat === (s.fields!.location as { lat: number }).lat
      : s.transition === 'mapNfc' ? r.nfcTagNumber === s.fields!.nfcTagNumber : r.status === 'in_qc';
    return !(done && r.offline === true && r.offlineDevice === DEVICE && r.offlineAt === new Date(actions[i].at).toISOString() && (r.history as unknown[])?.length === 1);
  });

  t = performance.now();
  await direct(ibcs.peer, 'P');
  const peerMs = performance.now() - t;

  t = performance.now();
  const replay = await sync(DEVICE, actions);
  const replayMs = performance.now() - t;
  const replayDiffers = replay.filter((v, i) => JSON.stringify(v) !== JSON.stringify(verdicts[i])).length;
  const again = await readAll(ibcs.mobile);
  const changedByReplay = again.filter((r, i) => JSON.stringify(r) !== JSON.stringify(after[i])).length;
  const kept = await get(`/api/v3/mobile/actions?deviceId=${DEVICE}&after=0`);

  const rate = (ms: number) => `${(ACTIONS / (ms / 1000)).toFixed(0).padStart(5)} actions/s`;
  console.log(`sync of ${ACTIONS} queued actions (${ACTIONS / BATCH} batches of ${BATCH}, one after another; 300 mapLocation, 100 mapNfc, 100 startQC, offline):`);
  console.log(`  POST /api/v3/mobile/actions       ${secs(syncMs).padStart(8)}  ${rate(syncMs)}  (target < ${LIMIT_SYNC_MS / 1000} s): ${syncMs < LIMIT_SYNC_MS ? 'ok' : 'OVER'}`);
  console.log(`    each batch of ${BATCH}: ${verdicts.batches.map((b) => b.toFixed(0)).join(', ')} ms`);
  console.log(`  replay, same device and seqs      ${secs(replayMs).padStart(8)}  ${rate(replayMs)}`);
  console.log(`  peer: operations API, 1 a request ${secs(peerMs).padStart(8)}  ${rate(peerMs)}  (mobile/peer ${(syncMs / peerMs).toFixed(2)}×)`);
  console.log(`  verdicts applied ${verdicts.length - notApplied.length}/${ACTIONS}; IBCs read back changed and stamped offline ${ACTIONS - wrong.length}/${ACTIONS}`);
  console.log(`  replay: verdicts equal to the first ${ACTIONS - replayDiffers}/${ACTIONS}; IBCs changed again ${changedByReplay}; GET /api/v3/mobile/actions keeps ${kept.results.length} (more: ${kept.more})`);
  failed ||= syncMs >= LIMIT_SYNC_MS || notApplied.length > 0 || wrong.length > 0 || replayDiffers > 0 || changedByReplay > 0 || kept.results.length !== ACTIONS;

  await server.stop();
  server = undefined;
  // Counted in the store itself once the server has stopped: the offline stamp only on the synced IBCs, one verdict an action.
  const store = await openStore({ dataDir });
  try {
    const offline = await store.count('ibc_container', { offline: true });
    const kept = await store.count(VERDICTS, {});
    console.log(`  store: ${offline} IBCs stamped offline (expected ${ACTIONS}), ${kept} verdicts kept (expected ${ACTIONS + WARM})`);
    failed ||= offline !== ACTIONS || kept !== ACTIONS + WARM;
  } finally {
    await store.close();
  }
} finally {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
