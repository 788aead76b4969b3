/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit
 * finds the WAL past 1,000 pages, on the thread that commits: the server's main thread. That is
 * a few milliseconds as a rule, but any reader holding one snapshot for long lets the WAL grow
 * (an import's validation once held one for its whole file: 1.35 GB for a million rows), and
 * the commits after it ends copy all of it back while every request waits. A thread with a
 * connection of its own checkpoints instead, a few times a second; a PASSIVE checkpoint never
 * blocks readers or writers. The main connection's automatic checkpoint is off while the thread
 * runs and comes back if the thread stops.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

// Plain JavaScript run as the thread's script: a thread booted through tsx, as the search
// readers are, costs a compile of its sources, and every store a test opens starts one.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const tick = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or locked: next time */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(tick);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopping = false;

  /** `stopped` runs if the thread ends on its own (the caller then checkpoints as SQLite does by default). */
  constructor(file: string, stopped: () => void, intervalMs = 100) {
    this.worker = new Worker(THREAD, { eval: true, workerData: { file, driver: BETTER_SQLITE3, intervalMs } });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => {
        if (!this.stopping) stopped();
        resolve();
      });
    });
    this.worker.on('error', () => undefined); // 'exit' follows
    this.worker.unref();
  }

  /** Ends the thread once its checkpoint in progress is done, closing its connection. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.worker.postMessage('stop');
    const timer = setTimeout(() => void this.worker.terminate(), 2000);
    await this.exited;
    clearTimeout(timer);
  }
}
