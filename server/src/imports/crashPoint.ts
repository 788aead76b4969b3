/**
 * TEST ONLY. The crash test (crash.test.ts) stops the server at each step of an import with
 * IMPORT_CRASH_AT=<boundary>[:n]: the n-th time (default the first) a job of this process
 * reaches the boundary, the process kills itself with SIGKILL, as a power cut would. Never set
 * it on a real server. Unset, a boundary costs one comparison; none is inside a row loop.
 */
export type Boundary =
  /** The staging file is complete and synced (validation thread). */
  | 'staged'
  /** Validation's final counts are saved; the job still says validating. */
  | 'validated'
  /** The job says applying. */
  | 'applying'
  /** A chunk of staged rows is written with its undo record and checkpoint. */
  | 'chunk'
  /** Every chunk is written; the job does not say succeeded yet. */
  | 'written'
  /** The job says succeeded; its undo records and staging file are still there. */
  | 'marked'
  /** The undo records are deleted; the staging file is still there. */
  | 'undo-cleared'
  /** The staging file is removed too: the job is over. */
  | 'unstaged';

const [at, nth] = (process.env.IMPORT_CRASH_AT ?? '').split(':');
const count = Number(nth || 1);
let reached = 0;

export function crashPoint(boundary: Boundary): void {
  if (boundary !== at) return;
  reached++;
  if (reached === count) process.kill(process.pid, 'SIGKILL');
}
