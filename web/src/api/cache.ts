/** The part of the Web Storage API the cache uses, so tests can pass a map. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
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

  /** Removes every entry of this deployment (on sign-out, so the next user sees none of them). */
  clear(): void {
    if (!this.storage) return;
    const keys: string[] = [];
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k !== null && k.startsWith(this.prefix)) keys.push(k);
    }
    for (const k of keys) this.storage.removeItem(k);
  }
}
