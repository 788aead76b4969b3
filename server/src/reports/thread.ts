/**
 * The report threads (exports, the reader): a worker running one of these TypeScript modules.
 * Sources run through tsx and a worker does not inherit its loader (as imports/validationThread.ts),
 * so the thread boots by importing the module through tsx's API.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');

/**
 * A report thread's heap: what a page or an export may hold at once (a `$group` over a whole
 * source is held whole by mingo). Past it only that thread dies, never the server.
 */
export const REPORT_THREAD_HEAP = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };

/** Starts `module` (a URL beside this file) on a worker thread. */
export function reportThread(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const url = JSON.stringify(module.href);
  return new Worker(`import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${url}, ${url}))`, { ...options, eval: true });
}

/** Whether a thread's error is its heap running out (resourceLimits). */
export function outOfMemory(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
