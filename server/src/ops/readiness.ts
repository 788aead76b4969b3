/**
 * What "ready" means for this server: the store answers and the background workers are alive.
 * Capabilities add their own checks (app.readiness.register) when they start a worker.
 */

/** A check passes by resolving; it fails by throwing (its message is the reason) or by returning a reason. */
export type ReadinessCheck = () => void | string | Promise<void | string>;

export interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  reason?: string;
}

/** Longer than this and the check counts as failed: a probe must answer in time. */
export const CHECK_TIMEOUT_MS = 2000;

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  /** Returns what removes the check (a worker that stops on purpose). */
  register(name: string, check: ReadinessCheck): () => void {
    if (this.checks.has(name)) throw new Error(`readiness check "${name}" is registered twice`);
    this.checks.set(name, check);
    return () => { this.checks.delete(name); };
  }

  get names(): string[] {
    return [...this.checks.keys()];
  }

  async run(timeoutMs = CHECK_TIMEOUT_MS): Promise<{ ready: boolean; checks: CheckResult[] }> {
    const checks = await Promise.all([...this.checks].map(([name, check]) => runOne(name, check, timeoutMs)));
    return { ready: checks.every((c) => c.ok), checks };
  }
}

async function runOne(name: string, check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => { timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs); });
  try {
    const reason = await Promise.race([Promise.resolve().then(check), late]);
    const ms = Math.round(performance.now() - started);
    return typeof reason === 'string' ? { name, ok: false, ms, reason: reason.slice(0, 200) } : { name, ok: true, ms };
  } catch (e) {
    return { name, ok: false, ms: Math.round(performance.now() - started), reason: (e instanceof Error ? e.message : String(e)).slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}
