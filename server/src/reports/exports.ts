/**
 * Report exports as background jobs: a `report_export` document per export, run at most
 * MAX_RUNNING at once, each on a worker thread (exportWorker.ts) that writes the CSV to a
 * temporary file renamed when done. Jobs a stopped server left queued or running are failed
 * ("interrupted") at start and their partial files removed.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { formatError, type Lang, type Registry } from '../../../engine/src/index';
import { MongoStore } from '../store/mongo';
import { SqliteStore } from '../store/sqlite';
import type { Filter, Store, StoredDoc } from '../store/types';
import type { ReportQuery } from '../../../engine/src/index';
import { metrics } from '../metrics/registry';
import { filterPairs, filtersOf } from './service';
import type { ExportMessage, ExportWork, StoreTarget } from './exportWorker';
import { startThread, threadModule } from '../threads';
import { EXPORT_THREAD_HEAP, outOfMemory } from './thread';

export const EXPORT_COLLECTION = 'report_export';
export const EXPORT_COLLECTION_SPEC = { name: EXPORT_COLLECTION, uniqueKeys: [], indexes: ['userId', 'status', 'createdAt'] };

/** Exports running at once; the others wait their turn. */
export const MAX_RUNNING = 2;
/** How often a running job's document is updated (progress is kept in memory in between). */
const SAVE_MS = 1000;

const WORKER = threadModule(new URL('./exportWorker.ts', import.meta.url));
/**
 * How long a thread that finished an export waits for the next before it ends. Starting one
 * takes a second or two (its modules are loaded and compiled); a user exporting several reports
 * in a row, or a schedule's batch, should not pay that each time.
 */
export const IDLE_THREAD_MS = 120_000;

export type ExportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewExport {
  userId: string;
  report: string;
  fileName: string;
  /** The filters and sort as given (query-parameter form), shown back to the user. */
  filters: Record<string, string>;
  sort?: string;
  query: ReportQuery;
  scope?: Filter;
  lang: Lang;
  /** A mailed link's token, hashed (scheduled exports), and until when it works. */
  tokenHash?: string;
  tokenExpiresAt?: string;
  scheduleId?: string;
}

interface Live {
  rows: number;
  total: number | null;
  savedAt: number;
}

/** Where a worker reaches the same data as the server's store. */
export function storeTarget(store: Store): StoreTarget {
  if (store instanceof SqliteStore) return { dataDir: dirname(store.file) };
  if (store instanceof MongoStore) {
    const c = store.connection();
    return { mongodbUri: c.uri, dbName: c.dbName };
  }
  throw new Error('report exports need the embedded or the MongoDB store');
}

const exportsCreated = metrics.counter('report_exports_created_total', 'Report exports asked for');
const exportsEnded = metrics.counter('report_exports_ended_total', 'Report exports ended, by outcome (done, failed)', ['outcome']);

export class ExportJobs {
  private readonly queue: { id: string; work: Omit<ExportWork, 'file' | 'target' | 'registry'> }[] = [];
  /** The jobs holding a slot; null while a job's thread is being started. */
  private readonly running = new Map<string, Worker | null>();
  private readonly live = new Map<string, Live>();
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Threads that finished an export cleanly, waiting for the next (at most MAX_RUNNING). */
  private readonly idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  private closed = false;

  constructor(
    private readonly reg: Registry, private readonly store: Store, readonly dir: string,
    private readonly log: FastifyBaseLogger, private readonly now: () => Date = () => new Date(),
    /** Each export thread's heap (a test gives a small one). */
    private readonly heap: ResourceLimits = EXPORT_THREAD_HEAP,
  ) {}

  fileOf(id: string): string {
    return join(this.dir, `${id}.csv`);
  }

  private partOf(id: string): string {
    return join(this.dir, `${id}.csv.part`);
  }

  /**
   * Makes the jobs and the files agree after a stop: jobs left queued or running are failed and
   * their files removed, every partial file goes (nothing runs yet), a finished file no done job
   * owns goes, and a done job whose file is gone is failed. Returns how many jobs were interrupted.
   */
  async recover(): Promise<number> {
    mkdirSync(this.dir, { recursive: true });
    const left = await this.store.find(EXPORT_COLLECTION, { filter: { status: { $in: ['queued', 'running'] } }, projection: { id: 1 } });
    for (const job of left) await this.fail(job.id, 'interrupted');
    const done = new Set((await this.store.find(EXPORT_COLLECTION, { filter: { status: 'done' }, projection: { id: 1 } })).map((d) => d.id));
    for (const name of readdirSync(this.dir)) {
      const id = name.endsWith('.csv') ? name.slice(0, -4) : undefined;
      if (id === undefined || !done.has(id)) rmSync(join(this.dir, name), { force: true, recursive: true });
    }
    for (const id of done) if (!existsSync(this.fileOf(id))) await this.fail(id, 'the file is gone');
    return left.length;
  }

