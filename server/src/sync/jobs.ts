import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Registry, WorkflowDef } from '../../../engine/src/index';
import { recordTitle } from '../../../engine/src/list/index';
import type { TransitionWrite, WriteHooks } from '../records/writeHooks';
import { isStoreError, type Doc, type Store } from '../store/types';
import { SYNC_JOB, type JobKind, type SyncJob } from './collections';

/**
 * The receiver's answers to a move, by transition: a confirmation, or a rejection in part or in
 * full; every other transition that makes a record pending declares it. acceptRejection (the
 * sender taking back what was refused) settles the move, so it is sent as a confirmation.
 */
const RECEIVER: Record<string, { kind: JobKind; partial?: boolean }> = {
  acceptAll: { kind: 'confirm' }, accept: { kind: 'confirm' }, receive: { kind: 'confirm' }, receiveByTransporter: { kind: 'confirm' },
  acceptRejection: { kind: 'confirm' },
  partialReject: { kind: 'reject', partial: true }, totalReject: { kind: 'reject' }, reject: { kind: 'reject' },
};

export function kindOf(transition: string): { kind: JobKind; partial?: boolean } {
  return RECEIVER[transition] ?? { kind: 'declare' };
}

export function jobKey(workflow: string, recordId: string, kind: JobKind): string {
  return `${workflow}:${recordId}:${kind}`;
}

const MINUTE = 60_000;

type Sync = { status?: string; deadline?: string };

/** The declarable workflows and their deadlines (checked at load: every declarable one has its own). */
export function declarable(reg: Registry): { wf: WorkflowDef; minutes: number }[] {
  const minutes = reg.deployment.settings.sync?.deadlineMinutes ?? {};
  return Object.values(reg.workflows).filter((wf) => wf.declarable).map((wf) => ({ wf, minutes: minutes[wf.name] }));
}

/** How many of the record's transitions so far (its history, this one included) sent a message of this kind. */
function sentOfKind(wf: WorkflowDef, record: Record<string, unknown>, kind: JobKind): number {
  const declaring = new Set(wf.transitions.filter((t) => t.effects?.some((e) => e.type === 'setSyncPending') && kindOf(t.id).kind === kind).map((t) => t.id));
  const history = Array.isArray(record.history) ? (record.history as { transition?: unknown }[]) : [];
  return history.filter((h) => typeof h.transition === 'string' && declaring.has(h.transition)).length;
}

/** A new pending job; it is due soon in the last `dueSoonPercent` of its workflow's window. */
export function newJob(reg: Registry, wf: WorkflowDef, recordId: string, record: Record<string, unknown>, transition: string, at: string, deadline: string): SyncJob {
  const { kind, partial } = kindOf(transition);
  // A record declared again (a donation dispatched, then returned) is a new transaction: its
  // second message of a kind is keyed by how many it has sent, counted from its history (so a
  // replayed write gets the same key); the first keeps the plain key the receivers' answers name.
  const nth = sentOfKind(wf, record, kind);
  const key = nth > 1 ? `${jobKey(wf.name, recordId, kind)}:${nth}` : jobKey(wf.name, recordId, kind);
  const settings = reg.deployment.settings.sync;
  const window = (settings?.deadlineMinutes[wf.name] ?? 0) * MINUTE;
  const share = (settings?.dueSoonPercent ?? 0) / 100;
  const deposit = record[wf.depositFields[0]];
  return {
    id: key, key, workflow: wf.name, entity: wf.entity, recordId, kind, ...(partial ? { partial } : {}),
    state: 'pending', rev: 0, attempts: 0, nextAt: at, declaredAt: at, deadline,
    dueSoonAt: new Date(Date.parse(deadline) - window * share).toISOString(),
    ...(typeof deposit === 'string' ? { deposit } : {}),
    // What the alerts call the record (its import number, its remito…), not its internal id.
    title: recordTitle(reg.entities[wf.entity], { ...record, id: recordId }, 'en'),
  };
}

/** The job a transition that made its record pending writes beside it, in the same write. */
function jobFor(reg: Registry, wf: WorkflowDef, t: TransitionWrite): SyncJob | null {
  const def = wf.transitions.find((x) => x.id === t.transition);
  const sync = t.record.sync as Sync | undefined;
  if (!def?.effects?.some((e) => e.type === 'setSyncPending') || sync?.status !== '' || !sync.deadline) return null;
  return newJob(reg, wf, t.recordId, t.record, t.transition, t.at, sync.deadline);
}

