/**
 * The sign-in page's weight and speed. Reads web/dist/.vite/manifest.json and prints the
 * gzip size of the JavaScript the sign-in route loads (the entry, the sign-in screen and
 * everything they import statically), then the time to interactive of the sign-in page in
 * headless Chromium on localhost: from navigation start until the Login button is enabled
 * after typing an e-mail and a password (median of several cold loads).
 * Targets: at most 200 KB gzip, under 1 s. Run: npx tsx scripts/bench/web.ts (BENCH_URL=… to
 * measure a server already running).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../../e2e/harness/browser';
import { ensureWebBuild } from '../../e2e/harness/build';
import { freePort } from '../../e2e/harness/net';
import { startServer } from '../../e2e/harness/server';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const root = process.cwd();
const SIGN_IN_SCREEN = 'src/screens/SignIn.tsx';
const RUNS = Number(process.env.RUNS ?? 7);
const LIMIT_KB = 200;
const LIMIT_MS = 1000;

/** The JS files a route loads: the chunks named and, recursively, what they import statically. */
export function chunksOf(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    seen.add(key);
    for (const k of chunk.imports ?? []) visit(k);
  };
  keys.forEach(visit);
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
}

function signInWeight(): { files: { file: string; gzip: number }[]; total: number } {
  const dist = join(root, 'web', 'dist');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');
  const files = chunksOf(manifest, [entry, SIGN_IN_SCREEN]).map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }));
  return { files: files.sort((a, b) => b.gzip - a.gzip), total: files.reduce((s, f) => s + f.gzip, 0) };
}

/**
 * Types into the sign-in form from inside the page as soon as it renders (as a user would,
 * through the inputs' own events) and notes the moment Login becomes enabled, so the figure
 * holds no automation round trips.
 */
// A string, not a function: tsx would wrap named closures in a helper the page does not have.
const TYPE_WHEN_READY = `(() => {
  const setValue = (el, value) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const check = () => {
    if (window.__tti !== undefined) return;
    const email = document.querySelector('input[name=email]');
    const password = document.querySelector('input[name=password]');
    const login = document.querySelector('button[type=submit]');
    if (!email || !password || !login) return;
    if (!window.__typed) {
      window.__typed = true;
      setValue(email, 'someone@example.com');
      setValue(password, 'a password');
    }
    if (!login.disabled) window.__tti = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function timeToInteractive(url: string): Promise<number[]> {
  const browser = await launchChromium();
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 } });
      await context.addInitScript({ content: TYPE_WHEN_READY });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __tti?: number }).__tti !== undefined, undefined, { timeout: 30_000 });
      const ms = await page.evaluate(() => (window as unknown as { __tti: number }).__tti);
      if (i > 0) times.push(ms); // the first load warms the server's file cache
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

ensureWebBuild(root);
const weight = signInWeight();
console.log('JavaScript the sign-in route loads (gzip):');
for (const f of weight.files) console.log(`  ${(f.gzip / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
const kb = weight.total / 1024;
console.log(`  ${kb.toFixed(1).padStart(7)} KB  total (target ≤ ${LIMIT_KB} KB): ${kb <= LIMIT_KB ? 'ok' : 'OVER'}`);

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
  process.exitCode = kb <= LIMIT_KB && m < LIMIT_MS ? 0 : 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
