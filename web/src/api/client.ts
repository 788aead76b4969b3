import { ResponseCache, type StorageLike } from './cache';
import { ApiRequestError, errorFromResponse } from './errors';

export interface ApiClientOptions {
  deploymentName: string;
  /** Time-to-live of cached GET answers; 0 disables the cache. */
  cacheTtlMs: number;
  /** The current bearer token, read on every request. */
  token: () => string | null;
  /** The selected warehouse group, sent URI-encoded in `x-warehouse-group`. */
  warehouseGroup: () => string | null;
  baseUrl?: string;
  storage?: StorageLike | null;
  fetchFn?: typeof fetch;
  now?: () => number;
  /** Abort a request after this many milliseconds; 0 means never (SPEC 9). */
  timeoutMs?: number;
}

export interface GetOptions {
  /** Cache the answer under this id instead of the path (the profile is cached as `profile`). */
  cacheId?: string;
  /** Skip the cache for this call (the answer still refreshes it). */
  fresh?: boolean;
  /** Never cache this call (sign-in state checks). */
  noCache?: boolean;
}

export const WAREHOUSE_HEADER = 'x-warehouse-group';
export const PLATFORM_HEADER = 'platform';

/**
 * Every call the web makes: a bearer token, the platform header `desktop` and the selected
 * warehouse group; GET answers cached for the deployment's time-to-live (SPEC 7).
 */
export class ApiClient {
  readonly cache: ResponseCache;
  private inflight = 0;
  private readonly listeners = new Set<(inflight: number) => void>();
  private readonly fetchFn: typeof fetch;

  constructor(private readonly o: ApiClientOptions) {
    const storage = o.storage === undefined ? defaultStorage() : o.storage;
    this.cache = new ResponseCache(o.deploymentName, o.cacheTtlMs, storage, o.now);
    this.fetchFn = o.fetchFn ?? ((input, init) => fetch(input, init));
  }

  async get<T>(path: string, options: GetOptions = {}): Promise<T> {
    const id = options.cacheId ?? path;
    if (!options.noCache && !options.fresh) {
      const hit = this.cache.get<T>(id);
      if (hit !== undefined) return hit;
    }
    const data = await this.request<T>('GET', path);
    if (!options.noCache) this.cache.set(id, data);
    return data;
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  put<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }

  invalidate(cacheId: string): void {
    this.cache.delete(cacheId);
  }

  /** Calls the listener with the number of requests in flight whenever it changes. */
  onActivity(listener: (inflight: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  headers(hasBody: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json', [PLATFORM_HEADER]: 'desktop' };
    if (hasBody) h['content-type'] = 'application/json';
    const token = this.o.token();
    if (token) h.authorization = `Bearer ${token}`;
    const group = this.o.warehouseGroup();
    if (group) h[WAREHOUSE_HEADER] = encodeURIComponent(group);
    return h;
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const hasBody = body !== undefined;
    const controller = this.o.timeoutMs ? new AbortController() : undefined;
    const timer = controller ? setTimeout(() => controller.abort(), this.o.timeoutMs) : undefined;
    this.track(1);
    try {
      let res: Response;
      try {
        res = await this.fetchFn(`${this.o.baseUrl ?? ''}${path}`, {
          method,
          headers: this.headers(hasBody),
          body: hasBody ? JSON.stringify(body) : undefined,
          signal: controller?.signal,
        });
      } catch (e) {
        throw new ApiRequestError(0, 'NETWORK', (e as Error).message || 'Network error');
      }
      if (!res.ok) throw await errorFromResponse(res);
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    } finally {
      if (timer) clearTimeout(timer);
      this.track(-1);
    }
  }

  private track(delta: number): void {
    this.inflight += delta;
    for (const l of this.listeners) l(this.inflight);
  }
}

function defaultStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
