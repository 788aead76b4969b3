/**
 * Thread modules bundled once (threads.ts): a thread started from its bundle runs the same
 * module as one booted through tsx (its imports, its paths from import.meta.url), from a file
 * under the cache; a bundle that cannot be written, or is gone, leaves threads booting through
 * tsx, and one cut short is written again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledThread, prepareThreads, startThread, threadModule } from './threads';

const PROBE = threadModule(new URL('./testing/threadProbe.ts', import.meta.url));
// Inside the checkout, as the server's: the bundle imports its packages from node_modules beside it.
const caches = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
mkdirSync(caches, { recursive: true });
const cache = mkdtempSync(join(caches, 'threads-test-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

async function answer(w: Worker): Promise<Record<string, unknown>> {
  try {
    return await new Promise((ok, fail) => { w.once('message', ok); w.once('error', fail); });
  } finally {
    await w.terminate();
  }
}

describe('worker threads of the server\'s modules', () => {
  it('start from one bundle, made once, running what tsx runs', async () => {
    const viaTsx = await answer(startThread(PROBE));
    expect(viaTsx).toMatchObject({ sibling: new URL('./testing/harness.ts', import.meta.url).href, imported: 500 });

    const file = join(cache, 'not-a-directory');
    writeFileSync(file, '');
    // Nowhere to write it: the reason is told and threads keep booting through tsx.
    expect(await prepareThreads(file)).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    expect(bundledThread(PROBE)).toBe(false);

    expect(await prepareThreads(cache)).toBeUndefined();
    expect(bundledThread(PROBE)).toBe(true);
    const [dir, ...more] = readdirSync(cache).filter((n) => n !== 'not-a-directory');
    expect(more).toEqual([]);
    const viaBundle = await answer(startThread(PROBE));
    // The same module: its imports and the paths it finds from its place are the source's.
    expect({ ...viaBundle, url: undefined }).toEqual({ ...viaTsx, url: undefined });
    expect(viaBundle.url).toBe(new URL('./testing/threadProbe.ts', import.meta.url).href);
    // Another server making the same bundle reuses the directory.
    expect(await prepareThreads(cache)).toBeUndefined();
    expect(readdirSync(cache).filter((n) => n !== 'not-a-directory')).toEqual([dir]);
    // Not the tsx preload a thread from the bundle has no use for.
    expect(viaBundle.execArgv).toEqual(process.execArgv.filter((a, i, all) => a !== 'tsx' && !(a === '--import' && all[i + 1] === 'tsx')).filter((a) => !a.startsWith('--max-old-space-size')));
  });

  it('keeps the bundles servers use and removes those unused for a week', async () => {
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    for (const name of ['old-unused', 'recent']) mkdirSync(join(cache, name), { recursive: true });
    utimesSync(join(cache, 'old-unused'), weekAgo, weekAgo);
    expect(await prepareThreads(cache)).toBeUndefined();
    expect(readdirSync(cache)).not.toContain('old-unused');
    expect(readdirSync(cache)).toContain('recent');
    // A server that runs for more than a week marks its bundle used each time it starts a thread.
    const [dir] = readdirSync(cache).filter((n) => /^[0-9a-f]{16}$/.test(n));
    utimesSync(join(cache, dir), weekAgo, weekAgo);
    await answer(startThread(PROBE));
    expect(Date.now() - statSync(join(cache, dir)).mtimeMs).toBeLessThan(60_000);
    rmSync(join(cache, 'recent'), { recursive: true });
  });

  it('makes a bundle cut short again, and starts through tsx when the bundle is gone', async () => {
    expect(await prepareThreads(cache)).toBeUndefined();
    const [dir] = readdirSync(cache).filter((n) => n !== 'not-a-directory');
    const probe = join(cache, dir, 'testing', 'threadProbe.js');
    const whole = readFileSync(probe);
    writeFileSync(probe, whole.subarray(0, 40));
    expect(await prepareThreads(cache)).toBeUndefined();
    expect(readFileSync(probe)).toEqual(whole);
    expect(await answer(startThread(PROBE))).toMatchObject({ imported: 500, url: new URL('./testing/threadProbe.ts', import.meta.url).href });
    // Removed under a running server (by hand, or pruned by another): its threads still start.
    rmSync(join(cache, dir), { recursive: true, force: true });
    expect(await answer(startThread(PROBE))).toMatchObject({ imported: 500, sibling: new URL('./testing/harness.ts', import.meta.url).href });
  });
});