  /** A failed job has no file, partial or whole. */
  private async fail(id: string, error: string): Promise<void> {
    rmSync(this.partOf(id), { force: true });
    rmSync(this.fileOf(id), { force: true });
    await this.store.patch(EXPORT_COLLECTION, id, { status: 'failed', error: error.slice(0, 500), finishedAt: this.now().toISOString() });
  }

  async create(e: NewExport): Promise<StoredDoc> {
    const doc = await this.store.insert(EXPORT_COLLECTION, {
      userId: e.userId, report: e.report, fileName: e.fileName, filters: filterPairs(e.filters), ...(e.sort ? { sort: e.sort } : {}), lang: e.lang,
      status: 'queued', rows: 0, total: null, progress: 0, createdAt: this.now().toISOString(),
      ...(e.tokenHash ? { tokenHash: e.tokenHash, tokenExpiresAt: e.tokenExpiresAt! } : {}), ...(e.scheduleId ? { scheduleId: e.scheduleId } : {}),
    });
    this.queue.push({ id: doc.id, work: { report: e.report, query: e.query, scope: e.scope, lang: e.lang } });
    exportsCreated.inc();
    this.pump();
    return doc;
  }

  /** A job's document with the progress of a running job as it is now (the document lags by up to a second). */
  async get(id: string): Promise<StoredDoc | null> {
    const stored = await this.store.get(EXPORT_COLLECTION, id);
    const doc: StoredDoc | null = stored && ({ ...stored, filters: filtersOf(stored.filters) } as StoredDoc);
    const live = this.live.get(id);
    if (!doc || !live || doc.status !== 'running') return doc;
    return { ...doc, rows: live.rows, total: live.total, progress: progressOf(live) };
  }

  async listFor(userId: string): Promise<StoredDoc[]> {
    const docs = await this.store.find(EXPORT_COLLECTION, { filter: { userId }, sort: { createdAt: -1 }, limit: 100, projection: { id: 1 } });
    return (await Promise.all(docs.map((d) => this.get(d.id)))).filter((d): d is StoredDoc => d !== null);
  }

  /** Resolves once the job is done or failed. */
  async finished(id: string): Promise<StoredDoc | null> {
    // Checked and awaited in the same turn: a job cannot end between the check and the wait.
    if (this.running.has(id) || this.queue.some((q) => q.id === id)) {
      await new Promise<void>((resolve) => this.waiting.set(id, [...(this.waiting.get(id) ?? []), resolve]));
    }
    return this.store.get(EXPORT_COLLECTION, id);
  }

  private pump(): void {
    while (!this.closed && this.running.size < MAX_RUNNING && this.queue.length) {
      const next = this.queue.shift()!;
      void this.run(next.id, next.work).catch((e: unknown) => this.log.error({ exportId: next.id, reason: String(e) }, 'report export failed'));
    }
  }

