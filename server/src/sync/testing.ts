/** The exactly-once check of the fault tests. */
import { expect } from 'vitest';
import type { Store } from '../store/types';
import type { FakeStats } from './authority/fake';
import { SYNC_ATTEMPT, SYNC_JOB, type SyncJob } from './collections';
import { WORKFLOW } from './seedPending';

export { drained, seedPending } from './seedPending';

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
