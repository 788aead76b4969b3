/** The part of the Web Storage API the cache uses, so tests can pass a map. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

export interface CachedAnswer {
  id: string;
  expiresAt: number;
  size: number;
  expired: boolean;
}

interface Entry {
  expiresAt: number;
  data: unknown;
}

/** SPEC 7 and 9: the deployment's ttlMs when set, else the default (300000 ms); 0 disables the cache. */
export function cacheTtl(apiCache: { defaultTtlMs: number; ttlMs: number | null }): number {
  return apiCache.ttlMs ?? apiCache.defaultTtlMs;
}

/**
 * GET answers kept in browser storage for a time-to-live, under keys prefixed with the
 * deployment name (`<deployment>.apiCache.<id>`), so two deployments on one host never mix.
 */
export class ResponseCache {
  private readonly prefix: string;

  constructor(
    deploymentName: string,
    private readonly ttlMs: number,
    private readonly storage: StorageLike | null,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = `${deploymentName}.apiCache.`;
  }

  get enabled(): boolean {
    return this.ttlMs > 0 && this.storage !== null;
  }

  keyOf(id: string): string {
    return this.prefix + id;
  }

  get<T>(id: string): T | undefined {
    if (!this.enabled) return undefined;
    const raw = this.storage!.getItem(this.keyOf(id));
    if (raw === null) return undefined;
    try {
      const entry = JSON.parse(raw) as Entry;
      if (typeof entry.expiresAt === 'number' && entry.expiresAt > this.now()) return entry.data as T;
    } catch {
      // A damaged entry is dropped below like an expired one.
    }
    this.storage!.removeItem(this.keyOf(id));
    return undefined;
  }

  set(id: string, data: unknown): void {
    if (!this.enabled) return;
    const entry: Entry = { expiresAt: this.now() + this.ttlMs, data };
    try {
      this.storage!.setItem(this.keyOf(id), JSON.stringify(entry));
    } catch {
      // Storage full or unavailable: the answer is simply not cached.
    }
  }

  delete(id: string): void {
    this.storage?.removeItem(this.keyOf(id));
  }

  /** The storage keys of this deployment's entries. */
  private keys(): string[] {
    if (!this.storage) return [];
    const keys: string[] = [];
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k !== null && k.startsWith(this.prefix)) keys.push(k);
    }
    return keys;
  }

  /** The answers kept now (the cache manager): what was asked, until when, and its size in characters. */
  list(): CachedAnswer[] {
    return this.keys().flatMap((k) => {
      const raw = this.storage!.getItem(k);
      let expiresAt = 0;
      try {
        expiresAt = Number((JSON.parse(raw ?? '') as Entry).expiresAt) || 0;
      } catch {
        // A damaged entry is listed as expired; the next read drops it.
      }
      return raw === null ? [] : [{ id: k.slice(this.prefix.length), expiresAt, size: raw.length, expired: expiresAt <= this.now() }];
    }).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Removes every entry of this deployment (on sign-out, so the next user sees none of them). */
  clear(): void {
    for (const k of this.keys()) this.storage!.removeItem(k);
  }
}
