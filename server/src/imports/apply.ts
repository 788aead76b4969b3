/**
 * Writing validated rows, a chunk at a time, so that a crash at any instant leaves either a
 * chunk fully written with its checkpoint, or nothing of it:
 *
 * - Each chunk runs in one store transaction (SQLite always; MongoDB on a replica set): the
 *   plan is read, the undo record written (ids inserted, records as they were before an
 *   update), the records written and the job's checkpoint advanced, all or nothing.
 * - Without transactions the undo record is written first and the checkpoint last: an undo
 *   record past the checkpoint marks a chunk a crash interrupted; it is undone before the
 *   job resumes, so no row is ever half-written or written twice.
 * - The undo log also rolls a whole job back (all-or-nothing after a late failure, or a job
 *   the server keeps crashing on).
 */
import { isStoreError, type Doc, type JsonValue, type Store, type StoredDoc } from '../store/types';
import type { ImportContext } from './context';
import { inTransaction, JOBS, rowFailed, saveRejected, UNDO, undoId, type Counts, type ImportMode, type Job, type RejectedRow } from './jobs';
import { planBatch, type Plan, type Staged } from './plan';
import { indexImported, unindexUndone } from '../epcis/indexing';

/** All or nothing met a row it cannot write: the job must be rolled back. */
export class ApplyRejected extends Error {
  constructor(readonly rows: RejectedRow[]) {
    super(rows[0]?.messages[0]?.message ?? 'a row could not be written');
  }
}

export interface ChunkResult {
  rejected: RejectedRow[];
}

function addCounts(c: Counts, p: Plan, rejected: number): Counts {
  return { insert: c.insert + p.inserts.length, update: c.update + p.updates.length, unchanged: c.unchanged + p.unchanged, reject: c.reject + rejected };
}

/**
 * Moves the checkpoint past `line` with the rows rejected on the way, in the caller's
 * transaction: a crash never loses a rejection nor counts one twice.
 */
async function checkpoint(tx: Store, job: Job, line: number, counts: Counts, rejected: RejectedRow[]): Promise<void> {
  await saveRejected(tx, job, rejected, 'apply');
  await tx.patch(JOBS, job.id, {
    rowsApplied: line, counts: counts as unknown as JsonValue, errorBatches: job.errorBatches, errorRows: job.errorRows,
    rowsValid: job.rowsValid - rejected.length,
  });
}

/** Runs a write with the job's in-memory counters restored if it fails (the store rolled back). */
async function guarded<T>(job: Job, fn: () => Promise<T>): Promise<T> {
  const saved = { counts: job.counts, rowsApplied: job.rowsApplied, errorBatches: job.errorBatches, errorRows: job.errorRows, rowsValid: job.rowsValid };
  try {
    return await fn();
  } catch (e) {
    Object.assign(job, saved);
    throw e;
  }
}

/** Writes one chunk (staged lines [first, first + rows.length)) and moves the checkpoint past it. */
async function writeChunk(store: Store, ctx: ImportContext, job: Job, rows: readonly Staged[], first: number, mode: ImportMode): Promise<ChunkResult> {
  const now = new Date().toISOString();
  const id = undoId(job.id, first);
  let undoWritten = false;
  try {
    const { plan } = await guarded(job, () => inTransaction(store, async (tx) => {
      const plan = await planBatch(tx, ctx, rows, job.createdBy.userId, now);
      if (plan.rejected.length > 0 && mode === 'all-or-nothing') throw new ApplyRejected(plan.rejected);
      if (plan.inserts.length > 0 || plan.updates.length > 0) {
        await tx.insert(UNDO, {
          id, job: job.id, line: first, coll: ctx.entity,
          inserted: plan.inserts.map((i) => i.doc.id),
          updated: plan.updates.map((u) => u.before) as unknown as JsonValue,
        });
        undoWritten = true;
        if (plan.inserts.length > 0) await tx.insertManyJson(ctx.entity, plan.inserts.map((i) => i.doc), plan.arrays);
        for (const u of plan.updates) await tx.update(ctx.entity, u.id, u.doc);
        // Event rows: the EPCIS query's headers and identifier rows, in the same transaction (epcis/indexing.ts).
        await indexImported(tx, ctx.entity, plan);
      }
      const counts = addCounts(job.counts, plan, plan.rejected.length);
      await checkpoint(tx, job, first + rows.length, counts, plan.rejected);
      job.counts = counts;
      job.rowsApplied = first + rows.length;
      job.rowsValid -= plan.rejected.length;
      return { plan };
    }));
    return { rejected: plan.rejected };
  } catch (e) {
    // Without a transaction a failed chunk may be half-written: its undo record takes it back.
    if (undoWritten && !store.capabilities.transactions) await undoChunk(store, id);
    throw e;
  }
}

