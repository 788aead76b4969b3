import type { CollectionSpec } from '../store/types';

/** One job per record and kind (declare, confirm, reject): the outbox. */
export const SYNC_JOB = 'sync_job';
/** Every call to the authority, with what was sent and answered. */
export const SYNC_ATTEMPT = 'sync_attempt';

export type JobKind = 'declare' | 'confirm' | 'reject';
export type JobState = 'pending' | 'leased' | 'done' | 'failed';

/** A sync_job as stored; `rev` grows with every write, so a lease is a compare-and-set on it. */
export interface SyncJob {
  id: string;
  key: string;
  workflow: string;
  entity: string;
  recordId: string;
  kind: JobKind;
  partial?: boolean;
  state: JobState;
  rev: number;
  attempts: number;
  nextAt: string;
  declaredAt: string;
  deadline: string;
  dueSoonAt: string;
  deposit?: string;
  /** The record's title when the job was written (its entity's titleField), for the alerts. */
  title?: string;
  leaseOwner?: string;
  leaseUntil?: string;
  lastError?: string;
  transactionId?: string;
  doneAt?: string;
}

/** sync_attempt is an entity (schemas/entities/sync_attempt.json, the /automation-sync-logs report's source): its definition makes it. */
export const syncCollections: CollectionSpec[] = [
  { name: SYNC_JOB, uniqueKeys: [['key']], indexes: ['state', 'nextAt', 'leaseUntil', 'recordId', 'deadline', 'dueSoonAt', 'workflow'],
    // The dashboards' and the tray's counts of open jobs past (or near) their deadline, read in the
    // index alone; within a warehouse group, by the deposits it holds (a record read per open job took 100 ms at 1M records).
    compoundIndexes: [['state', 'deadline', 'dueSoonAt'], ['deposit', 'state', 'deadline', 'dueSoonAt']] },
];
