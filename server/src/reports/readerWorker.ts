/**
 * The report reader thread (started by reader.ts): a read-only connection to the server's
 * embedded store running one pipeline at a time. No snapshot is held between requests: each
 * aggregate is its own read and sees what was committed before it started.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from '../store/sqlite';
import { isStoreError, type Doc, type Pipeline } from '../store/types';

export interface ReaderRequest { id: number; collection: string; pipeline: Pipeline }
/** A failure keeps the store's error code, so the server answers as it would have itself. */
export type ReaderAnswer = { id: number; rows: Doc[] } | { id: number; error: { message: string; code?: string } };
/** Sent when the thread takes a request up: its time limit counts from then, not from the thread's start. */
export interface ReaderStarted { id: number; started: true }

if (parentPort) {
  const port = parentPort;
  const store = new SqliteStore({ dataDir: (workerData as { dataDir: string }).dataDir, readOnly: true });
  port.on('message', (m: ReaderRequest) => {
    port.postMessage({ id: m.id, started: true } satisfies ReaderStarted);
    store.aggregate(m.collection, m.pipeline).then(
      (rows) => port.postMessage({ id: m.id, rows } satisfies ReaderAnswer),
      (e: unknown) => port.postMessage({
        id: m.id,
        error: { message: e instanceof Error ? e.message : String(e), ...(isStoreError(e) ? { code: e.code } : {}) },
      } satisfies ReaderAnswer),
    );
  });
}
