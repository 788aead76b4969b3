import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { metrics } from '../metrics/registry';
import { newId } from '../store/ids';
import type { Doc, JsonValue, Store, StoredDoc } from '../store/types';
import { AuthorityUnavailable, type AuthorityAdapter, type AuthorityAnswer, type AuthorityTransaction } from './authority/types';
import { SYNC_ATTEMPT, SYNC_JOB, type SyncJob } from './collections';
import { jobKey, kindOf, recordJobs } from './jobs';
import { buildTransaction, readPass, recordOf, type PassData } from './transaction';

export interface WorkerOptions {
  /** Who holds a lease: unique per process (two servers on one database never share it). */
  instance: string;
  /** Jobs leased per pass. */
  batch?: number;
  /** Calls to the authority in flight at once. */
  concurrency?: number;
  /** How long a lease lasts: a process dying mid-send leaves its jobs to others after this. */
  leaseMs?: number;
  /** The pause between passes that found nothing to do. */
  pollMs?: number;
  /** Backoff after the n-th failed attempt: min(maxDelayMs, baseDelayMs·2^(n−1)), jittered to between half and all of it. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A receiver's answer waits this long between looks at the sender's declaration. */
  senderWaitMs?: number;
  random?: () => number;
  log?: FastifyBaseLogger;
}

type Outcome = 'ok' | 'retry' | 'refused';
const attemptsCounter = metrics.counter('sync_attempts_total', 'Calls to the authority by kind (declare, confirm, reject) and outcome (ok, retry, refused)', ['kind', 'outcome']);
class LeaseLost extends Error {}

/** The delay before the next attempt: exponential, capped, with jitter; the authority's Retry-After when longer. */
export function backoffMs(attempts: number, o: { baseDelayMs: number; maxDelayMs: number }, random: () => number, retryAfterMs = 0): number {
  const ceiling = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.max(retryAfterMs, Math.round(ceiling / 2 + (random() * ceiling) / 2));
}

/**
 * Sends the outbox: leases due jobs with a compare-and-set on their revision (so two processes
 * on one database never send the same job at once), sends each under its idempotency key,
 * logs every attempt, and writes the record's sync state with the job's.
 */
export class SyncWorker {
  private readonly o: Required<Omit<WorkerOptions, 'log'>> & { log?: FastifyBaseLogger };
  private running?: Promise<void>;
  private stopping = false;
  private wake?: () => void;
  /** When the loop last began a pass or wrote a job's outcome. */
  private beat = Date.now();

  constructor(private readonly reg: Registry, private readonly store: Store, private readonly authority: AuthorityAdapter, options: WorkerOptions) {
    this.o = {
      batch: 50, concurrency: 16, leaseMs: 60_000, pollMs: 1_000, baseDelayMs: 1_000, maxDelayMs: 300_000, senderWaitMs: 2_000,
      random: Math.random, ...options,
    };
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Stops leasing and waits for the calls in flight to be written. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
  }

  /** For readiness: why the worker is not sending (stopped, or stuck longer than a lease), else undefined. */
  health(now = Date.now()): string | undefined {
    if (!this.running || this.stopping) return 'the sync worker is stopped';
    const idle = now - this.beat;
    return idle > Math.max(this.o.leaseMs, 3 * this.o.pollMs) ? `the sync worker has not moved for ${Math.round(idle / 1000)} s` : undefined;
  }

