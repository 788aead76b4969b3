/**
 * The import worker: one job at a time, in the order they were created, each going
 *   queued → running (validating → applying) → succeeded | failed | rolled_back.
 * Every step leaves its progress in the job record, so a server that stops (gracefully or
 * with kill -9) picks its jobs up again at start: validation starts over (it wrote nothing),
 * writing resumes after its last checkpoint, a rollback carries on. A job the server keeps
 * dying on is given up after `maxAttempts` starts instead of looping for ever.
 *
 * The job says succeeded before its undo records and staging file go, in that order, so a
 * stop at any instant leaves a job whose state agrees with the store: unfinished (resumed),
 * or finished with leftovers that the next start sweeps (recover).
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Registry } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { SqliteStore } from '../store/sqlite';
import { applyChunk, ApplyRejected, undoFrom } from './apply';
import { columnCatalogue, mapHeader } from './columns';
import type { WriteHooks } from '../records/writeHooks';
import { importContext, type ImportContext } from './context';
import { crashPoint } from './crashPoint';
import {
  deleteJobDocs, ERROR_BATCHES, getJob, JOBS, jobMessage, patchJob, saveRejectedJson, UNDO, zeroCounts, type Job, type JobMessage,
} from './jobs';
import { EncodingError, TooLargeError, TooManyRowsError } from './source';
import { readStage, StageFollower } from './stage';
import type { Staged } from './plan';
import { validateFile, type BatchOutcome, type ValidationInput } from './validation';
import { validateInThread } from './validationThread';
import { DEFAULT_IMPORT_LIMITS } from './limits';
import { metrics } from '../metrics/registry';

export interface RunnerOptions {
  /** Where uploads and staging files live (DATA_DIR/imports). */
  dir: string;
  /** Largest decompressed content read from a (gzip) upload. */
  maxContentBytes: number;
  /** Data rows a file may hold (default DEFAULT_IMPORT_LIMITS.maxRows). */
  maxRows?: number;
  /** Rows validated per batch, and staged rows written per transaction. */
  validateBatch?: number;
  applyBatch?: number;
  maxAttempts?: number;
  /**
   * On the embedded store, write staged rows while the rest of the file is validated (default).
   * Off, every row is written after validation: the crash test needs a writing phase to kill.
   */
  writeWhileValidating?: boolean;
  log?: { error(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
  /** The app's derived fields, made current in every record written. */
  hooks?: WriteHooks;
}

/** Thrown between batches when the server is stopping: the job stays as it is, to be resumed. */
class Stopping extends Error {}

/** The file cannot be imported as it is (too large…): the job fails with this message. */
class Refused extends Error {
  constructor(readonly why: JobMessage) {
    super(why.message);
  }
}

/** Writing the rows validated so far failed (while the rest was being validated). */
class WriteFailed extends Error {
  constructor(cause: unknown) {
    super('a write failed while validating', { cause });
  }
}

/** Validation's progress is saved at most this often. */
const PROGRESS_MS = 250;
const STAGE = '.stage.ndjson';

const importsEnded = metrics.counter('import_jobs_ended_total', 'Import jobs ended, by status (done, failed, rolled_back…)', ['status']);

export class ImportRunner {
  private readonly queue: string[] = [];
  private loop: Promise<void> | null = null;
  private stopping = false;
  private readonly validateBatch: number;
  private readonly applyBatch: number;
  private readonly maxAttempts: number;
  private readonly maxRows: number;
  private progressSavedAt = 0;
  /** Serialises what changes a job in memory and in the store: validation's outcomes and written chunks. */
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly reg: Registry, private readonly store: Store, private readonly opts: RunnerOptions) {
    this.validateBatch = opts.validateBatch ?? 2000;
    this.applyBatch = opts.applyBatch ?? 1000;
    this.maxAttempts = opts.maxAttempts ?? DEFAULT_IMPORT_LIMITS.maxAttempts;
    this.maxRows = opts.maxRows ?? DEFAULT_IMPORT_LIMITS.maxRows;
  }

  uploadPath(id: string): string {
    return join(this.opts.dir, `${id}.upload`);
  }

  private stagePath(id: string): string {
    return join(this.opts.dir, `${id}${STAGE}`);
  }

  /**
   * Queues the jobs a previous run of the server left unfinished, oldest first, after sweeping
   * what finished jobs left behind (a stop between a job's end and its clean-up).
   */
  async recover(): Promise<void> {
    const open = await this.store.find(JOBS, { filter: { status: { $in: ['queued', 'running'] } }, sort: { createdAt: 1 }, projection: { id: 1 } });
    await this.sweep(open.map((j) => j.id));
    for (const j of open) this.enqueue(j.id);
  }

  /** Deletes the undo records and staging files of every job but the unfinished ones. */
  private async sweep(open: string[]): Promise<void> {
    for (;;) {
      const [left] = await this.store.find(UNDO, { filter: { job: { $nin: open } }, projection: { job: 1 }, limit: 1 });
      if (!left) break;
      await deleteJobDocs(this.store, UNDO, left.job as string);
    }
    const staged = (await readdir(this.opts.dir)).filter((f) => f.endsWith(STAGE) && !open.includes(f.slice(0, -STAGE.length)));
    for (const f of staged) await rm(join(this.opts.dir, f), { force: true });
  }

  enqueue(id: string): void {
    if (this.stopping || this.queue.includes(id)) return;
    this.queue.push(id);
    this.kick();
  }

  private kick(): void {
    if (this.loop || this.stopping) return;
    // A job queued while the loop was winding down would otherwise wait for the next upload.
    this.loop = this.drain().finally(() => {
      this.loop = null;
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Lets the running batch finish; the job is resumed by the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  /** Jobs waiting behind the one being run, and whether one is (metrics). */
  get states(): { queued: number; running: number } {
    return { queued: this.queue.length, running: this.loop ? 1 : 0 };
  }

  /** Whether jobs are still taken: false once the server stops the runner (readiness). */
  get accepting(): boolean {
    return !this.stopping;
  }

  /** Resolves once the queue is empty (tests and the bench wait on it). */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopping) {
      const id = this.queue.shift()!;
      try {
        await this.run(id);
      } catch (e) {
        if (e instanceof Stopping) return;
        if (!(e instanceof Refused)) this.opts.log?.error({ err: e, job: id }, 'import job failed');
        // Writing or rolling back stays as it is: the undo log is intact and the next start
        // carries on. A validation takes back what it wrote meanwhile, then fails.
        const job = await getJob(this.store, id).catch(() => null);
        if (job && (job.phase === 'applying' || job.phase === 'rolling_back')) continue;
        if (job && !job.dryRun && (await this.takeBack(job).catch(() => -1)) < 0) continue;
        const why = e instanceof Refused ? e.why : jobMessage('error', 'IMPORT_FAILED', { reason: String((e as Error).message ?? e).slice(0, 300) });
        await this.finish(id, 'failed', why).catch(() => undefined);
      }
    }
  }

  private async run(id: string): Promise<void> {
    const job = await getJob(this.store, id);
    if (!job || (job.status !== 'queued' && job.status !== 'running')) return;
    job.attempts = (job.attempts ?? 0) + 1;
    if (job.status === 'running' && job.attempts > this.maxAttempts) {
      const reason = jobMessage('error', 'IMPORT_INTERRUPTED', { count: job.attempts - 1 }).message;
      if (job.phase === 'applying' || job.phase === 'rolling_back') return this.rollback(job, reason);
      // A commit writes while it validates: anything written is rolled back.
      if (!job.dryRun && (await this.store.count(UNDO, { job: id })) > 0) return this.rollback(job, reason);
      await rm(this.stagePath(id), { force: true });
      return this.finish(id, 'failed', jobMessage('error', 'IMPORT_FAILED', { reason }));
    }
    job.phase = job.phase === 'queued' ? 'validating' : job.phase;
    job.status = 'running';
    job.startedAt ??= new Date().toISOString();
    // Saved before any work: a start the server dies in counts.
    await patchJob(this.store, id, { status: job.status, phase: job.phase, attempts: job.attempts, startedAt: job.startedAt });
    try {
      if (job.phase === 'rolling_back') return await this.rollback(job, String(job.error?.params?.reason ?? ''));
      const ctx = this.contextOf(job);
      if (job.phase === 'validating') {
        const ok = await this.validate(job, ctx);
        if (!ok) return;
      }
      await this.apply(job, ctx);
    } catch (e) {
      // A graceful stop is no failure: the start is given back.
      if (e instanceof Stopping) await patchJob(this.store, id, { attempts: job.attempts - 1 });
      throw e;
    }
  }

  /** From the header kept with the job, so writing and rolling back never need the upload. */
  private contextOf(job: Job): ImportContext {
    const mapping = mapHeader(columnCatalogue(this.reg, job.entity), job.header);
    return importContext(this.reg, job.entity, mapping.columns, job.header.length, this.opts.hooks);
  }

  /** Validates the whole file; true when the job goes on to writing. */
  private async validate(job: Job, ctx: ImportContext): Promise<boolean> {
    try {
      await this.validateOnceOrRollback(job, ctx);
    } catch (e) {
      if (e instanceof WriteFailed) return false;
      if (!(e instanceof EncodingError) || job.format.encoding !== 'utf-8') throw this.fileProblem(job, e);
      // Not UTF-8 after all (the start was plain ASCII): read it again as Windows-1252.
      job.format = { ...job.format, encoding: 'windows-1252' };
      job.messages = [...job.messages, jobMessage('warn', 'IMPORT_ENCODING', { encoding: 'Windows-1252 (Latin-1)' })];
      await patchJob(this.store, job.id, { format: job.format, messages: job.messages });
      try {
        await this.validateOnceOrRollback(job, ctx);
      } catch (e2) {
        if (e2 instanceof WriteFailed) return false;
        throw this.fileProblem(job, e2);
      }
    }
    crashPoint('validated');
    if (job.dryRun) {
      await this.finish(job.id, 'succeeded');
      return false;
    }
    if (job.counts.reject > 0 && job.mode === 'all-or-nothing') {
      await this.takeBack(job); // what was written while the rest was validated
      await rm(this.stagePath(job.id), { force: true });
      await this.finish(job.id, 'failed', jobMessage('error', 'IMPORT_REJECTED', { count: job.counts.reject }));
      return false;
    }
    job.phase = 'applying';
    await patchJob(this.store, job.id, { phase: 'applying', rowsApplied: job.rowsApplied });
    crashPoint('applying');
    return true;
  }

  /** A write made while validating failed: the job is rolled back as a failed write would be, and WriteFailed rethrown. */
  private async validateOnceOrRollback(job: Job, ctx: ImportContext): Promise<void> {
    try {
      await this.validateOnce(job, ctx);
    } catch (e) {
      if (!(e instanceof WriteFailed)) throw e;
      await this.writeFailed(job, e.cause);
      throw e;
    }
  }

  private fileProblem(job: Job, e: unknown): Error {
    if (e instanceof WriteFailed) return e;
    if (e instanceof TooLargeError) return new Refused(jobMessage('error', 'IMPORT_CONTENT_TOO_LARGE', { limit: Math.round(e.limit / (1024 * 1024)) }));
    if (e instanceof TooManyRowsError) return new Refused(jobMessage('error', 'IMPORT_TOO_MANY_ROWS', { limit: e.limit }));
    if (e instanceof Stopping) return e;
    return e as Error;
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.lock.then(fn);
    this.lock = p.catch(() => undefined);
    return p;
  }

  /** The embedded store's file, when validation can run on a thread of its own beside the writes. */
  private storeFile(): string | undefined {
    return this.store instanceof SqliteStore && !this.store.readOnly ? this.store.file : undefined;
  }

  private async validateOnce(job: Job, ctx: ImportContext): Promise<void> {
    // Rows a commit wrote while validating, before a crash or a second reading of the file.
    if (!job.dryRun) await undoFrom(this.store, job.id, 0);
    await deleteJobDocs(this.store, ERROR_BATCHES, job.id);
    Object.assign(job, { counts: zeroCounts(), rowsValidated: 0, rowsValid: 0, rowsTotal: 0, rowsExact: false, errorBatches: 0, errorRows: 0, rowsApplied: 0 });
    const file = this.storeFile();
    // On its own thread validation runs ahead; the rows it staged are written meanwhile.
    const follow = file !== undefined && !job.dryRun && this.opts.writeWhileValidating !== false;
    const input: ValidationInput = {
      uploadPath: this.uploadPath(job.id), format: job.format, maxContentBytes: this.opts.maxContentBytes, maxRows: this.maxRows, batchSize: this.validateBatch,
      stagePath: job.dryRun ? undefined : this.stagePath(job.id), actor: job.createdBy.userId, since: follow ? new Date().toISOString() : undefined,
    };
    const outcomes = file ? validateInThread(this.reg, job.entity, job.header, file, input) : validateFile(ctx, this.store, input);
    const writer = follow ? new StageFollower(this.stagePath(job.id), (rows, first) => this.locked(() => this.writeChunk(ctx, job, rows, first)), this.applyBatch) : undefined;
    try {
      for await (const o of outcomes) {
        await this.locked(() => this.record(job, o));
        writer?.advance(o.stagedLines, o.stagedBytes, job.mode === 'all-or-nothing' && job.counts.reject > 0);
        if (writer?.error !== undefined) throw new WriteFailed(writer.error);
      }
    } finally {
      await writer?.stop();
    }
    if (writer?.error !== undefined) throw new WriteFailed(writer.error);
    job.rowsTotal = job.rowsValidated;
    job.rowsExact = true;
    await this.saveProgress(job, true);
  }

  /** One batch's outcome, into the job: its rejected rows saved, its counts added, progress now and then. */
  private async record(job: Job, o: BatchOutcome): Promise<void> {
    job.rowsValid += o.valid;
    job.counts.insert += o.insert;
    job.counts.update += o.update;
    job.counts.unchanged += o.unchanged;
    job.counts.reject += o.rejected.count;
    await saveRejectedJson(this.store, job, o.rejected, 'validate');
    job.rowsValidated += o.rows;
    // Until the end the total is an estimate: rows so far scaled by the bytes still to read.
    job.rowsTotal = Math.max(job.rowsValidated, Math.round(job.rowsValidated * (job.fileBytes / Math.max(o.bytes, 1))));
    await this.saveProgress(job, false);
  }

  /**
   * Validation's progress, for the progress bar: a few times a second is plenty (a write per
   * batch cost a commit per 500 rows). Nothing depends on it: a stopped validation starts over.
   */
  private async saveProgress(job: Job, final: boolean): Promise<void> {
    const now = Date.now();
    if (final || now - this.progressSavedAt >= PROGRESS_MS) {
      this.progressSavedAt = now;
      await patchJob(this.store, job.id, {
        counts: job.counts, rowsValidated: job.rowsValidated, rowsValid: job.rowsValid, rowsTotal: job.rowsTotal, rowsExact: job.rowsExact,
        errorBatches: job.errorBatches, errorRows: job.errorRows,
      });
    }
    if (this.stopping) throw new Stopping();
  }

  private async apply(job: Job, ctx: ImportContext): Promise<void> {
    try {
      // A chunk a crash interrupted (possible only without transactions) is undone first.
      await undoFrom(this.store, job.id, job.rowsApplied);
      for await (const { first, rows } of readStage(this.stagePath(job.id), job.rowsApplied, this.applyBatch)) {
        await this.writeChunk(ctx, job, rows, first);
        if (this.stopping) throw new Stopping();
      }
    } catch (e) {
      if (e instanceof Stopping) throw e;
      return this.writeFailed(job, e);
    }
    crashPoint('written');
    // Succeeded first, clean-up after: a job stopped in between says what the store holds, and
    // the next start sweeps what it left (never "rolled back" with every row written and no undo).
    await this.finish(job.id, 'succeeded');
    crashPoint('marked');
    await deleteJobDocs(this.store, UNDO, job.id);
    crashPoint('undo-cleared');
    await rm(this.stagePath(job.id), { force: true });
    crashPoint('unstaged');
  }

  private async writeChunk(ctx: ImportContext, job: Job, rows: Staged[], first: number): Promise<void> {
    await applyChunk(this.store, ctx, job, rows, first, job.mode);
    crashPoint('chunk');
  }

  /** A write failed (all or nothing met a row it cannot write, or the store failed): the job is rolled back. */
  private async writeFailed(job: Job, e: unknown): Promise<void> {
    const reason = e instanceof ApplyRejected ? `row ${e.rows[0].row}: ${e.message}` : String((e as Error)?.message ?? e);
    if (!(e instanceof ApplyRejected)) this.opts.log?.error({ err: e, job: job.id }, 'import write failed; rolling back');
    return this.rollback(job, reason.slice(0, 300));
  }

  /** Takes back what a commit wrote while validating; the counts of written rows go back to 0. How many chunks were undone. */
  private async takeBack(job: Job): Promise<number> {
    const undone = await undoFrom(this.store, job.id, 0);
    if (undone > 0) await patchJob(this.store, job.id, { counts: { ...job.counts, insert: 0, update: 0, unchanged: 0 } });
    return undone;
  }

  private async rollback(job: Job, reason: string): Promise<void> {
    const error = jobMessage('error', 'IMPORT_ROLLED_BACK', { reason });
    await patchJob(this.store, job.id, { phase: 'rolling_back', error });
    await undoFrom(this.store, job.id, 0);
    await rm(this.stagePath(job.id), { force: true });
    const counts = { ...job.counts, insert: 0, update: 0 };
    await patchJob(this.store, job.id, { counts });
    await this.finish(job.id, 'rolled_back', error);
  }

  private async finish(id: string, status: Job['status'], error?: JobMessage): Promise<void> {
    await patchJob(this.store, id, { status, phase: 'done', finishedAt: new Date().toISOString(), ...(error ? { error } : {}) });
    importsEnded.inc({ status });
  }
}
