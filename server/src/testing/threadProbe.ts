/**
 * A thread module for threads.test.ts: answers what it finds from its own place (a sibling's URL,
 * through import.meta.url) and from an imported TypeScript module, and whether tsx's loader is
 * there (a thread booted through tsx has it; one started from its bundle has no loader at all).
 */
import { parentPort } from 'node:worker_threads';
import { EXPORT_PAGE_SIZE } from '../masterdata/exportCsv';

parentPort?.postMessage({
  sibling: new URL('./harness.ts', import.meta.url).href,
  imported: EXPORT_PAGE_SIZE,
  url: import.meta.url,
});
