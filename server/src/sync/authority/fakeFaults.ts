/**
 * The fake authority's faults on demand: one mode at a time, optionally for a number of calls
 * only (`times`), after which it is up again. Seeded, so a failing run can be replayed.
 */
import { rng } from '../../../../engine/src/random';

export const FAULT_MODES = ['up', 'down', 'error5xx', 'slow', 'flap', 'dropAfterCommit', 'reject', 'transientRate', 'throttle'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultOptions {
  /** slow: how long each call waits before it is handled (default 2000). */
  delayMs?: number;
  /** error5xx: the status answered (500–599, default 500). */
  status?: number;
  /** reject: the refusal's reason and code (default "rejected by the authority" / "rejected"). */
  reason?: string;
  code?: string;
  /** transientRate: the fraction of calls answered 503 (0–1, default 0.05). */
  rate?: number;
  /** transientRate: the seed of the generator that picks them (default 1). */
  seed?: number;
  /** throttle: the Retry-After (seconds) sent with each 429 (default 1). */
  retryAfterS?: number;
  /** Fault only the next `times` affected calls, then be up again (default: until told otherwise). */
  times?: number;
}

export interface FaultSettings extends FaultOptions {
  mode: FaultMode;
}

/** What the server does with one API call. */
export type Verdict =
  | { action: 'reset' }
  | { action: 'fail'; status: number; code: string; reason: string; retryAfterS?: number }
  | { action: 'refuse'; code: string; reason: string }
  | { action: 'dropAfterCommit' }
  /** delayMs: slow, wait that long first (the call is then handled, commit included, whether or not the caller still waits). */
  | { action: 'handle'; delayMs?: number };

/** Checks settings sent over the control API; returns what is wrong, or the settings with defaults. */
export function parseFault(input: unknown): FaultSettings | string {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return 'send a JSON object {mode, …options}';
  const s = input as Record<string, unknown>;
  if (!FAULT_MODES.includes(s.mode as FaultMode)) return `mode must be one of ${FAULT_MODES.join(', ')}`;
  const num = (name: string, min: number, max: number, integer = true): string | undefined => {
    const v = s[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) return `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`;
    return undefined;
  };
  const wrong = num('delayMs', 0, 600_000) ?? num('status', 500, 599) ?? num('rate', 0, 1, false) ?? num('seed', 0, 2 ** 32 - 1) ?? num('times', 1, 1_000_000_000) ?? num('retryAfterS', 0, 86_400);
  if (wrong) return wrong;
  for (const f of ['reason', 'code']) if (s[f] !== undefined && (typeof s[f] !== 'string' || s[f] === '')) return `${f} must be text`;
  const out: FaultSettings = { mode: s.mode as FaultMode };
  for (const f of ['delayMs', 'status', 'reason', 'code', 'rate', 'seed', 'times', 'retryAfterS'] as const) if (s[f] !== undefined) (out as unknown as Record<string, unknown>)[f] = s[f];
  return out;
}

export class Faults {
  private settings: FaultSettings = { mode: 'up' };
  private left = Infinity;
  private flapCount = 0;
  private random = rng(1);

  set(settings: FaultSettings): void {
    this.settings = { ...settings };
    this.left = settings.times ?? Infinity;
    this.flapCount = 0;
    this.random = rng(settings.seed ?? 1);
  }

  get(): FaultSettings {
    return { ...this.settings };
  }

  /** Counts one affected call against `times`; the last one brings the service back up. */
  private spend(): void {
    if (--this.left <= 0) this.set({ mode: 'up' });
  }

  /**
   * The verdict for one call before it is handled; `write` tells declare/confirm/reject from a
   * query (only writes commit, so only they are refused or dropped after commit).
   */
  before(write: boolean): Verdict {
    const s = this.settings;
    switch (s.mode) {
      case 'down':
        this.spend();
        return { action: 'reset' };
      case 'error5xx':
        this.spend();
        return { action: 'fail', status: s.status ?? 500, code: 'internal_error', reason: 'the authority failed' };
      case 'throttle':
        this.spend();
        return { action: 'fail', status: 429, code: 'too_many_requests', reason: 'slow down', retryAfterS: s.retryAfterS ?? 1 };
      case 'flap':
        // The first call after flap is set fails, then every other one.
        if (this.flapCount++ % 2 === 1) return { action: 'handle' };
        this.spend();
        return { action: 'fail', status: 503, code: 'unavailable', reason: 'the authority is flapping' };
      case 'transientRate':
        if (this.random() >= (s.rate ?? 0.05)) return { action: 'handle' };
        this.spend();
        return { action: 'fail', status: 503, code: 'unavailable', reason: 'the authority is briefly unavailable' };
      case 'slow':
        this.spend();
        return { action: 'handle', delayMs: s.delayMs ?? 2000 };
      case 'reject':
        if (!write) return { action: 'handle' };
        return { action: 'refuse', code: s.code ?? 'rejected', reason: s.reason ?? 'rejected by the authority' };
      case 'dropAfterCommit':
        return write ? { action: 'dropAfterCommit' } : { action: 'handle' };
      default:
        return { action: 'handle' };
    }
  }

  /** reject and dropAfterCommit count a call only when it reached the point they act on. */
  spent(): void {
    if (this.settings.mode === 'reject' || this.settings.mode === 'dropAfterCommit') this.spend();
  }
}
