/**
 * The report reader: on the embedded store, the pipelines a report page cannot cut to one page
 * in SQL (a `$group` over a whole source, a sort on a computed field, a count pipeline) run on
 * one persistent worker thread (readerWorker.ts) instead of the server's event loop. Requests
 * are served one at a time, in order. A pipeline too big for the thread's heap kills only the
 * thread: its request answers REPORT_TOO_LARGE, and the next request starts a new thread; so
 * does one past the time limit (REPORT_TOO_SLOW). A full queue refuses more (RATE_LIMITED).
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../apiError';
import { StoreError, type Doc, type Pipeline, type StoreErrorCode } from '../store/types';
import type { ReaderAnswer, ReaderRequest, ReaderStarted } from './readerWorker';
import { startThread, threadModule } from '../threads';
import { outOfMemory, REPORT_THREAD_HEAP } from './thread';

const WORKER = threadModule(new URL('./readerWorker.ts', import.meta.url));

/** How many requests may wait for the thread, and how long one may run on it. */
export interface ReaderLimits {
  maxWaiting: number;
  timeoutMs: number;
}
// A page that waits behind sixteen others, or computes for two minutes, is better refused: the
// user narrows the report or tries again, and the thread is free for the others.
export const READER_LIMITS: ReaderLimits = { maxWaiting: 16, timeoutMs: 120_000 };

interface Pending extends ReaderRequest {
  report: string;
  resolve(rows: Doc[]): void;
  reject(e: unknown): void;
}

function thrown(error: Extract<ReaderAnswer, { error: unknown }>['error']): Error {
  return error.code ? new StoreError(error.code as StoreErrorCode, error.message) : new Error(error.message);
}

export class ReportReader {
  private worker: Worker | null = null;
  private readonly queue: Pending[] = [];
  /** The request the thread works on; the others wait in the queue. */
  private current: Pending | null = null;
  private nextId = 1;
  private closed = false;
  /** Pipelines the thread answered (rows or a pipeline's error), for tests and diagnosis. */
  served = 0;

  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly log?: FastifyBaseLogger,
    private readonly heap: ResourceLimits = REPORT_THREAD_HEAP,
    private readonly limits: ReaderLimits = READER_LIMITS,
  ) {}

  /** Whether reads are still taken: false once the server closes the reader (readiness). */
  get accepting(): boolean {
    return !this.closed;
  }

  /**
   * The rows of `pipeline` on `collection`, read on the thread; `report` names the report in a
   * REPORT_TOO_LARGE or REPORT_TOO_SLOW. With the queue full it fails at once with RATE_LIMITED.
   */
  aggregate(collection: string, pipeline: Pipeline, report: string): Promise<Doc[]> {
    if (this.closed) return Promise.reject(new Error('the report reader is closed'));
    if (this.queue.length >= this.limits.maxWaiting) return Promise.reject(new ApiError('RATE_LIMITED', { seconds: 5 }));
    return new Promise<Doc[]>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, collection, pipeline, report, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.closed || this.current || this.queue.length === 0) return;
    const next = (this.current = this.queue.shift()!);
    const m: ReaderRequest = { id: next.id, collection: next.collection, pipeline: next.pipeline };
    this.thread().postMessage(m);
  }

  /** Past the time limit the thread is stopped mid-pipeline: there is no other way to end mingo's work. */
  private startClock(w: Worker, c: Pending): void {
    const seconds = Math.ceil(this.limits.timeoutMs / 1000);
    this.timer = setTimeout(() => this.died(w, new ApiError('REPORT_TOO_SLOW', { report: c.report, seconds })), this.limits.timeoutMs);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = startThread(WORKER, { workerData: { dataDir: this.dataDir }, resourceLimits: this.heap });
    w.on('message', (m: ReaderAnswer | ReaderStarted) => {
      const c = this.current;
      if (!c || c.id !== m.id) return;
      if ('started' in m) return this.startClock(w, c);
      clearTimeout(this.timer);
      this.current = null;
      this.served++;
      if ('rows' in m) c.resolve(m.rows);
      else c.reject(thrown(m.error));
      this.pump();
    });
    w.on('error', (e: Error) => this.died(w, e));
    w.on('exit', (code) => this.died(w, new Error(`the report reader stopped (exit code ${code})`)));
    // An idle thread does not keep the process alive; a waiting request has the server doing that.
    w.unref();
    return (this.worker = w);
  }

  /** The request the thread worked on fails; the queue goes on with a new thread. */
  private died(w: Worker, e: Error): void {
    if (this.worker !== w) return; // 'exit' follows 'error': the first one counts
    clearTimeout(this.timer);
    this.worker = null;
    void stop(w);
    const c = this.current;
    this.current = null;
    if (c) {
      if (outOfMemory(e)) {
        this.log?.warn({ report: c.report, heapMb: this.heap.maxOldGenerationSizeMb }, 'a report page ran the reader thread out of memory');
        c.reject(new ApiError('REPORT_TOO_LARGE', { report: c.report }));
      } else if (e instanceof ApiError) {
        this.log?.warn({ report: c.report, timeoutMs: this.limits.timeoutMs }, 'a report page ran past the reader thread\'s time limit');
        c.reject(e);
      } else {
        c.reject(e);
      }
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const p of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) p.reject(new Error('the server is closing'));
    this.current = null;
    const w = this.worker;
    this.worker = null;
    if (w) await stop(w);
  }
}

/** Ends a thread whose events nobody waits for any more. */
async function stop(w: Worker): Promise<void> {
  w.removeAllListeners();
  w.on('error', () => undefined);
  await w.terminate();
}
