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

/**
 * An export thread's heap: the reader's, with twice its young generation. An export makes
 * short-lived objects at a steady rate (each document parsed, its lines, its row, its CSV
 * line); with 16 MB they were collected so often that rows still in flight were copied and
 * promoted, and a warm thread spent 25-30% more CPU on the same export than the same code
 * in-process (1.55 s against 1.25 s for 76,050 shipments; with 32 MB, 1.24-1.32 s). 48 MB
 * saved nothing more. It costs about 11 MB of RSS while the thread lives.
 */
export const EXPORT_THREAD_HEAP = { ...REPORT_THREAD_HEAP, maxYoungGenerationSizeMb: 32 };

/** Starts `module` (a URL beside this file) on a worker thread. */
export function reportThread(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const url = JSON.stringify(module.href);
  return new Worker(`import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${url}, ${url}))`, { ...options, eval: true });
}

/** Whether a thread's error is its heap running out (resourceLimits). */
export function outOfMemory(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
