/**
 * The server's in-memory caches, as the cache manager lists and clears them. A capability that
 * keeps one registers it; clearing only costs the next read its rebuild.
 */
export interface ServerCache {
  /** Stable and readable: the screen shows it. */
  name: string;
  /** What it keeps, in a few words. */
  description: string;
  entries(): number;
  clear(): void | Promise<void>;
}

export class Caches {
  private readonly all = new Map<string, ServerCache>();

  /** Returns what removes it (the owner closing). */
  register(cache: ServerCache): () => void {
    if (this.all.has(cache.name)) throw new Error(`cache "${cache.name}" is registered twice`);
    this.all.set(cache.name, cache);
    return () => { this.all.delete(cache.name); };
  }

  list(): { name: string; description: string; entries: number }[] {
    return [...this.all.values()].map((c) => ({ name: c.name, description: c.description, entries: c.entries() }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  has(name: string): boolean {
    return this.all.has(name);
  }

  /** Clears one cache, or every one; returns the names cleared. */
  async clear(name?: string): Promise<string[]> {
    const targets = name === undefined ? [...this.all.values()].sort((a, b) => a.name.localeCompare(b.name)) : [this.all.get(name)!];
    for (const c of targets) await c.clear();
    return targets.map((c) => c.name);
  }
}
