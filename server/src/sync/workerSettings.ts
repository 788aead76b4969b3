/**
 * The sync worker's settings from the environment (docs/authority.md, "The outbox"):
 * SYNC_WORKER ("off" disables it), SYNC_LEASE_MS, SYNC_POLL_MS, SYNC_CONCURRENCY,
 * SYNC_BACKOFF_BASE_MS, SYNC_BACKOFF_MAX_MS, SYNC_ALERT_INTERVAL_MS (how often deadlines are looked at).
 */
import { int } from '../config';
import { DEADLINE_INTERVAL_MS } from './deadlines';

export interface SyncWorkerConfig {
  enabled: boolean;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How often the due-soon and overdue alerts are raised. */
  alertIntervalMs: number;
}

export function readSyncWorkerConfig(env: NodeJS.ProcessEnv): SyncWorkerConfig {
  const value = env.SYNC_WORKER ?? '';
  if (!['', 'on', 'off'].includes(value)) throw new Error(`SYNC_WORKER must be "on" or "off", got "${value}"`);
  const positive = (name: string, fallback: number) => {
    const n = int(env[name], fallback, name);
    if (n < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
    return n;
  };
  const cfg = {
    enabled: value !== 'off',
    leaseMs: positive('SYNC_LEASE_MS', 60_000),
    pollMs: positive('SYNC_POLL_MS', 1_000),
    concurrency: positive('SYNC_CONCURRENCY', 16),
    baseDelayMs: positive('SYNC_BACKOFF_BASE_MS', 1_000),
    maxDelayMs: positive('SYNC_BACKOFF_MAX_MS', 300_000),
    alertIntervalMs: positive('SYNC_ALERT_INTERVAL_MS', DEADLINE_INTERVAL_MS),
  };
  if (cfg.maxDelayMs < cfg.baseDelayMs) throw new Error(`SYNC_BACKOFF_MAX_MS (${cfg.maxDelayMs}) must not be below SYNC_BACKOFF_BASE_MS (${cfg.baseDelayMs})`);
  return cfg;
}
