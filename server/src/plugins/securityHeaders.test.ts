import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../routes/web';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';

let h: PluginHarness;
const dist = mkdtempSync(join(tmpdir(), 'tm-headers-dist-'));

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  h = await startWithPlugins(() => [(a) => webRoutes(a, { dist })]);
});
afterAll(async () => {
  await h?.close();
  rmSync(dist, { recursive: true, force: true });
});

function directives(csp: string | undefined): Record<string, string> {
  expect(csp, 'a Content-Security-Policy header').toBeTypeOf('string');
  return Object.fromEntries(csp!.split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
}

describe('security headers', () => {
  it('sends the CSP, nosniff and a referrer policy on the API, the docs, the app and an error', async () => {
    for (const url of ['/api/health', '/api/docs', '/api/docs/static/index.html', '/api/openapi.json', '/', '/masterdata/company', '/api/v3/masterdata/company', '/api/nothing-here']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { host: '127.0.0.1:3101' } });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp, url).toMatchObject({ 'default-src': "'self'", 'script-src': "'self' 'unsafe-eval'", 'object-src': "'none'", 'frame-ancestors': "'none'" });
      expect(csp['img-src'], url).toContain('https://tile.openstreetmap.org');
      expect(csp['frame-src'], url).toBe("'self' http://127.0.0.1:3101");
      expect(csp, url).not.toHaveProperty('upgrade-insecure-requests');
    }
  });

  it('lets only the shell frame the feature pages under the features path', async () => {
    const frame = h.registry.deployment.settings.frame;
    const prefix = frame.featuresOrigin ?? '/features';
    const res = await h.app.inject({ method: 'GET', url: `${prefix}/demo/traceability.${frame.baseDomain}/${frame.indexPage}`, headers: { host: 'localhost:3101' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const ancestors = directives(res.headers['content-security-policy'] as string)['frame-ancestors'].split(' ');
    expect(ancestors).toEqual(["'self'", 'http://localhost:3101']);
    // A path that only starts like the features path is not the frame.
    const other = await h.app.inject({ method: 'GET', url: `${prefix}-not/x` });
    expect(directives(other.headers['content-security-policy'] as string)['frame-ancestors']).toBe("'none'");
  });
});
