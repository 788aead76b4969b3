import type { AttemptLimit } from '../config';
import type { Clock } from './sessions';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Failed attempts per key (an e-mail or a client address) in a fixed window.
 *
 * Kept in process memory on purpose: the check and the count happen in one synchronous step,
 * so a burst of parallel guesses cannot all slip past a limit the way a read-then-write
 * against the store would let them; and it costs no store write per attempt. The price:
 * counters restart with the process and each server instance counts on its own
 * (docs/identity.md).
 */
export class AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly limit: AttemptLimit, private readonly now: Clock, private readonly maxKeys = 100_000) {}

  /** Seconds until the key may try again; 0 when it may now. */
  blockedFor(key: string): number {
    const w = this.live(key);
    if (!w || w.count < this.limit.max) return 0;
    return Math.max(1, Math.ceil((w.resetAt - this.now()) / 1000));
  }

  add(key: string): void {
    const w = this.live(key);
    if (w) w.count += 1;
    else {
      this.makeRoom();
      this.windows.set(key, { count: 1, resetAt: this.now() + this.limit.windowMs });
    }
  }

  /** Takes back one attempt that turned out to be a success. */
  remove(key: string): void {
    const w = this.live(key);
    if (w && w.count > 0) w.count -= 1;
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Bounded memory whatever keys an attacker invents: expired windows go first, then the oldest. */
  private makeRoom(): void {
    if (this.windows.size < this.maxKeys) return;
    const now = this.now();
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}

/**
 * Checks every (counter, key) pair and counts one attempt on each, in one synchronous step.
 * Returns the seconds to wait when any pair is over its limit (nothing is counted then).
 */
export function takeAttempt(pairs: readonly (readonly [AttemptCounter, string])[]): number {
  const wait = Math.max(0, ...pairs.map(([c, k]) => c.blockedFor(k)));
  if (wait > 0) return wait;
  for (const [c, k] of pairs) c.add(k);
  return 0;
}
