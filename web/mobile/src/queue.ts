/**
 * The on-device action queue (DOMAIN "Offline sync (mobile)"): every action is stored in
 * IndexedDB with a per-device, strictly increasing seq before anything is sent; actions are
 * sent in seq order, at most 100 a call, and never reordered; the server applies each at most
 * once per (user, deviceId, seq) and is the judge. The queue only records its verdicts: applied
 * ones (kept a while as history) and rejected ones, which stay until the user dismisses them.
 */
import type { MobileDb } from './db';
import type { ActionPayload, ActionResult, QueuedAction } from './types';

export const MAX_BATCH = 100;
/** Applied actions kept for the queue screen's history. */
export const KEEP_APPLIED = 50;

export type NewAction = Omit<QueuedAction, 'seq' | 'status' | 'record' | 'error' | 'doneAt'>;

/** Sends one batch (all of one warehouse group) and answers the server's verdicts. */
export type SendBatch = (actions: ActionPayload[], group: string | null) => Promise<ActionResult[]>;

export interface SyncOutcome {
  sent: number;
  applied: number;
  rejected: number;
}

export function toPayload(a: QueuedAction): ActionPayload {
  const { seq, feature, workflow, recordId, kind, transition, fields, comment, at, offline } = a;
  return { seq, feature, workflow, recordId, kind, at, offline, ...(transition ? { transition } : {}), ...(fields ? { fields } : {}), ...(comment ? { comment } : {}) };
}

export class ActionQueue {
  private readonly listeners = new Set<() => void>();
  private running: Promise<SyncOutcome> | null = null;

  constructor(private readonly db: MobileDb, private readonly now: () => number = Date.now) {}

  /** Calls the listener whenever the queue changes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** This device's id: made once (crypto.randomUUID) and kept for good, across sign-ins. */
  async deviceId(): Promise<string> {
    const tx = this.db.transaction('kv', 'readwrite');
    let id = (await tx.store.get('deviceId')) as string | undefined;
    if (!id) {
      id = crypto.randomUUID();
      await tx.store.put(id, 'deviceId');
    }
    await tx.done;
    return id;
  }

  /** Stores the action with the next seq, in one transaction with the seq counter. */
  async enqueue(input: NewAction): Promise<QueuedAction> {
    const tx = this.db.transaction(['kv', 'queue'], 'readwrite');
    const kv = tx.objectStore('kv');
    const seq = (((await kv.get('seq')) as number | undefined) ?? 0) + 1;
    await kv.put(seq, 'seq');
    const action: QueuedAction = { ...input, seq, status: 'pending' };
    await tx.objectStore('queue').add(action);
    await tx.done;
    this.changed();
    return action;
  }

  /** Every action on the device, by seq. */
  all(): Promise<QueuedAction[]> {
    return this.db.getAll('queue');
  }

  async pending(user: string): Promise<QueuedAction[]> {
    return (await this.all()).filter((a) => a.status === 'pending' && a.user === user);
  }

  /** The user's actions not yet judged (what signing out or losing storage would lose). */
  async unsyncedCount(user: string): Promise<number> {
    return (await this.pending(user)).length;
  }

  /** Removes a judged action from the list (rejected ones stay until this is called). */
  async dismiss(seq: number): Promise<void> {
    const a = await this.db.get('queue', seq);
    if (a && a.status !== 'pending') await this.db.delete('queue', seq);
    this.changed();
  }

  /**
   * Records the server's verdicts. A verdict for an action already judged changes nothing (a
   * replayed answer is the same answer); one for a seq the device does not hold is ignored.
   * Answers the seqs whose verdict was new.
   */
  async record(results: ActionResult[]): Promise<number[]> {
    const tx = this.db.transaction('queue', 'readwrite');
    const fresh: number[] = [];
    for (const r of results) {
      const a = await tx.store.get(r.seq);
      if (!a || a.status !== 'pending') continue;
      await tx.store.put({ ...a, status: r.status, record: r.record, error: r.error, doneAt: this.now() });
      fresh.push(r.seq);
    }
    // History: the newest applied actions only.
    const applied = (await tx.store.getAll()).filter((a) => a.status === 'applied');
    for (const a of applied.slice(0, Math.max(0, applied.length - KEEP_APPLIED))) await tx.store.delete(a.seq);
    await tx.done;
    if (fresh.length) this.changed();
    return fresh;
  }

  /**
   * Sends the user's pending actions in seq order, batch after batch (a batch is at most 100
   * consecutive actions made under the same warehouse group), recording each verdict. A network
   * failure throws and leaves the rest pending, in order. Stops when an answer leaves an action
   * of its batch without a verdict (it is sent again next time, first). One run at a time.
   */
  sync(user: string, send: SendBatch): Promise<SyncOutcome> {
    if (!this.running) {
      this.running = this.run(user, send).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async run(user: string, send: SendBatch): Promise<SyncOutcome> {
    const outcome: SyncOutcome = { sent: 0, applied: 0, rejected: 0 };
    for (;;) {
      const pending = await this.pending(user);
      if (!pending.length) return outcome;
      const group = pending[0].group;
      const batch: QueuedAction[] = [];
      for (const a of pending) {
        if (a.group !== group || batch.length === MAX_BATCH) break;
        batch.push(a);
      }
      const results = await send(batch.map(toPayload), group);
      const mine = new Set(batch.map((a) => a.seq));
      const answered = results.filter((r) => mine.has(r.seq));
      await this.record(answered);
      outcome.sent += batch.length;
      for (const r of answered) outcome[r.status === 'applied' ? 'applied' : 'rejected'] += 1;
      if (answered.length < batch.length) return outcome;
    }
  }
}

/** The retry delay after `failures` failed runs: doubling from `baseMs` up to `maxMs`. */
export function backoff(failures: number, baseMs = 5_000, maxMs = 300_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
}
