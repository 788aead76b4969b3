/**
 * The report threads' heaps (exports, the reader; threads.ts starts them), and how a thread's
 * death by its heap is told.
 */

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

/** Whether a thread's error is its heap running out (resourceLimits). */
export function outOfMemory(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
