/**
 * Search readers for the embedded store. A trigram search over a large collection is the one
 * read that costs real CPU (a fraction of a millisecond to a few), and better-sqlite3 runs it on
 * the event loop; worker threads with their own read-only connections run it on the other cores
 * while the main thread keeps serving requests. Results go through the same search cache.
 */
import type { Worker } from 'node:worker_threads';
import { startThread, threadModule } from '../threads.js';
import type { SearchReply, SearchRequest } from './sqlite-search-worker.js';

const WORKER = threadModule(new URL('./sqlite-search-worker.ts', import.meta.url));

export class SearchPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (rows: number[]) => void; reject: (e: Error) => void }>();
  private next = 0;
  private seq = 0;
  /** Set when a reader stopped: callers then search on their own thread. */
  dead = false;

  constructor(file: string, size: number) {
    for (let i = 0; i < size; i++) {
      const w = startThread(WORKER, { workerData: { file } });
      w.on('message', (r: SearchReply) => this.settle(r));
      w.on('error', (e) => this.failAll(e as Error));
      w.on('exit', () => {
        this.dead = true;
        this.failAll(new Error('a search reader stopped'));
      });
      w.unref();
      this.workers.push(w);
    }
  }

  /** The rowids a query selects, computed by the next reader in turn. */
  query(sql: string, params: unknown[]): Promise<number[]> {
    const id = ++this.seq;
    const w = this.workers[this.next++ % this.workers.length];
    if (this.dead) return Promise.reject(new Error('the search readers have stopped'));
    // A query in flight keeps the process alive; idle readers do not.
    if (this.waiting.size === 0) this.workers.forEach((x) => x.ref());
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, sql, params } satisfies SearchRequest);
    });
  }

  private settle(r: SearchReply): void {
    const p = this.waiting.get(r.id);
    if (!p) return;
    this.waiting.delete(r.id);
    if (this.waiting.size === 0) this.workers.forEach((x) => x.unref());
    if ('rows' in r) p.resolve(r.rows);
    else p.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
  }

  private failAll(e: Error): void {
    for (const p of this.waiting.values()) p.reject(e);
    this.waiting.clear();
    this.workers.forEach((x) => x.unref());
  }

  async close(): Promise<void> {
    this.dead = true;
    this.failAll(new Error('the store is closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
