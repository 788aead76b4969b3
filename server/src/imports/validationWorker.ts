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
import { EncodingError, TooLargeError } from './source';
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
  | { kind: 'error'; error: { type: 'encoding' | 'too-large' | 'other'; message: string; limit?: number } };

const job = workerData as ValidationJob;
const post = (m: ValidationMessage) => parentPort!.postMessage(m);

async function main(): Promise<void> {
  const store = new SqliteStore({ dataDir: dirname(job.storeFile), readOnly: true });
  try {
    const mapping = mapHeader(columnCatalogue(job.registry, job.entity), job.header);
    const ctx = importContext(job.registry, job.entity, mapping.columns, job.header.length);
    for await (const outcome of validateFile(ctx, store, job.input)) post({ kind: 'batch', outcome });
    post({ kind: 'done' });
  } finally {
    await store.close();
  }
}

main().catch((e: unknown) => {
  const err = e as Error;
  const type = e instanceof EncodingError ? 'encoding' : e instanceof TooLargeError ? 'too-large' : 'other';
  post({ kind: 'error', error: { type, message: String(err?.message ?? e), limit: e instanceof TooLargeError ? e.limit : undefined } });
});
