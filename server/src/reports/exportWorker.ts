/**
 * Report exports on a worker thread (started by exports.ts), one job at a time: its own store (a read-only
 * connection holding one snapshot on the embedded store, its own client on MongoDB), the rows
 * streamed from the store's cursor into CSV lines in a temporary file. The main thread never
 * sees a row: it gets the total, progress every ~250 ms, and the end.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parentPort } from 'node:worker_threads';
import type { Registry } from '../../../engine/src/index';
import { csvCell, csvLine } from '../masterdata/exportCsv';
import { SqliteStore } from '../store/sqlite';
import type { Filter, Store } from '../store/types';
import { cellReader, reportColumns, reportHeader, reportPlan, type ReportQuery } from '../../../engine/src/index';
import { planTotal } from './total';

/** Where the worker finds the server's store. */
export type StoreTarget = { dataDir: string } | { mongodbUri: string; dbName: string };

export interface ExportWork {
  registry: Registry;
  report: string;
  query: ReportQuery;
  scope?: Filter;
  lang: 'en' | 'es' | 'fr';
  target: StoreTarget;
  /** The temporary file written; the main thread renames it when done. */
  file: string;
}

export type ExportMessage =
  | { kind: 'total'; total: number }
  | { kind: 'progress'; rows: number }
  | { kind: 'done'; rows: number }
  | { kind: 'error'; message: string };

const PROGRESS_MS = 250;
/**
 * Rows per cursor batch: on the embedded store enough to write in large chunks and few enough to
 * die young (see LOOKUP_BATCH in sqlite-aggregate.ts); on MongoDB a batch is a round trip.
 */
const BATCH = { embedded: 250, mongodb: 1000 };

async function open(target: StoreTarget): Promise<Store> {
  if ('dataDir' in target) {
    const store = new SqliteStore({ dataDir: target.dataDir, readOnly: true });
    store.holdSnapshot();
    return store;
  }
  // Loaded only for MongoDB: the driver adds a quarter of a second to every embedded export's start.
  const { MongoStore } = await import('../store/mongo');
  return MongoStore.connect({ uri: target.mongodbUri, dbName: target.dbName });
}

async function main(job: ExportWork, post: (m: ExportMessage) => void): Promise<void> {
  const store = await open(job.target);
  try {
    await writeExport(store, job, post);
  } finally {
    await store.close();
  }
}

/**
 * The export itself on an open store: the CSV of `job` written to `job.file`. Exported so a
 * bench can run it in-process (scripts/bench/reportsExport.ts) and profile it.
 */
export async function writeExport(store: Store, job: Omit<ExportWork, 'target'>, post: (m: ExportMessage) => void): Promise<void> {
  const def = job.registry.reports[job.report];
  const plan = reportPlan(job.registry, def, job.query, job.scope);
  post({ kind: 'total', total: await planTotal(store, plan) });
  const cols = reportColumns(job.registry, def, job.lang);
  const out = createWriteStream(job.file);
  const closed = once(out, 'close');
  out.write(csvLine(reportHeader(cols)));
  // One day for the whole file: an age column does not change at midnight half way through.
  const today = new Date().toISOString().slice(0, 10);
  const cells = cols.map((c) => cellReader(c, today));
  // A row's line as csvLine makes it from the cells' texts, without a list of them per row: at
  // 37,291 stock rows the lists and their joining cost four times what the cells' texts did.
  const line = (row: Record<string, unknown>): string => {
    let text = '';
    for (let i = 0; i < cells.length; i++) text += i === 0 ? csvCell(cells[i](row)) : `,${csvCell(cells[i](row))}`;
    return `${text}\r\n`;
  };
  let rows = 0;
  let last = Date.now();
  // The embedded store's $group by id keeps its input's order: its export needs no second sort.
  const pipeline = store.kind === 'embedded' ? plan.allInOrder : plan.all;
  for await (const batch of store.aggregateCursor(plan.collection, pipeline, { batchSize: BATCH[store.kind] })) {
    let chunk = '';
    for (const row of batch) chunk += line(row);
    if (!out.write(chunk)) await once(out, 'drain');
    rows += batch.length;
    if (Date.now() - last >= PROGRESS_MS) {
      last = Date.now();
      post({ kind: 'progress', rows });
    }
  }
  out.end();
  await closed;
  post({ kind: 'done', rows });
}

// One job at a time: the thread is handed the next only after it said done or error (exports.ts
// keeps a finished thread for the next export, so an export does not wait for a thread to boot).
if (parentPort) {
  const port = parentPort;
  const post = (m: ExportMessage) => port.postMessage(m);
  port.on('message', (job: ExportWork) => {
    main(job, post).catch((e: unknown) => post({ kind: 'error', message: e instanceof Error ? e.message : String(e) }));
  });
}
