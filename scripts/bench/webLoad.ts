/**
 * What the web benches share (scripts/bench/web.ts, scripts/bench/mobile.ts): the gzip weight of
 * the JavaScript a page loads, read from a Vite manifest, and one cold load of a sign-in form in
 * headless Chromium timed from navigation start until its submit button is enabled after typing.
 * No DOM types: page code is passed as strings, so this typechecks under scripts/tsconfig.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions } from 'playwright-core';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export interface Weight { files: { file: string; gzip: number }[]; total: number }

/** The desktop app's sign-in screen (web/src), loaded with the entry on the sign-in route. */
export const SIGN_IN_SCREEN = 'src/screens/SignIn.tsx';

/** A build's Vite manifest (`<dist>/.vite/manifest.json`). */
export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The manifest's entry chunk (index.html's script). */
export function entryOf(manifest: Manifest): string {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');
  return entry;
}

/** The JS files a route loads: the chunks named and, recursively, what they import statically. */
export function chunksOf(manifest: Manifest, keys: string[]): string[] {
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

/** Each file's gzip size (level 9, as the build's .gz beside it), largest first, and the total. */
export function gzipWeight(dist: string, files: string[]): Weight {
  const sized = files.map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }));
  return { files: sized.sort((a, b) => b.gzip - a.gzip), total: sized.reduce((s, f) => s + f.gzip, 0) };
}

/** The JavaScript the desktop sign-in route loads: the entry, the sign-in screen and their static imports. */
export function signInWeight(root: string): Weight {
  const dist = join(root, 'web', 'dist');
  const manifest = readManifest(dist);
  return gzipWeight(dist, chunksOf(manifest, [entryOf(manifest), SIGN_IN_SCREEN]));
}

/** Prints a weight's files and its total beside the target; true when within it. */
export function printWeight(title: string, weight: Weight, limitKb: number, indent = '  '): boolean {
  console.log(title);
  for (const f of weight.files) console.log(`${indent}${(f.gzip / 1024).toFixed(1).padStart(7)} KB  ${f.file}`);
  const kb = weight.total / 1024;
  console.log(`${indent}${kb.toFixed(1).padStart(7)} KB  total (target ≤ ${limitKb} KB): ${kb <= limitKb ? 'ok' : 'OVER'}`);
  return kb <= limitKb;
}

/**
 * Types into the sign-in form from inside the page as soon as it renders (as a user would,
 * through the inputs' own events) and notes the moment its submit button becomes enabled, so
 * the figure holds no automation round trips.
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
    const login = (email && email.form ? email.form : document).querySelector('button[type=submit]');
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

/**
 * One cold load in a fresh context (nothing cached, no service worker yet): ms from navigation
 * start until the form's submit button is enabled after typing, and the scripts the page fetched
 * by then (paths, in request order).
 */
export async function coldSignIn(browser: Browser, url: string, options: BrowserContextOptions): Promise<{ ms: number; scripts: string[] }> {
  const context = await browser.newContext(options);
  try {
    await context.addInitScript({ content: TYPE_WHEN_READY });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction('window.__tti !== undefined', undefined, { timeout: 30_000 });
    const ms = (await page.evaluate('window.__tti')) as number;
    return { ms, scripts: [...scripts] };
  } finally {
    await context.close();
  }
}

/** The desktop sign-in page's viewport. */
export const DESKTOP = { width: 1366, height: 820 } as const;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The p-th percentile (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
