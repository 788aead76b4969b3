import { describe, expect, it, vi } from 'vitest';
import { ApiClient, type ApiClientOptions } from './client';
import { cacheTtl, ResponseCache, type StorageLike } from './cache';
import { ApiRequestError } from './errors';

class MemoryStorage implements StorageLike {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
  keys() {
    return [...this.map.keys()];
  }
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function client(over: Partial<ApiClientOptions> = {}) {
  const storage = new MemoryStorage();
  let now = 1_000;
  const fetchFn = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json({ n: fetchFn.mock.calls.length }));
  const api = new ApiClient({
    deploymentName: 'agro', cacheTtlMs: 300_000, token: () => 'tok-123', warehouseGroup: () => 'Córdoba Hub',
    storage, fetchFn: fetchFn as unknown as typeof fetch, now: () => now, ...over,
  });
  return { api, storage, fetchFn, advance: (ms: number) => { now += ms; } };
}

describe('cacheTtl', () => {
  it('uses the deployment ttl when set, the default otherwise, and 0 disables', () => {
    expect(cacheTtl({ defaultTtlMs: 300_000, ttlMs: null })).toBe(300_000);
    expect(cacheTtl({ defaultTtlMs: 300_000, ttlMs: 60_000 })).toBe(60_000);
    expect(cacheTtl({ defaultTtlMs: 300_000, ttlMs: 0 })).toBe(0);
  });
});

describe('ApiClient', () => {
  it('sends the bearer token, the desktop platform header and the URI-encoded warehouse group', async () => {
    const { api, fetchFn } = client();
    await api.post('/api/things', { a: 1 });
    const init = fetchFn.mock.calls[0][1]!;
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok-123');
    expect(headers.platform).toBe('desktop');
    expect(headers['x-warehouse-group']).toBe('C%C3%B3rdoba%20Hub');
    expect(headers['content-type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('leaves out the token and the group when there are none', async () => {
    const { api, fetchFn } = client({ token: () => null, warehouseGroup: () => null });
    await api.get('/api/config/public');
    const headers = fetchFn.mock.calls[0][1]!.headers as Record<string, string>;
    expect(headers).not.toHaveProperty('authorization');
    expect(headers).not.toHaveProperty('x-warehouse-group');
  });

  it('answers a repeated GET from the cache until the time-to-live passes', async () => {
    const { api, fetchFn, advance } = client();
    expect(await api.get('/api/a')).toEqual({ n: 1 });
    advance(299_999);
    expect(await api.get('/api/a')).toEqual({ n: 1 });
    expect(fetchFn).toHaveBeenCalledTimes(1);
    advance(2);
    expect(await api.get('/api/a')).toEqual({ n: 2 });
  });

  it('keeps cached answers under keys prefixed with the deployment name', async () => {
    const { api, storage } = client();
    await api.get('/api/auth/profile', { cacheId: 'profile' });
    expect(storage.keys()).toEqual(['agro.apiCache.profile']);
  });

  it('does not cache when the time-to-live is 0', async () => {
    const { api, fetchFn, storage } = client({ cacheTtlMs: 0 });
    await api.get('/api/a');
    await api.get('/api/a');
    expect(fetchFn).toHaveBeenCalledTimes(2);
    expect(storage.length).toBe(0);
  });

  it('skips the cache for noCache and fresh calls, and invalidate drops an entry', async () => {
    const { api, fetchFn } = client();
    await api.get('/api/auth/profile', { cacheId: 'profile' });
    await api.get('/api/auth/validate', { noCache: true });
    await api.get('/api/auth/validate', { noCache: true });
    expect(fetchFn).toHaveBeenCalledTimes(3);
    api.invalidate('profile');
    await api.get('/api/auth/profile', { cacheId: 'profile' });
    expect(fetchFn).toHaveBeenCalledTimes(4);
  });

  it('turns an error body into an ApiRequestError with status, code, message and details', async () => {
    const fetchFn = vi.fn(async () => json({ error: { code: 'SIGN_IN_INVALID_PASSWORD', message: 'The password is invalid', details: [{ field: 'password', message: 'bad' }] } }, 401));
    const { api } = client({ fetchFn: fetchFn as unknown as typeof fetch });
    const err = await api.post('/api/auth/sign-in', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err).toMatchObject({ status: 401, code: 'SIGN_IN_INVALID_PASSWORD', message: 'The password is invalid', details: [{ field: 'password', message: 'bad' }] });
  });

  it('never caches a failed GET', async () => {
    let fail = true;
    const fetchFn = vi.fn(async () => (fail ? json({ error: { code: 'X', message: 'down' } }, 503) : json({ ok: true })));
    const { api } = client({ fetchFn: fetchFn as unknown as typeof fetch });
    await expect(api.get('/api/a')).rejects.toThrow('down');
    fail = false;
    expect(await api.get('/api/a')).toEqual({ ok: true });
  });

  it('reports a network failure as status 0', async () => {
    const fetchFn = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { api } = client({ fetchFn: fetchFn as unknown as typeof fetch });
    await expect(api.get('/api/a')).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('tells listeners how many requests are in flight', async () => {
    const { api } = client();
    const seen: number[] = [];
    api.onActivity((n) => seen.push(n));
    await Promise.all([api.get('/api/a', { noCache: true }), api.get('/api/b', { noCache: true })]);
    expect(seen).toEqual([1, 2, 1, 0]);
  });
});

describe('ResponseCache', () => {
  it('clears only the entries of its own deployment', () => {
    const storage = new MemoryStorage();
    storage.setItem('other.apiCache.profile', 'x');
    storage.setItem('agro.session', 'keep');
    const cache = new ResponseCache('agro', 1000, storage, () => 0);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.clear();
    expect(storage.keys().sort()).toEqual(['agro.session', 'other.apiCache.profile']);
  });

  it('lists its own deployment\'s answers for the cache manager: what, until when, how big, whether expired', () => {
    const storage = new MemoryStorage();
    storage.setItem('other.apiCache.profile', 'x');
    storage.setItem('agro.apiCache.broken', '{not json');
    let now = 0;
    const cache = new ResponseCache('agro', 1000, storage, () => now);
    cache.set('/api/config', { a: 1 });
    now = 500;
    cache.set('profile', 'me');
    now = 1200;
    expect(cache.list()).toEqual([
      { id: '/api/config', expiresAt: 1000, size: storage.getItem('agro.apiCache./api/config')!.length, expired: true },
      { id: 'broken', expiresAt: 0, size: 9, expired: true },
      { id: 'profile', expiresAt: 1500, size: storage.getItem('agro.apiCache.profile')!.length, expired: false },
    ]);
    cache.clear();
    expect(cache.list()).toEqual([]);
  });

  it('drops a damaged entry instead of answering with it', () => {
    const storage = new MemoryStorage();
    storage.setItem('agro.apiCache.a', '{not json');
    const cache = new ResponseCache('agro', 1000, storage, () => 0);
    expect(cache.get('a')).toBeUndefined();
    expect(storage.length).toBe(0);
  });
});
