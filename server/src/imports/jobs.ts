/**
 * The records an import leaves in the store: the job itself, its rejected rows (one document
 * per batch of rows, so a file of a million bad rows is a thousand writes, not a million) and
 * the undo log that lets a half-applied job be rolled back.
 */
import {
  formatError, type ErrorCode, type ImportCounts as Counts, type ImportJobStatus, type ImportMode, type ImportPhase as JobPhase,
  type ImportStatus as JobStatus, type JobMessage, type RejectedRow,
} from '../../../engine/src/index';
import type { CollectionSpec, JsonValue, Store, StoredDoc } from '../store/types';
import type { FileFormat } from './source';

export const JOBS = 'import_job';
export const ERROR_BATCHES = 'import_error';
export const UNDO = 'import_undo';

export const IMPORT_COLLECTIONS: CollectionSpec[] = [
  { name: JOBS, uniqueKeys: [], indexes: ['createdAt', 'status', 'entity'] },
  { name: ERROR_BATCHES, uniqueKeys: [], indexes: ['job', 'last'] },
  { name: UNDO, uniqueKeys: [], indexes: ['job'] },
];

export type {
  ImportStatus as JobStatus, ImportPhase as JobPhase, ImportMode, ImportCounts as Counts, JobMessage, CellMessage as RowMessage, RejectedRow,
} from '../../../engine/src/index';

export const zeroCounts = (): Counts => ({ insert: 0, update: 0, unchanged: 0, reject: 0 });

export function jobMessage(severity: 'error' | 'warn', code: ErrorCode, params: Record<string, JsonValue> = {}): JobMessage {
  return { severity, code, message: formatError(code, params), params };
}

/** A row the store refuses (or would): "The row could not be written: …", at the column of the field at fault when known. */
export function rowFailed(row: number, reason: string, column = '', field?: string): RejectedRow {
  return { row, messages: [{ column, field, code: 'IMPORT_ROW_FAILED', message: formatError('IMPORT_ROW_FAILED', { reason }), params: { reason } }] };
}

