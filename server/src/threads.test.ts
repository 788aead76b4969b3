/**
 * Thread modules bundled once (threads.ts): a thread started from its bundle runs the same
 * module as one booted through tsx (its imports, its paths from import.meta.url), from a file
 * under the cache; a bundle that cannot be written leaves threads booting through tsx.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  });
});
