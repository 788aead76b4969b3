import { localize, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { Store, StoredDoc } from '../store/types';
import { SYNC_ATTEMPT, SYNC_JOB, type SyncJob } from './collections';
import { syncCounts } from './deadlines';
import { recordJobs } from './jobs';

type Sync = { status?: string; deadline?: string };

/** The sync routes' work: status counts, re-sync of a failed record, its attempts, remito search. */
export class SyncService {
  constructor(private readonly reg: Registry, private readonly store: Store, private readonly poke: () => void = () => {}) {}

  private workflow(name: string): WorkflowDef {
    const wf = this.reg.workflows[name];
    if (!wf) throw new ApiError('UNKNOWN_WORKFLOW', { workflow: name });
    if (!wf.declarable) throw new ApiError('SYNC_NOT_DECLARABLE', { workflow: name });
    return wf;
  }

  private async record(wf: WorkflowDef, id: string): Promise<StoredDoc> {
    const record = await this.store.get(wf.entity, id);
    if (!record) throw new ApiError('RECORD_NOT_FOUND', { entity: localize(this.reg.entities[wf.entity]?.label ?? wf.label), id });
    return record;
  }

  status(now = new Date()) {
    return syncCounts(this.store, now);
  }

  /**
   * syncToSenasa: a failed record and its failed jobs go back to pending, sent again at once
   * under the same keys (a refused key was never committed). 409 unless the record failed.
   */
  async resync(workflow: string, id: string): Promise<{ sync: Sync }> {
    const wf = this.workflow(workflow);
    const record = await this.record(wf, id);
    const sync = (record.sync ?? {}) as Sync;
    if (sync.status !== 'failed') {
      const state = sync.status === 'synced' ? 'synced' : sync.status === '' ? 'pending' : 'not declared';
      throw new ApiError('SYNC_NOT_FAILED', { entity: localize(wf.label), state });
    }
    const at = new Date().toISOString();
    const failed = (await recordJobs(this.store, workflow, id)).filter((j) => j.state === 'failed');
    const next: Sync = { status: '', ...(sync.deadline ? { deadline: sync.deadline } : {}) };
    const write = async (s: Store) => {
      for (const job of failed) {
        const ok = await s.patchIf(SYNC_JOB, job.id, { rev: job.rev, state: 'failed' }, { state: 'pending', nextAt: at, attempts: 0, lastError: undefined, doneAt: undefined, rev: job.rev + 1 });
        if (!ok) throw new ApiError('TRANSITION_CONFLICT', { entity: localize(wf.label), state: 'pending' });
      }
      await s.patch(wf.entity, id, { sync: next, updatedAt: at });
    };
    await (this.store.capabilities.transactions ? this.store.transaction(write) : write(this.store));
    this.poke();
    return { sync: next };
  }

  /** Every attempt for a record, newest first. */
  async attempts(workflow: string, id: string, page: number, pageSize: number) {
    const wf = this.workflow(workflow);
    await this.record(wf, id);
    const filter = { workflow, recordId: id };
    const [data, total] = await Promise.all([
      this.store.find(SYNC_ATTEMPT, { filter, sort: { at: -1 }, skip: (page - 1) * pageSize, limit: pageSize }),
      this.store.count(SYNC_ATTEMPT, filter),
    ]);
    return { data, total, page, pageSize };
  }

  /** searchRemitoNumber: the declarable records with this delivery-note number, with their sync state and jobs. */
  async byRemito(number: string) {
    const withRemito = Object.values(this.reg.workflows).filter((wf) => wf.declarable && this.reg.entities[wf.entity]?.fields.some((f) => f.id === 'shipmentID'));
    const found = await Promise.all(withRemito.map(async (wf) => (await this.store.find(wf.entity, { filter: { shipmentID: number }, limit: 100 })).map((r) => ({ wf, r }))));
    const records = found.flat();
    const jobs = records.length
      ? await this.store.find(SYNC_JOB, { filter: { recordId: { $in: records.map(({ r }) => r.id) } }, sort: { declaredAt: 1 } }) as unknown as SyncJob[]
      : [];
    return {
      data: records.map(({ wf, r }) => ({
        workflow: wf.name, id: r.id, remito: number, state: r[wf.stateField] ?? null, sync: r.sync ?? null,
        jobs: jobs.filter((j) => j.recordId === r.id && j.workflow === wf.name).map((j) => ({
          key: j.key, kind: j.kind, state: j.state, attempts: j.attempts, deadline: j.deadline,
          ...(j.transactionId ? { transactionId: j.transactionId } : {}), ...(j.lastError ? { lastError: j.lastError } : {}),
        })),
      })),
    };
  }
}