export interface Job {
  id: string;
  entity: string;
  kind: 'master' | 'event';
  fileName: string;
  fileBytes: number;
  format: FileFormat;
  dryRun: boolean;
  mode: ImportMode;
  status: JobStatus;
  phase: JobPhase;
  createdAt: string;
  createdBy: { userId: string; email: string; displayName: string };
  startedAt?: string;
  finishedAt?: string;
  /** Data rows of the file; an estimate (from the bytes read so far) until validation ends. */
  rowsTotal: number;
  rowsExact: boolean;
  /** Rows validated, and staged rows written (commit only). */
  rowsValidated: number;
  rowsApplied: number;
  /** Rows that passed validation (staged for writing). */
  rowsValid: number;
  /** Dry run: what a commit would do now. Commit: what was done (rejects include rows refused while writing). */
  counts: Counts;
  /** The file's header row as read at upload: the column mapping is rebuilt from it. */
  header: string[];
  columns: { header: string; path: string }[];
  messages: JobMessage[];
  /** Headers that name no field (not imported), and headers read and left out on purpose (`id`). */
  unknownColumns?: string[];
  ignoredColumns?: string[];
  /** Why the job failed or was rolled back. */
  error?: JobMessage;
  /** How many times a server started working on it (a crash loop ends in a rollback). */
  attempts: number;
  errorBatches: number;
  errorRows: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** Ids sort in writing order, so "every document of this job, in order" is a range of ids. */
export const errorBatchId = (job: string, seq: number) => `${job}.e${pad(seq, 7)}`;
export const undoId = (job: string, line: number) => `${job}.u${pad(line, 10)}`;

export function toJob(doc: StoredDoc): Job {
  return doc as unknown as Job;
}

export async function getJob(store: Store, id: string): Promise<Job | null> {
  const doc = await store.get(JOBS, id);
  return doc ? toJob(doc) : null;
}

export async function patchJob(store: Store, id: string, set: Partial<Job>): Promise<void> {
  await store.patch(JOBS, id, set as unknown as Record<string, JsonValue | undefined>);
}

/** Appends rejected rows as one document; `first` and `last` let a page of errors find its documents. */
export async function saveRejected(store: Store, job: Job, rows: RejectedRow[], phase: 'validate' | 'apply'): Promise<void> {
  if (rows.length > 0) await saveRejectedJson(store, job, rejectedJson(rows), phase);
}

/** Rejected rows as JSON text (which drops undefined fields), with their number. */
export interface RejectedJson {
  json: string;
  count: number;
}

export const rejectedJson = (rows: RejectedRow[]): RejectedJson => ({ json: JSON.stringify(rows), count: rows.length });

/**
 * saveRejected for rows already in JSON (validation's thread sends them so): the text goes into
 * the document as it is, never rebuilt as objects on the main thread, whose heap a file of
 * rejected rows would otherwise churn through.
 */
export async function saveRejectedJson(store: Store, job: Job, rows: RejectedJson, phase: 'validate' | 'apply'): Promise<void> {
  if (rows.count === 0) return;
  const seq = job.errorBatches;
  const id = errorBatchId(job.id, seq);
  const head = { id, job: job.id, seq, phase, first: job.errorRows, last: job.errorRows + rows.count - 1 };
  // Without transactions a crash may have left this document behind its checkpoint: replaced.
  if (!store.capabilities.transactions) await store.delete(ERROR_BATCHES, id);
  // Keys are the fixed names of RejectedRow and of message params: nothing a document may not hold.
  await store.insertManyJson(ERROR_BATCHES, [{ id, json: `${JSON.stringify(head).slice(0, -1)},"rows":${rows.json}}` }], REJECTED_ARRAYS);
  job.errorBatches = seq + 1;
  job.errorRows += rows.count;
}

const REJECTED_ARRAYS = ['rows', 'rows.messages'];

/** Rejected rows by position (0-based, in the order they were found). */
export async function rejectedPage(store: Store, jobId: string, skip: number, limit: number): Promise<RejectedRow[]> {
  if (limit <= 0) return [];
  const docs = await store.find(ERROR_BATCHES, {
    filter: { job: jobId, last: { $gte: skip }, first: { $lt: skip + limit } },
    sort: { first: 1 },
  });
  const out: RejectedRow[] = [];
  for (const d of docs) {
    const rows = d.rows as unknown as RejectedRow[];
    const first = d.first as number;
    for (let i = Math.max(0, skip - first); i < rows.length && out.length < limit; i++) out.push(rows[i]);
  }
  return out;
}

/** Every rejected row of a phase in row order, one batch document at a time. */
export async function* rejectedRows(store: Store, jobId: string, phase: 'validate' | 'apply'): AsyncGenerator<RejectedRow> {
  let seq = 0;
  for (;;) {
    // A few documents at a time (each up to a batch of rows with their messages): the error file streams under a small heap.
    const docs = await store.find(ERROR_BATCHES, { filter: { job: jobId, phase, seq: { $gte: seq } }, sort: { seq: 1 }, limit: 2 });
    if (docs.length === 0) return;
    for (const d of docs) {
      for (const r of d.rows as unknown as RejectedRow[]) yield r;
      seq = (d.seq as number) + 1;
    }
  }
}

/** Deletes a job's documents of one collection (by id range: every id starts with the job's). */
export async function deleteJobDocs(store: Store, coll: string, jobId: string): Promise<void> {
  for (;;) {
    const docs = await store.find(coll, { filter: { job: jobId }, projection: { id: 1 }, limit: 200 });
    if (docs.length === 0) return;
    await inTransaction(store, async (tx) => {
      for (const d of docs) await tx.delete(coll, d.id);
    });
  }
}

/** Runs fn in a transaction where the store has them; otherwise directly (callers order writes to stay safe). */
export function inTransaction<T>(store: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
  return store.capabilities.transactions ? store.transaction(fn) : fn(store);
}

/** What the API shows of a job. */
export function presentJob(job: Job): ImportJobStatus & { rows: Record<string, number> } {
  const phaseDone = job.phase === 'applying' ? job.rowsApplied : job.rowsValidated;
  const phaseTotal = job.phase === 'applying' ? job.rowsValid : job.rowsTotal;
  const finished = job.status !== 'queued' && job.status !== 'running';
  // One bar for the whole job: validation is 40% of a commit, writing the rest (on the
  // embedded store both advance together: rows are written while the rest is validated).
  const share = phaseTotal > 0 ? Math.min(1, phaseDone / phaseTotal) : 1;
  const written = job.rowsTotal > 0 ? Math.min(1, job.rowsApplied / job.rowsTotal) : 0;
  let percent = 0;
  if (finished) percent = 100;
  else if (job.phase === 'validating') percent = job.dryRun ? share * 100 : share * 40 + written * 60;
  else if (job.phase === 'applying') percent = 40 + share * 60;
  else if (job.phase === 'rolling_back') percent = 100;
  return {
    id: job.id,
    entity: job.entity,
    kind: job.kind,
    fileName: job.fileName,
    fileBytes: job.fileBytes,
    encoding: job.format.encoding,
    dryRun: job.dryRun,
    mode: job.mode,
    status: job.status,
    phase: job.phase,
    createdAt: job.createdAt,
    createdBy: job.createdBy,
    startedAt: job.startedAt ?? null,
    finishedAt: job.finishedAt ?? null,
    progress: {
      phase: job.phase,
      rowsDone: finished ? job.rowsTotal : phaseDone,
      rowsTotal: job.rowsTotal,
      exact: job.rowsExact,
      percent: Math.round(percent * 10) / 10,
    },
    rows: { total: job.rowsTotal, validated: job.rowsValidated, valid: job.rowsValid, applied: job.rowsApplied },
    counts: job.counts,
    columns: job.columns,
    unknownColumns: job.unknownColumns ?? [],
    ignoredColumns: job.ignoredColumns ?? [],
    messages: job.messages,
    error: job.error ?? null,
    errorFile: `/api/imports/${job.id}/errors.csv`,
  };
}
