/**
 * The validation of one import on a worker thread (see validationThread.ts): its own
 * read-only connection to the embedded store. What the main thread writes of the same file
 * meanwhile is hidden from the checks by ownWritesHidden (validation.ts), not by holding one
 * read snapshot for the whole file: that kept SQLite from copying the WAL back for as long
 * (1.3 GB of WAL for a million rows, copied back afterwards while the import still wrote).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { dirname } from 'node:path';
import type { Registry } from '../../../engine/src/index';
import { SqliteStore } from '../store/sqlite';
import { columnCatalogue, mapHeader } from './columns';
import { importContext } from './context';
import { EncodingError, TooLargeError, TooManyRowsError } from './source';
import { validateFile, type BatchOutcome, type ValidationInput } from './validation';

export interface ValidationJob {
  registry: Registry;
  entity: string;
  header: string[];
  storeFile: string;
  input: ValidationInput;
}

export type ValidationMessage =
  | { kind: 'batch'; outcome: BatchOutcome }
  | { kind: 'done' }
  | { kind: 'error'; error: { type: 'encoding' | 'too-large' | 'too-many-rows' | 'other'; message: string; limit?: number } };

const job = workerData as ValidationJob;
const post = (m: ValidationMessage) => parentPort!.postMessage(m);

/**
 * Outcomes the thread may post before the main thread has recorded them. Without a bound, a
 * file of rejected rows (checked faster than their messages are saved) piled its outcomes up
 * in the main thread until the server ran out of heap. 8 batches keep the thread busy while
 * the main thread writes a chunk.
 */
const OUTCOMES_AHEAD = 8;
/** Outcomes posted and not yet recorded by the main thread (it answers each one it has). */
let ahead = 0;
let recorded: (() => void) | null = null;
parentPort!.on('message', () => {
  ahead--;
  recorded?.();
});

async function postOutcome(outcome: BatchOutcome): Promise<void> {
  post({ kind: 'batch', outcome });
  ahead++;
  while (ahead >= OUTCOMES_AHEAD) await new Promise<void>((r) => { recorded = r; });
  recorded = null;
}

async function main(): Promise<void> {
  const store = new SqliteStore({ dataDir: dirname(job.storeFile), readOnly: true });
  try {
    const mapping = mapHeader(columnCatalogue(job.registry, job.entity), job.header);
    const ctx = importContext(job.registry, job.entity, mapping.columns, job.header.length);
    for await (const outcome of validateFile(ctx, store, job.input)) await postOutcome(outcome);
    post({ kind: 'done' });
  } finally {
    await store.close();
  }
}

main().catch((e: unknown) => {
  const err = e as Error;
  const type = e instanceof EncodingError ? 'encoding' : e instanceof TooLargeError ? 'too-large' : e instanceof TooManyRowsError ? 'too-many-rows' : 'other';
  const limit = e instanceof TooLargeError || e instanceof TooManyRowsError ? e.limit : undefined;
  post({ kind: 'error', error: { type, message: String(err?.message ?? e), limit } });
});
