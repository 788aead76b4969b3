import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from './web';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';

let h: PluginHarness;
const dist = mkdtempSync(join(tmpdir(), 'tm-web-dist-'));

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>desktop</title>');
  mkdirSync(join(dist, 'm', 'assets'), { recursive: true });
  writeFileSync(join(dist, 'm', 'index.html'), '<!doctype html><title>mobile</title>');
  writeFileSync(join(dist, 'm', 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dist, 'm', 'manifest.webmanifest'), '{"name":"Traceability Mobile","start_url":"/m/"}');
  writeFileSync(join(dist, 'm', 'assets', 'index-abc.js'), 'console.log(1)');
  h = await startWithPlugins(() => [(a) => webRoutes(a, { dist })]);
});
afterAll(async () => {
  await h?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string) => h.app.inject({ method: 'GET', url });

describe('the mobile app under /m (issue 20)', () => {
  it('answers its own index.html for /m/ and any client route under it, never cached; the desktop app elsewhere', async () => {
    for (const url of ['/m/', '/m/f/ibc.qc', '/m/sync?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>mobile</title>');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self' 'unsafe-eval'");
    }
    expect((await get('/masterdata/company')).body).toContain('<title>desktop</title>');
    expect((await get('/mobile')).body).toContain('<title>desktop</title>');
    const bare = await get('/m');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/m/');
  });

  it('serves the service worker and the manifest uncached, and hashed assets for good', async () => {
    const sw = await get('/m/sw.js');
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await get('/m/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect((await get('/m/assets/index-abc.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
