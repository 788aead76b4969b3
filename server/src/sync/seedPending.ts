/** Pending declarations made in bulk, as confirm transitions write them, for the fault tests and the sync bench. */
import type { Registry } from '../../../engine/src/index';
import type { Doc, Store } from '../store/types';
import { SYNC_JOB } from './collections';
import { newJob } from './jobs';

export const WORKFLOW = 'product_import';
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
export async function drained(store: Store, timeoutMs = 60_000, everyMs = 50): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await store.count(SYNC_JOB, { state: { $in: ['pending', 'leased'] } });
    if (open === 0) return;
    if (Date.now() > until) throw new Error(`${open} sync jobs still open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

