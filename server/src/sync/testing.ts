/** Pending declarations made in bulk, and the exactly-once check, for the fault tests and the sync bench. */
import { expect } from 'vitest';
import type { Registry } from '../../../engine/src/index';
import type { Doc, Store } from '../store/types';
import type { FakeStats } from './authority/fake';
import { SYNC_ATTEMPT, SYNC_JOB, type SyncJob } from './collections';
import { newJob } from './jobs';

const WORKFLOW = 'product_import';
const CHUNK = 1_000;

/**
 * `n` imports in their declared state, each with its pending job, as a confirm transition
 * writes them (ids `${prefix}-${i}`), declared at `at`. Returns their ids.
 */
export async function seedPending(store: Store, reg: Registry, n: number, prefix: string, at = new Date()): Promise<string[]> {
  const wf = reg.workflows[WORKFLOW];
  const minutes = reg.deployment.settings.sync!.deadlineMinutes[WORKFLOW];
  const declared = at.toISOString();
  const deadline = new Date(at.getTime() + minutes * 60_000).toISOString();
  const ids: string[] = [];
  for (let from = 0; from < n; from += CHUNK) {
    const records: Doc[] = [];
    const jobs: Doc[] = [];
    for (let i = from; i < Math.min(n, from + CHUNK); i++) {
      const id = `${prefix}-${i}`;
      const record = {
        id, importDate: '2025-03-01', importID: `IMP-${id}`, deposit: 'deposit-1', status: 'Imported',
        productData: [{ material: 'material-1', batchId: `L-${i}`, quantity: 10 + (i % 90), uom: 'uom-1' }],
        sync: { status: '', deadline }, createdAt: declared, updatedAt: declared,
      };
      records.push(record);
      jobs.push(newJob(reg, wf, id, record, 'confirm', declared, deadline) as unknown as Doc);
      ids.push(id);
    }
    await store.insertMany(wf.entity, records);
    await store.insertMany(SYNC_JOB, jobs);
  }
  return ids;
}

/** Resolves once no job is pending or being sent (failed and done ones are settled). */
export async function drained(store: Store, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await store.count(SYNC_JOB, { state: { $in: ['pending', 'leased'] } });
    if (open === 0) return;
    if (Date.now() > until) throw new Error(`${open} sync jobs still open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Every record synced with the id the authority committed, each key committed once and each
 * record declared once, every successful attempt answered that id, and no attempt left unanswered
 * (`interrupted`: those a killed process was waiting on, which a later attempt settled).
 */
export async function expectExactlyOnce(store: Store, ids: string[], stats: FakeStats, interrupted = 0): Promise<void> {
  const records = await store.find(WORKFLOW, { filter: { id: { $in: ids } } });
  expect(records).toHaveLength(ids.length);
  const jobs = new Map((await store.find(SYNC_JOB, { filter: { recordId: { $in: ids } } }) as unknown as SyncJob[]).map((j) => [j.recordId, j]));
  for (const r of records) {
    const job = jobs.get(r.id)!;
    expect(job.state, r.id).toBe('done');
    expect(r.sync, r.id).toMatchObject({ status: 'synced', transactionId: job.transactionId });
    expect(stats.commitsPerKey[job.key], job.key).toBe(1);
    expect(stats.commitsPerRecord[`declare:${r.id}`], r.id).toBe(1);
  }
  expect(Object.values(stats.commitsPerKey).every((c) => c === 1)).toBe(true);
  // A process dying after logging an answer but before settling its job sends again: the same id comes back.
  const oks = await store.aggregate(SYNC_ATTEMPT, [
    { $match: { outcome: 'ok', recordId: { $in: ids } } },
    { $group: { _id: '$recordId', ids: { $addToSet: '$answer.transactionId' } } },
  ]);
  expect(oks).toHaveLength(ids.length);
  for (const o of oks) expect(o.ids, String(o._id)).toEqual([(records.find((r) => r.id === o._id)!.sync as { transactionId: string }).transactionId]);
  expect(await store.count(SYNC_ATTEMPT, { outcome: 'sending' })).toBe(interrupted);
}
