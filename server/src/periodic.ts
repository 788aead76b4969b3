import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `pass` now and every `intervalMs` in the background, one pass at a time: the timer does
 * not keep the process alive, and `stop` waits for a pass under way, so the store is not closed
 * under it. `pass` handles its own errors.
 */
export function startPeriodic(pass: () => Promise<void>, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped) return;
    running = running.then(() => (stopped ? undefined : pass()));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  setImmediate(run);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** An alert pass (alertPass.ts) run periodically: how many it raised and its failures go to the log, named by `what`. */
export function startAlertJob(log: FastifyBaseLogger, intervalMs: number, what: string, raise: (now: Date) => Promise<number>): { stop(): Promise<void> } {
  return startPeriodic(async () => {
    try {
      const raised = await raise(new Date());
      if (raised > 0) log.info({ raised }, `${what} alerts raised`);
    } catch (e) {
      log.error({ err: e }, `${what} alert pass failed`);
    }
  }, intervalMs);
}
