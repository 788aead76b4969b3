/**
 * Validating a whole file, batch by batch: the records are read from the upload, checked
 * (check.ts), the valid rows of a commit staged (stage.ts), and a dry run's rows planned
 * against the store (plan.ts). It only reads the store; what it found comes out as one
 * outcome per batch, which the runner records in the job. The same generator runs on the
 * runner's thread or, for the embedded store, on a worker thread (validationThread.ts).
 */
import type { Store } from '../store/types';
import { BatchChecker, type RowInput } from './check';
import type { ImportContext } from './context';
import { rejectedJson, rowFailed, type RejectedJson, type RejectedRow } from './jobs';
import { planBatch, readyToStage } from './plan';
import { crashPoint } from './crashPoint';
import { readRecords, TooManyRowsError, type FileFormat } from './source';
import { StageWriter } from './stage';

export interface ValidationInput {
  uploadPath: string;
  format: FileFormat;
  maxContentBytes: number;
  /** Data rows past this fail the job (TooManyRowsError). */
  maxRows: number;
  batchSize: number;
  /** A commit stages its valid rows here; a dry run (no stage) plans them instead. */
  stagePath?: string;
  /** Who the job writes as (the dry run's plan too). */
  actor: string;
  /**
   * Set when the job writes while it validates (a commit on the embedded store): when this
   * validation started (ISO time). What the job writes from then on is hidden from its checks
   * (ownWritesHidden); a job that writes nothing before validation ends needs no filter.
   */
  since?: string;
}

export interface BatchOutcome {
  /** Data rows in the batch (blank lines are not rows). */
  rows: number;
  /** Rows that passed (staged, or planned by a dry run). */
  valid: number;
  /** This batch's rejected rows, in row order, every check's messages merged; as JSON, for the store as it is. */
  rejected: RejectedJson;
  /** A dry run's plan of the batch. */
  insert: number;
  update: number;
  unchanged: number;
  /** Bytes of the upload read so far: the total rows are estimated from it. */
  bytes: number;
  /** The staging file so far: complete lines, and its length in bytes. */
  stagedLines: number;
  stagedBytes: number;
}

/**
 * The store as a job's validation must see it: without the records the job itself inserts
 * meanwhile (created by its user since it started), so that a row is checked against the store
 * as the file found it, never against an earlier row of the same file, as a dry run checks it.
 * Records others write meanwhile are seen, as they would be by validation before writing.
 */
export function ownWritesHidden(store: Pick<Store, 'find'>, entity: string, actor: string, since: string): Pick<Store, 'find'> {
  const own = { createdBy: actor, createdAt: { $gte: since } };
  return {
    find(coll, options = {}) {
      if (coll !== entity) return store.find(coll, options);
      const nor = [own, ...((options.filter?.$nor as object[] | undefined) ?? [])];
      return store.find(coll, { ...options, filter: { ...options.filter, $nor: nor } });
    },
  };
}

export async function* validateFile(ctx: ImportContext, source: Pick<Store, 'find'>, input: ValidationInput): AsyncGenerator<BatchOutcome> {
  const store = input.since === undefined ? source : ownWritesHidden(source, ctx.entity, input.actor, input.since);
  const checker = new BatchChecker(ctx, store);
  const stage = input.stagePath ? await StageWriter.create(input.stagePath) : undefined;
  const progress = { bytes: 0 };
  let record = 0;
  let rows = 0;
  let batch: RowInput[] = [];
  const check = async (): Promise<BatchOutcome> => {
    rows += batch.length;
    if (rows > input.maxRows) throw new TooManyRowsError(input.maxRows);
    const checked = await checker.check(batch);
    const { ready: staged, refused } = readyToStage(ctx, checked.staged, stage !== undefined);
    const rejected = refused.length === 0 ? checked.rejected : [...checked.rejected, ...refused.map((r) => rowFailed(r.row, r.reason))].sort((a, b) => a.row - b.row);
    await stage?.append(staged);
    const out: BatchOutcome = {
      rows: batch.length, valid: staged.length, rejected: rejectedJson(rejected), insert: 0, update: 0, unchanged: 0,
      bytes: progress.bytes, stagedLines: stage?.lines ?? 0, stagedBytes: stage?.bytes ?? 0,
    };
    if (!stage) {
      const plan = await planBatch(store, ctx, staged, input.actor, new Date().toISOString(), true);
      out.insert = plan.inserts.length;
      out.update = plan.updates.length;
      out.unchanged = plan.unchanged;
      out.valid -= plan.rejected.length;
      out.rejected = rejectedJson([...rejected, ...plan.rejected].sort((a, b) => a.row - b.row));
    }
    batch = [];
    return out;
  };
  try {
    for await (const chunk of readRecords(input.uploadPath, input.format, input.maxContentBytes, progress)) {
      for (let i = 0; i < chunk.rows.length; i++) {
        const cells = chunk.rows[i];
        record++;
        if (record === 1 || BatchChecker.isBlank(cells)) continue; // the header; blank lines
        batch.push({ row: record, cells, broken: chunk.broken.get(i) });
        // A parser chunk of short rows holds thousands: a batch stays small, so do its rejections.
        if (batch.length >= input.batchSize) yield await check();
      }
    }
    const last = batch.length > 0 ? await check() : undefined;
    // Synced before the last outcome: a job only moves on to writing with every row on disk.
    await stage?.close();
    if (stage) crashPoint('staged');
    if (last) yield last;
  } catch (e) {
    if (input.stagePath) await stage?.discard(input.stagePath);
    throw e;
  }
}
