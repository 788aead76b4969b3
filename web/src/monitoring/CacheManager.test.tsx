// @vitest-environment happy-dom
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/client';
import { ResponseCache, type StorageLike } from '../api/cache';
import { ServicesContext, type Services } from '../app/services';
import { createI18n } from '../i18n/i18n';
import { mountRoot } from '../masterdata/domTesting';
import en from '../../../schemas/i18n/en.json';
import CacheManager, { type ServerCacheRow } from './CacheManager';

class MemoryStorage implements StorageLike {
  private readonly map = new Map<string, string>();
  get length() { return this.map.size; }
  key(i: number) { return [...this.map.keys()][i] ?? null; }
  getItem(k: string) { return this.map.get(k) ?? null; }
  setItem(k: string, v: string) { this.map.set(k, v); }
  removeItem(k: string) { this.map.delete(k); }
}

/** The two cache routes as the server answers them (server/src/ops/ops.test.ts proves the server side). */
function serverCaches() {
  const caches: ServerCacheRow[] = [
    { name: 'ibc-event-summary', description: 'The IBC event log folded', entries: 1 },
    { name: 'oidc-discovery', description: 'Providers', entries: 2 },
  ];
  const calls: string[] = [];
  /** While set, a GET's answer (the counts when it was asked) waits for it: a slow network. */
  const slow: { gets?: Promise<void>; fails?: boolean } = {};
  const fetchFn = async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    calls.push(`${init?.method ?? 'GET'} ${path}`);
    const m = /^\/api\/v3\/caches(?:\/([^/]+))?\/clear$/.exec(path);
    if (m) for (const c of caches) if (!m[1] || c.name === decodeURIComponent(m[1])) c.entries = 0;
    const body = JSON.stringify(m ? { cleared: [], data: caches } : { data: caches });
    if (!m && slow.gets) await slow.gets;
    if (!m && slow.fails) return new Response(JSON.stringify({ message: 'down' }), { status: 503, headers: { 'content-type': 'application/json' } });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetchFn, calls, slow };
}

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

async function mount(cacheTtlMs = 300_000) {
  const server = serverCaches();
  const storage = new MemoryStorage();
  const api = new ApiClient({ deploymentName: 'agro', cacheTtlMs, token: () => 't', warehouseGroup: () => null, storage, fetchFn: server.fetchFn as typeof fetch });
  const kept = new ResponseCache('agro', 300_000, storage);
  kept.set('/api/config', { big: 'x'.repeat(50) });
  kept.set('profile', { me: 1 });
  storage.setItem('other.apiCache.keep', '{}');
  const services = { api, config: { deployment: { settings: {} } } } as unknown as Services;
  const root = mountRoot();
  mounted.push(root.unmount);
  await act(async () => {
    root.render(<I18nextProvider i18n={i18n}><ServicesContext.Provider value={services}><CacheManager title="Cache Manager" /></ServicesContext.Provider></I18nextProvider>);
  });
  return { ...root, server, storage, api };
}

const click = (el: Element) => act(async () => { (el as HTMLElement).click(); });
const all = (c: HTMLElement, sel: string) => [...c.querySelectorAll(sel)];

describe('the cache manager screen', () => {
  it('lists the server caches with their entries and clears one, then all', async () => {
    const { container, server } = await mount();
    expect(all(container, '[data-cache]').map((r) => [r.getAttribute('data-cache'), r.querySelector('[data-testid="entries"]')!.textContent])).toEqual([['ibc-event-summary', '1'], ['oidc-discovery', '2']]);
    await click(container.querySelector('[data-cache="oidc-discovery"] [data-testid="clear-server-cache"]')!);
    expect(server.calls).toContain('POST /api/v3/caches/oidc-discovery/clear');
    expect(container.querySelector('[data-cache="oidc-discovery"] [data-testid="entries"]')!.textContent).toBe('0');
    expect(container.querySelector('[data-cache="ibc-event-summary"] [data-testid="entries"]')!.textContent).toBe('1');
    await click(container.querySelector('[data-testid="clear-server-caches"]')!);
    expect(server.calls).toContain('POST /api/v3/caches/clear');
    expect(all(container, '[data-testid="entries"]').map((e) => e.textContent)).toEqual(['0', '0']);
  });

  it('keeps the cleared counts when a refresh asked before the clear answers after it', async () => {
    const { container, server } = await mount();
    let answer!: () => void;
    server.slow.gets = new Promise((r) => { answer = r; });
    await click(container.querySelector('[data-testid="cache-refresh"]')!);
    await click(container.querySelector('[data-testid="clear-server-caches"]')!);
    expect(all(container, '[data-testid="entries"]').map((e) => e.textContent)).toEqual(['0', '0']);
    await act(async () => { answer(); await new Promise((r) => setTimeout(r, 0)); });
    expect(server.calls.filter((c) => c === 'GET /api/v3/caches')).toHaveLength(2);
    expect(all(container, '[data-testid="entries"]').map((e) => e.textContent)).toEqual(['0', '0']);
  });

  it('shows no error for a refresh asked before a clear that fails after it', async () => {
    const { container, server } = await mount();
    let answer!: () => void;
    server.slow.gets = new Promise((r) => { answer = r; });
    server.slow.fails = true;
    await click(container.querySelector('[data-testid="cache-refresh"]')!);
    await click(container.querySelector('[data-testid="clear-server-caches"]')!);
    await act(async () => { answer(); await new Promise((r) => setTimeout(r, 0)); });
    expect(container.querySelector('[data-testid="cache-error"]')).toBeNull();
    expect(all(container, '[data-testid="entries"]').map((e) => e.textContent)).toEqual(['0', '0']);
  });

  it('lists this browser\'s cached answers of its deployment and clears one, then all, leaving other deployments\' alone', async () => {
    const { container, storage } = await mount();
    expect(container.querySelector('[data-testid="browser-off"]')).toBeNull();
    expect(all(container, '[data-answer]').map((r) => r.getAttribute('data-answer'))).toEqual(['/api/config', 'profile']);
    await click(container.querySelector('[data-answer="profile"] [data-testid="clear-answer"]')!);
    expect(all(container, '[data-answer]').map((r) => r.getAttribute('data-answer'))).toEqual(['/api/config']);
    expect(storage.getItem('agro.apiCache.profile')).toBeNull();
    await click(container.querySelector('[data-testid="clear-browser"]')!);
    expect(container.querySelector('[data-testid="browser-empty"]')!.textContent).toBe('This browser keeps no answers now.');
    expect(storage.getItem('other.apiCache.keep')).toBe('{}');
  });

  it('says when the deployment caches nothing, and still clears what an earlier setting left', async () => {
    const { container, storage } = await mount(0);
    expect(container.querySelector('[data-testid="browser-off"]')).not.toBeNull();
    expect(all(container, '[data-answer]')).toHaveLength(2);
    await click(container.querySelector('[data-testid="clear-browser"]')!);
    expect(storage.getItem('agro.apiCache./api/config')).toBeNull();
  });
});
