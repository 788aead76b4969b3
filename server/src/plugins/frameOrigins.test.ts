import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../engine/src/index';
import { readConfig } from '../config';
import { realRegistry } from '../testing/harness';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';

type Frame = { featuresOrigin: string; allowedOrigins: string[]; baseDomain: string; indexPage: string };

function csp(header: unknown): Record<string, string> {
  expect(header, 'a Content-Security-Policy header').toBeTypeOf('string');
  return Object.fromEntries((header as string).split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
}

/** What the shell is told and what the browser enforces, for a request with these headers. */
async function seenAt(h: PluginHarness, headers: Record<string, string>) {
  const config = await h.app.inject({ url: '/api/config/public', headers });
  expect(config.statusCode).toBe(200);
  const frame = config.json().deployment.settings.frame as Frame;
  const feature = await h.app.inject({ url: `/features/agro/dashboards.${frame.baseDomain}/${frame.indexPage}`, headers });
  return { frame, frameSrc: csp(config.headers['content-security-policy'])['frame-src'], ancestors: csp(feature.headers['content-security-policy'])['frame-ancestors'] };
}

const withFrame = (frame: Partial<Frame>): Registry => {
  const reg = realRegistry();
  return { ...reg, deployment: { ...reg.deployment, settings: { ...reg.deployment.settings, frame: { ...reg.deployment.settings.frame, ...frame } } } };
};

describe('feature frame addresses (shipped deployment: features at /features of the shell)', () => {
  let h: PluginHarness;
  beforeAll(async () => { h = await startWithPlugins(() => []); });
  afterAll(async () => { await h?.close(); });

  it('follow the Host the request reached the server at, on any port', async () => {
    for (const host of ['127.0.0.1:3101', 'localhost:3461', 'traceability.example.com']) {
      const origin = `http://${host}`;
      const seen = await seenAt(h, { host });
      expect(seen.frame, host).toMatchObject({ featuresOrigin: `${origin}/features`, allowedOrigins: [origin] });
      expect(seen.frameSrc.split(' '), host).toEqual(["'self'", origin]);
      expect(seen.ancestors.split(' '), host).toEqual(["'self'", origin]);
    }
  });

  it('answers the signed-in config with the same addresses', async () => {
    const headers = { ...(await h.userWith(['Master Data'])), host: '127.0.0.1:3101' };
    const r = await h.app.inject({ url: '/api/config', headers });
    expect(r.json().deployment.settings.frame).toMatchObject({ featuresOrigin: 'http://127.0.0.1:3101/features', allowedOrigins: ['http://127.0.0.1:3101'] });
  });

  it('answers a browser that holds the config (its ETag) 304 without the body, per address it was reached at; never without a session', async () => {
    const user = await h.userWith(['Master Data']);
    const first = await h.app.inject({ url: '/api/config', headers: { ...user, host: '127.0.0.1:3101' } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await h.app.inject({ url: '/api/config', headers: { ...user, host: '127.0.0.1:3101', 'if-none-match': etag } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    // Reached at another address: other frame addresses, another body and tag, so the old one gets it whole.
    const elsewhere = await h.app.inject({ url: '/api/config', headers: { ...user, host: 'localhost:3461', 'if-none-match': etag } });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers.etag).not.toBe(etag);
    expect(elsewhere.json().deployment.settings.frame.featuresOrigin).toBe('http://localhost:3461/features');
    expect(elsewhere.json()).toEqual({ ...first.json(), deployment: { ...first.json().deployment, settings: { ...first.json().deployment.settings, frame: elsewhere.json().deployment.settings.frame } } });
    expect((await h.app.inject({ url: '/api/config', headers: { host: '127.0.0.1:3101', 'if-none-match': etag } })).statusCode).toBe(401);
  });

  it('ignores X-Forwarded-* from an untrusted client, and a Host that is not a host', async () => {
    const seen = await seenAt(h, { host: '127.0.0.1:3101', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(seen.frame.featuresOrigin).toBe('http://127.0.0.1:3101/features');
    const odd = await h.app.inject({ url: '/features/agro/dashboards.localhost/index.html', headers: { host: "x; script-src 'unsafe-inline' *" } });
    const directives = csp(odd.headers['content-security-policy']);
    expect(directives['frame-ancestors']).toBe("'self'");
    expect(directives['script-src']).toBe("'self' 'unsafe-eval'");
  });
});

describe('feature frame addresses behind a trusted proxy', () => {
  let h: PluginHarness;
  beforeAll(async () => { h = await startWithPlugins(() => [], { app: { trustProxy: true } }); });
  afterAll(async () => { await h?.close(); });

  it('follow X-Forwarded-Host and -Proto', async () => {
    const seen = await seenAt(h, { host: '127.0.0.1:3101', 'x-forwarded-host': 'trace.example.com', 'x-forwarded-proto': 'https' });
    expect(seen.frame).toMatchObject({ featuresOrigin: 'https://trace.example.com/features', allowedOrigins: ['https://trace.example.com'] });
    expect(seen.ancestors.split(' ')).toEqual(["'self'", 'https://trace.example.com']);
  });
});

describe('feature frame addresses with PUBLIC_URL set', () => {
  let h: PluginHarness;
  beforeAll(async () => {
    const { publicOrigin } = readConfig({ PUBLIC_URL: 'https://trace.example.com/app/' });
    h = await startWithPlugins(() => [], { app: { publicOrigin } });
  });
  afterAll(async () => { await h?.close(); });

  it('follow PUBLIC_URL whatever the Host', async () => {
    const seen = await seenAt(h, { host: '127.0.0.1:3101' });
    expect(seen.frame).toMatchObject({ featuresOrigin: 'https://trace.example.com/features', allowedOrigins: ['https://trace.example.com'] });
    expect(seen.frameSrc.split(' ')).toEqual(["'self'", 'https://trace.example.com']);
  });
});

describe('feature frame addresses for a separate features host (deployment override)', () => {
  let h: PluginHarness;
  beforeAll(async () => {
    h = await startWithPlugins(() => [], { registry: withFrame({ featuresOrigin: 'https://features.example.com/agro-features', allowedOrigins: ['https://shell.example.com'] }) });
  });
  afterAll(async () => { await h?.close(); });

  it('keeps the configured origins', async () => {
    const config = await h.app.inject({ url: '/api/config/public', headers: { host: '127.0.0.1:3101' } });
    expect(config.json().deployment.settings.frame).toMatchObject({ featuresOrigin: 'https://features.example.com/agro-features', allowedOrigins: ['https://shell.example.com'] });
    expect(csp(config.headers['content-security-policy'])['frame-src'].split(' ')).toEqual(["'self'", 'https://features.example.com']);
    const feature = await h.app.inject({ url: '/agro-features/agro/x.localhost/index.html', headers: { host: '127.0.0.1:3101' } });
    expect(csp(feature.headers['content-security-policy'])['frame-ancestors'].split(' ')).toEqual(["'self'", 'https://shell.example.com']);
  });
});
