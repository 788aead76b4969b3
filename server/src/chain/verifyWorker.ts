/** One part of a chain walked on a thread of its own, over its own read-only connection (verify.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from '../store/sqlite';
import { walkSlice } from './walk';

const job = workerData as { dataDir: string; account: string; fromSeq: number; toSeq: number };
const store = new SqliteStore({ dataDir: job.dataDir, readOnly: true });
try {
  parentPort!.postMessage({ result: await walkSlice(store, job.account, job.fromSeq, job.toSeq) });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
} finally {
  await store.close();
}