/**
 * For every declarable workflow: a record made pending gets its legal deadline (derived once,
 * when its sync state has none), and the transition that made it pending writes its outbox job.
 */
export function registerSyncHooks(hooks: WriteHooks, reg: Registry): void {
  for (const { wf, minutes } of declarable(reg)) {
    hooks.register(wf.entity, (record) => {
      const sync = record.sync as Sync | undefined;
      if (!sync || sync.status !== '' || sync.deadline) return null;
      return { sync: { ...sync, deadline: new Date(Date.now() + minutes * MINUTE).toISOString() } };
    });
    hooks.registerCompanion(wf.name, (t) => {
      const job = jobFor(reg, wf, t);
      return job ? [{ coll: SYNC_JOB, doc: job as unknown as Doc }] : [];
    });
  }
}

const PAGE = 1_000;

/**
 * A record's jobs (a handful), read by the record's id alone and narrowed to its workflow here:
 * given the workflow too, the embedded store's SQLite, which keeps no statistics, may read the
 * workflow's index instead, every job the workflow ever had.
 */
export async function recordJobs(store: Store, workflow: string, recordId: string): Promise<SyncJob[]> {
  return (await store.find(SYNC_JOB, { filter: { recordId } }) as unknown as SyncJob[]).filter((j) => j.workflow === workflow);
}

/**
 * What a pass that went through a workflow's pending records found, per store and workflow: its
 * records and its pending ones, counted before it looked. While both counts stay the same no
 * record was added pending behind the workflow's back (a transition writes its job with it), so
 * the next pass need not read a million pending records again to find none without a job.
 */
const looked = new WeakMap<Store, Map<string, string>>();

/**
 * Pending records without any job (written pending by an import, or before the outbox existed)
 * get their declaration's job, so nothing pending goes unsent or unalerted. Returns how many.
 * Pages read the pending records' ids alone and their jobs by record; only records without one
 * are read whole. A page's jobs go in as one write; the event loop turns between pages (the
 * embedded store answers synchronously, and a store filled in bulk can hold a million of them).
 */
export async function adoptPending(store: Store, reg: Registry, now: Date): Promise<number> {
  const at = now.toISOString();
  let adopted = 0;
  const seen = looked.get(store) ?? new Map<string, string>();
  looked.set(store, seen);
  for (const { wf, minutes } of declarable(reg)) {
    const counts = JSON.stringify([await store.count(wf.entity), await store.count(wf.entity, { 'sync.status': '' })]);
    if (seen.get(wf.name) === counts) continue;
    let after: Doc | undefined;
    for (;;) {
      const page = await store.find(wf.entity, { filter: { 'sync.status': '' }, sort: { id: 1 }, limit: PAGE, projection: { id: 1 }, ...(after ? { after } : {}) });
      if (page.length === 0) break;
      // By record alone, the workflow checked here, as recordJobs does.
      const known = new Set((await store.find(SYNC_JOB, { filter: { recordId: { $in: page.map((r) => r.id) } } }))
        .filter((j) => j.workflow === wf.name).map((j) => j.recordId));
      const missing = page.filter((x) => !known.has(x.id)).map((x) => x.id);
      if (missing.length) {
        // Read whole now, still pending: one may have been sent or changed since the page was read.
        const records = await store.find(wf.entity, { filter: { id: { $in: missing }, 'sync.status': '' } });
        adopted += await insertJobs(store, records.map((r) => {
          const deadline = (r.sync as Sync).deadline ?? new Date(now.getTime() + minutes * MINUTE).toISOString();
          return newJob(reg, wf, r.id, r, '', at, deadline) as unknown as Doc;
        }));
      }
      if (page.length < PAGE) break;
      after = { id: page[page.length - 1].id };
      await nextTurn();
    }
    seen.set(wf.name, counts);
  }
  return adopted;
}

/** The jobs in one write; when another process adopted one of them meanwhile, each alone, skipping those it wrote. */
async function insertJobs(store: Store, jobs: Doc[]): Promise<number> {
  if (jobs.length === 0) return 0;
  try {
    await store.insertMany(SYNC_JOB, jobs);
    return jobs.length;
  } catch (e) {
    if (!isStoreError(e, 'DUPLICATE_KEY')) throw e;
  }
  let n = 0;
  for (const job of jobs) {
    try {
      await store.insert(SYNC_JOB, job);
      n++;
    } catch (e) {
      if (!isStoreError(e, 'DUPLICATE_KEY')) throw e;
    }
  }
  return n;
}
