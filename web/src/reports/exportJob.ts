import { pollDelay } from '../imports/logic';

/** An export job as GET /api/v3/reports/exports/:id answers it (CONTRACT17 §4). */
export interface ExportJob {
  id: string;
  report?: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  rows?: number;
  total?: number | null;
  /** 0..1 */
  progress?: number;
  fileName?: string;
  createdAt?: string;
  finishedAt?: string | null;
  error?: string;
}

/**
 * The Export CSV button's life: idle → starting (POST) → polling the job (queued, running)
 * → done (the download link) or failed (the reason); a lost poll is retried, a refused one
 * (the job is gone, forbidden) ends it.
 */
export type ExportState =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'polling'; job: ExportJob; attempt: number; retryError?: string }
  | { phase: 'done'; job: ExportJob }
  | { phase: 'failed'; job?: ExportJob; error: string };

export type ExportEvent =
  | { type: 'start' }
  | { type: 'accepted'; job: ExportJob }
  | { type: 'polled'; job: ExportJob }
  /** `retry`: the connection was lost or the server failed (asked again); otherwise the job cannot be followed. */
  | { type: 'pollFailed'; error: string; retry: boolean }
  | { type: 'startFailed'; error: string }
  | { type: 'reset' };

export const IDLE: ExportState = { phase: 'idle' };
export const RETRY_MS = 2000;

function settle(job: ExportJob, attempt: number): ExportState {
  if (job.status === 'done') return { phase: 'done', job };
  if (job.status === 'failed') return { phase: 'failed', job, error: job.error ?? '' };
  return { phase: 'polling', job, attempt };
}

export function exportStep(s: ExportState, e: ExportEvent): ExportState {
  switch (e.type) {
    case 'start': return s.phase === 'starting' || s.phase === 'polling' ? s : { phase: 'starting' };
    case 'startFailed': return s.phase === 'starting' ? { phase: 'failed', error: e.error } : s;
    case 'accepted': return s.phase === 'starting' ? settle(e.job, 0) : s;
    // A poll answering after the user moved on (reset, a new export) changes nothing.
    case 'polled': return s.phase === 'polling' && s.job.id === e.job.id ? settle({ ...s.job, ...e.job }, s.attempt + 1) : s;
    case 'pollFailed':
      if (s.phase !== 'polling') return s;
      return e.retry ? { ...s, attempt: s.attempt + 1, retryError: e.error } : { phase: 'failed', job: s.job, error: e.error };
    case 'reset': return s.phase === 'starting' || s.phase === 'polling' ? s : IDLE;
  }
}

/** How long to wait before the next poll: quickly at first, then every second; after a lost poll a little longer; null when not polling. */
export function nextPollDelay(s: ExportState): number | null {
  if (s.phase !== 'polling') return null;
  return s.retryError ? RETRY_MS : pollDelay(s.attempt);
}

/** The share done, 0..100, for the progress bar (the rows against the total when the server gave no share). */
export function progressPercent(job: ExportJob): number {
  const share = typeof job.progress === 'number' ? job.progress : job.total ? (job.rows ?? 0) / job.total : 0;
  return Math.max(0, Math.min(100, Math.round(share * 100)));
}