/**
 * Writes a chunk; in valid-only mode a chunk the store refuses (a unique value used twice in
 * the file…) is retried row by row, so only the rows at fault are rejected.
 */
export async function applyChunk(store: Store, ctx: ImportContext, job: Job, rows: readonly Staged[], first: number, mode: ImportMode): Promise<ChunkResult> {
  try {
    return await writeChunk(store, ctx, job, rows, first, mode);
  } catch (e) {
    if (e instanceof ApplyRejected || !isWriteRefusal(e)) throw e;
    if (mode === 'all-or-nothing') throw await whichRow(store, ctx, job, rows, first, e as Error);
    if (rows.length === 1) return rejectRow(store, ctx, job, rows[0], first, e as Error);
    const rejected: RejectedRow[] = [];
    for (let i = 0; i < rows.length; i++) rejected.push(...(await applyChunk(store, ctx, job, [rows[i]], first + i, mode)).rejected);
    return { rejected };
  }
}

function isWriteRefusal(e: unknown): boolean {
  return isStoreError(e, 'DUPLICATE_KEY') || isStoreError(e, 'INVALID_DOCUMENT');
}

/** The row a store refusal was about, as the error file shows it. */
function refused(ctx: ImportContext, row: Staged, e: Error): RejectedRow {
  const fields = isStoreError(e, 'DUPLICATE_KEY') ? e.fields : [];
  const column = fields.length > 0 ? ctx.columnOf(fields[0]) : '';
  const reason = fields.length > 0 ? `another record already has this ${fields.map((f) => ctx.labelOf(f)).join(', ')}` : e.message;
  return rowFailed(row.r, reason, column, fields[0]);
}

class Probed extends Error {}

/**
 * All or nothing: finds which row of a refused chunk the store refuses, by writing the rows
 * one by one in a transaction that is always rolled back, so the rollback can name it.
 */
async function whichRow(store: Store, ctx: ImportContext, job: Job, rows: readonly Staged[], first: number, e: Error): Promise<Error> {
  if (!store.capabilities.transactions) return e;
  let found: RejectedRow | undefined;
  await store.transaction(async (tx) => {
    const scratch = structuredClone(job);
    for (let i = 0; i < rows.length && !found; i++) {
      try {
        await writeChunk(tx, ctx, scratch, [rows[i]], first + i, 'valid-only');
      } catch (err) {
        if (!isWriteRefusal(err)) throw err;
        found = refused(ctx, rows[i], err as Error);
      }
    }
    throw new Probed();
  }).catch((err: unknown) => { if (!(err instanceof Probed)) throw err; });
  return found ? new ApplyRejected([found]) : e;
}

async function rejectRow(store: Store, ctx: ImportContext, job: Job, row: Staged, line: number, e: Error): Promise<ChunkResult> {
  const rejected = [refused(ctx, row, e)];
  await guarded(job, () => inTransaction(store, async (tx) => {
    const counts = { ...job.counts, reject: job.counts.reject + 1 };
    await checkpoint(tx, job, line + 1, counts, rejected);
    job.counts = counts;
    job.rowsApplied = line + 1;
    job.rowsValid -= 1;
  }));
  return { rejected };
}

/** Takes one written chunk back: deletes what it inserted, restores what it updated, drops the record. */
export async function undoChunk(store: Store, undo: string): Promise<void> {
  await inTransaction(store, async (tx) => {
    const doc = await tx.get(UNDO, undo);
    if (!doc) return;
    const coll = doc.coll as string;
    await unindexUndone(tx, coll, doc.inserted as string[], doc.updated as unknown as StoredDoc[]);
    for (const id of doc.inserted as string[]) await tx.delete(coll, id);
    for (const before of doc.updated as unknown as StoredDoc[]) {
      try {
        await tx.update(coll, before.id, before as Doc);
      } catch (e) {
        // Deleted by someone since: the rollback puts it back as it was.
        if (!isStoreError(e, 'NOT_FOUND')) throw e;
        await tx.insert(coll, before as Doc);
      }
    }
    await tx.delete(UNDO, undo);
  });
}

/** Undoes a job's chunks from the last one back, stopping at `fromLine` (0: all of them). */
export async function undoFrom(store: Store, jobId: string, fromLine = 0): Promise<number> {
  let undone = 0;
  for (;;) {
    const docs = await store.find(UNDO, { filter: { job: jobId, line: { $gte: fromLine } }, sort: { line: -1 }, projection: { id: 1 }, limit: 20 });
    if (docs.length === 0) return undone;
    for (const d of docs) {
      await undoChunk(store, d.id);
      undone++;
    }
  }
}
