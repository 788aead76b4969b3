import { describe, expect, it } from 'vitest';
import { readSyncWorkerConfig } from './workerSettings';

describe('the sync worker settings', () => {
  it('are on with their defaults, off with SYNC_WORKER=off, and refuse what is not a setting', () => {
    expect(readSyncWorkerConfig({})).toEqual({ enabled: true, leaseMs: 60_000, pollMs: 1_000, concurrency: 16, baseDelayMs: 1_000, maxDelayMs: 300_000, alertIntervalMs: 60_000 });
    expect(readSyncWorkerConfig({ SYNC_WORKER: 'off', SYNC_LEASE_MS: '5000' })).toMatchObject({ enabled: false, leaseMs: 5_000 });
    expect(readSyncWorkerConfig({ SYNC_ALERT_INTERVAL_MS: '2000' }).alertIntervalMs).toBe(2_000);
    expect(() => readSyncWorkerConfig({ SYNC_WORKER: 'no' })).toThrow('SYNC_WORKER must be "on" or "off", got "no"');
    expect(() => readSyncWorkerConfig({ SYNC_CONCURRENCY: '0' })).toThrow('SYNC_CONCURRENCY must be at least 1');
    expect(() => readSyncWorkerConfig({ SYNC_POLL_MS: '1.5' })).toThrow('SYNC_POLL_MS must be a whole number');
    expect(() => readSyncWorkerConfig({ SYNC_BACKOFF_BASE_MS: '5000', SYNC_BACKOFF_MAX_MS: '100' })).toThrow('SYNC_BACKOFF_MAX_MS (100) must not be below SYNC_BACKOFF_BASE_MS (5000)');
  });
});
