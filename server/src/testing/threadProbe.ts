/**
 * A thread module for threads.test.ts: answers what it finds from its own place (a sibling's URL,
 * through import.meta.url), from an imported TypeScript module, and the options it runs with.
 */
import { parentPort } from 'node:worker_threads';
import { EXPORT_PAGE_SIZE } from '../masterdata/exportCsv';

parentPort?.postMessage({
  sibling: new URL('./harness.ts', import.meta.url).href,
  imported: EXPORT_PAGE_SIZE,
  url: import.meta.url,
  execArgv: process.execArgv,
});