  /** Ends the pause between passes (a job was just made due). */
  poke(): void {
    this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.beat = Date.now();
      let done = 0;
      try {
        done = await this.pass();
      } catch (e) {
        this.o.log?.error({ err: e }, 'sync pass failed');
      }
      if (done === 0 && !this.stopping) await new Promise<void>((r) => { this.wake = r; setTimeout(r, this.o.pollMs).unref(); });
    }
  }

  /** One pass: lease what is due, send it, write the outcomes; returns how many jobs were leased. */
  async pass(now = new Date()): Promise<number> {
    const at = now.toISOString();
    const due = await this.store.find(SYNC_JOB, {
      filter: { $or: [{ state: 'pending', nextAt: { $lte: at } }, { state: 'leased', leaseUntil: { $lt: at } }] },
      sort: { nextAt: 1 }, limit: this.o.batch,
    }) as unknown as SyncJob[];
    const until = new Date(now.getTime() + this.o.leaseMs).toISOString();
    const leased = (await Promise.all(due.map((j) => this.store.patchIf(SYNC_JOB, j.id, { rev: j.rev }, { state: 'leased', leaseOwner: this.o.instance, leaseUntil: until, rev: j.rev + 1 }))))
      .filter((j): j is StoredDoc => j !== null) as unknown as SyncJob[];
    if (leased.length === 0) return 0;
    const data = await readPass(this.reg, this.store, leased);
    let next = 0;
    const lane = async () => {
      while (next < leased.length) {
        const job = leased[next++];
        try {
          await this.process(job, data);
          this.beat = Date.now();
        } catch (e) {
          if (!(e instanceof LeaseLost)) this.o.log?.error({ err: e, key: job.key }, 'sync job failed to be written');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency, leased.length) }, lane));
    return leased.length;
  }

  /** Writes the job's new state only while this process still holds its lease. */
  private async release(s: Store, job: SyncJob, set: Record<string, JsonValue | undefined>): Promise<void> {
    const ok = await s.patchIf(SYNC_JOB, job.id, { rev: job.rev, leaseOwner: this.o.instance }, { ...set, leaseOwner: undefined, leaseUntil: undefined, rev: job.rev + 1 });
    if (!ok) throw new LeaseLost(`lease of ${job.key} lost`);
  }

  private async process(job: SyncJob, data: PassData): Promise<void> {
    const record = recordOf(data, job);
    if (!record) return this.release(this.store, job, { state: 'failed', lastError: `the ${job.entity} ${job.recordId} no longer exists`, doneAt: new Date().toISOString() });
    let sender: string | undefined;
    if (job.kind !== 'declare') {
      // A receiver's answer names the sender's declaration: it waits until that one is synced.
      const declared = await this.store.get(SYNC_JOB, jobKey(job.workflow, job.recordId, 'declare')) as unknown as SyncJob | null;
      if (!declared?.transactionId) return this.release(this.store, job, { state: 'pending', nextAt: new Date(Date.now() + this.o.senderWaitMs).toISOString() });
      sender = declared.transactionId;
    }
    const tx = buildTransaction(this.reg, job, record, data, sender);
    const attempt = job.attempts + 1;
    const started = new Date();
    // Logged before the call, so a process killed while waiting for the answer leaves it in the log.
    const log = await this.store.insert(SYNC_ATTEMPT, {
      id: newId(), at: started.toISOString(), key: job.key, workflow: job.workflow, recordId: job.recordId, kind: job.kind, attempt,
      request: tx as unknown as Doc, outcome: 'sending', instance: this.o.instance,
    });
    const { outcome, answer, retryAfterMs } = await this.send(tx);
    const end = new Date();
    await this.store.patch(SYNC_ATTEMPT, log.id, { outcome, answer: answer as JsonValue, durationMs: end.getTime() - started.getTime() });
    attemptsCounter.inc({ kind: job.kind, outcome });
    await this.settle(job, record, attempt, end, outcome, answer, retryAfterMs);
  }

  private async send(tx: AuthorityTransaction): Promise<{ outcome: Outcome; answer: Doc; retryAfterMs?: number }> {
    try {
      const answer: AuthorityAnswer = await this.authority[tx.kind](tx);
      return { outcome: answer.ok ? 'ok' : 'refused', answer: answer as unknown as Doc };
    } catch (e) {
      // Anything but an answer (the network, a timeout, a 5xx, a bug in between) is retried: the key makes a resend safe.
      const message = e instanceof Error ? e.message : String(e);
      return { outcome: 'retry', answer: { error: message }, retryAfterMs: e instanceof AuthorityUnavailable ? e.retryAfterMs : undefined };
    }
  }

  /**
   * The job's state and the record's sync state, written together: in one transaction where the
   * store has them; elsewhere the record first, so a crash in between leaves the job leased and
   * sent again under the same key, which the authority answers with the same transaction id.
   */
  private async settle(job: SyncJob, record: StoredDoc, attempts: number, end: Date, outcome: Outcome, answer: Doc, retryAfterMs?: number): Promise<void> {
    const at = end.toISOString();
    if (outcome === 'retry') {
      const delay = backoffMs(attempts, this.o, this.o.random, retryAfterMs);
      return this.release(this.store, job, { state: 'pending', attempts, nextAt: new Date(end.getTime() + delay).toISOString(), lastError: String(answer.error) });
    }
    const ok = outcome === 'ok';
    const transactionId = ok ? String(answer.transactionId) : undefined;
    const reason = ok ? undefined : String(answer.reason);
    const later = ok ? await this.laterJob(job) : null;
    const base = { attempts, lastAttemptAt: at, deadline: job.deadline };
    // Once a receiver's answer is pending on the record, the declaration's success leaves the record pending for it.
    const sync = later
      ? { status: '', deadline: later.deadline }
      : ok ? { status: 'synced', transactionId: transactionId!, syncedAt: at, ...base } : { status: 'failed', reason: reason!, ...base };
    const write = async (s: Store) => {
      await s.patch(job.entity, record.id, { sync, updatedAt: at });
      await this.release(s, job, { state: ok ? 'done' : 'failed', attempts, transactionId, lastError: reason, doneAt: at });
    };
    await (this.store.capabilities.transactions ? this.store.transaction(write) : write(this.store));
  }

  /** A receiver's answer for the same record not yet settled, made after this job (only moves have them). */
  private async laterJob(job: SyncJob): Promise<SyncJob | null> {
    if (!this.reg.workflows[job.workflow].transitions.some((t) => kindOf(t.id).kind !== 'declare')) return null;
    // The record's few jobs read by its id and judged here (recordJobs).
    return (await recordJobs(this.store, job.workflow, job.recordId)).find((j) => j.declaredAt > job.declaredAt && j.state !== 'done') ?? null;
  }
}
