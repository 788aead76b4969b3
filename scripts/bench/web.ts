/**
 * The sign-in page's weight and speed. Reads web/dist/.vite/manifest.json and prints the
 * gzip size of the JavaScript the sign-in route loads (the entry, the sign-in screen and
 * everything they import statically), then the time to interactive of the sign-in page in
 * headless Chromium on localhost: from navigation start until the Login button is enabled
 * after typing an e-mail and a password (median of several cold loads).
 * Targets: at most 200 KB gzip, under 1 s. Run: npx tsx scripts/bench/web.ts (BENCH_URL=… to
 * measure a server already running).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../e2e/harness/browser';
import { ensureWebBuild } from '../../e2e/harness/build';
import { freePort } from '../../e2e/harness/net';
import { startServer } from '../../e2e/harness/server';
import { coldSignIn, DESKTOP, median, printWeight, signInWeight } from './webLoad';

const root = process.cwd();
const RUNS = Number(process.env.RUNS ?? 7);
const LIMIT_KB = 200;
const LIMIT_MS = 1000;

async function timeToInteractive(url: string): Promise<number[]> {
  const browser = await launchChromium();
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const { ms } = await coldSignIn(browser, url, { viewport: DESKTOP });
      if (i > 0) times.push(ms); // the first load warms the server's file cache
    }
  } finally {
    await browser.close();
  }
  return times;
}

ensureWebBuild(root);
const weightOk = printWeight('JavaScript the sign-in route loads (gzip):', signInWeight(root), LIMIT_KB);

// BENCH_URL measures a server that is already running instead of starting one.
const dataDir = mkdtempSync(join(tmpdir(), 'tm-bench-web-'));
const server = process.env.BENCH_URL
  ? { url: process.env.BENCH_URL.replace(/\/$/, ''), stop: async () => undefined }
  : await startServer(root, await freePort(), { DATA_DIR: dataDir });
try {
  const times = await timeToInteractive(`${server.url}/`);
  const m = median(times);
  console.log(`time to interactive of the sign-in page (navigation start → Login enabled after typing), ${times.length} cold loads:`);
  console.log(`  runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`  median ${m.toFixed(0)} ms (target < ${LIMIT_MS} ms): ${m < LIMIT_MS ? 'ok' : 'OVER'}`);
  process.exitCode = weightOk && m < LIMIT_MS ? 0 : 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