  private async run(id: string, work: Omit<ExportWork, 'file' | 'target' | 'registry'>): Promise<void> {
    const part = this.partOf(id);
    const live: Live = { rows: 0, total: null, savedAt: Date.now() };
    this.live.set(id, live);
    // The slot is taken now: a job whose start fails still frees it and wakes who waits for it.
    this.running.set(id, null);
    let saving: Promise<unknown> = Promise.resolve();
    try {
      // Before the thread starts, so none of its messages can come before the listeners.
      await this.store.patch(EXPORT_COLLECTION, id, { status: 'running', startedAt: this.now().toISOString() });
      if (this.closed) return;
      // Someone may have removed the directory under a running server.
      mkdirSync(this.dir, { recursive: true });
      const job: ExportWork = { ...work, registry: this.reg, target: storeTarget(this.store), file: part };
      const worker = this.thread();
      this.running.set(id, worker);
      const end = await new Promise<ExportMessage & { kind: 'done' | 'error' }>((resolve) => {
        worker.on('message', (m: ExportMessage) => {
          if (m.kind === 'done' || m.kind === 'error') return resolve(m);
          if (m.kind === 'total') live.total = m.total;
          else live.rows = m.rows;
          if (Date.now() - live.savedAt >= SAVE_MS) {
            live.savedAt = Date.now();
            saving = this.store.patch(EXPORT_COLLECTION, id, { rows: live.rows, total: live.total, progress: progressOf(live) }).catch(() => undefined);
          }
        });
        // A report whose pipeline holds more than the heap (a $group over a whole source) kills only this thread.
        worker.on('error', (e: Error) => resolve({ kind: 'error', message: outOfMemory(e) ? formatError('REPORT_TOO_LARGE', { report: work.report }) : e.message }));
        worker.on('exit', (code) => resolve({ kind: 'error', message: `the export thread stopped (exit code ${code})` }));
        worker.postMessage(job);
      });
      forget(worker);
      // A thread that failed may be in any state: only one that finished cleanly takes another job.
      if (end.kind === 'done') this.rest(worker);
      else await worker.terminate();
      // Closing the server stops the thread: the job stays `running` and is failed as interrupted at the next start.
      if (this.closed) return;
      // A progress save still on its way must not land after the final state.
      await saving;
      if (end.kind === 'done') {
        renameSync(part, this.fileOf(id));
        await this.store.patch(EXPORT_COLLECTION, id, { status: 'done', rows: end.rows, total: live.total ?? end.rows, progress: 1, finishedAt: this.now().toISOString() });
        exportsEnded.inc({ outcome: 'done' });
      } else {
        throw new Error(end.message);
      }
    } catch (e) {
      if (this.closed) return;
      // The user sees the reason: not where the server keeps its files.
      const reason = (e instanceof Error ? e.message : String(e)).replaceAll(this.dir, '…');
      this.log.error({ exportId: id, reason }, 'report export failed');
      exportsEnded.inc({ outcome: 'failed' });
      await this.fail(id, reason).catch((f: unknown) => this.log.error({ exportId: id, reason: String(f) }, 'report export could not be marked failed'));
    } finally {
      if (!this.closed) {
        this.running.delete(id);
        this.live.delete(id);
        for (const wake of this.waiting.get(id) ?? []) wake();
        this.waiting.delete(id);
        this.pump();
      }
    }
  }

  /** An idle thread if one waits, else a new one. */
  private thread(): Worker {
    const waiting = this.idle.pop();
    if (!waiting) {
      this.threadsStarted++;
      return startThread(WORKER, { resourceLimits: this.heap });
    }
    clearTimeout(waiting.timer);
    forget(waiting.worker);
    waiting.worker.ref();
    return waiting.worker;
  }

  /** Keeps a thread that finished cleanly for the next export, for IDLE_THREAD_MS. */
  private rest(worker: Worker): void {
    if (this.closed || this.idle.length >= MAX_RUNNING) {
      void worker.terminate();
      return;
    }
    const entry = {
      worker,
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(entry), 1);
        void worker.terminate();
      }, IDLE_THREAD_MS),
    };
    // Waiting threads keep neither the process nor the timer alive; one that dies waiting just goes.
    entry.timer.unref();
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => { const i = this.idle.indexOf(entry); if (i >= 0) { clearTimeout(entry.timer); this.idle.splice(i, 1); } });
    this.idle.push(entry);
  }

  /** Jobs waiting for a slot and jobs holding one (metrics). */
  get states(): { queued: number; running: number } {
    return { queued: this.queue.length, running: this.running.size };
  }

  /** Whether jobs are still taken: false once the server closes them (readiness). */
  get accepting(): boolean {
    return !this.closed;
  }

  /** Threads waiting for an export, and threads started so far (for tests and diagnosis). */
  get idleThreads(): number {
    return this.idle.length;
  }
  threadsStarted = 0;

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    for (const { worker, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      forget(worker);
      void worker.terminate();
    }
    await Promise.all([...this.running.values()].map((w) => w?.terminate()));
    for (const wakes of this.waiting.values()) for (const wake of wakes) wake();
  }
}

/**
 * Drops the listeners this file gave a thread. Not removeAllListeners(): that also removes the
 * ones Node's Worker keeps to start its message port, and a kept thread would never be heard again.
 */
function forget(worker: Worker): void {
  for (const event of ['message', 'error', 'exit'] as const) worker.removeAllListeners(event);
}

function progressOf(live: Live): number {
  if (live.total === null) return 0;
  return live.total === 0 ? 1 : Math.min(1, live.rows / live.total);
}
