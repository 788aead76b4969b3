import type { ErrorDetail } from '../../../engine/src/contract';

export type { ErrorDetail };

/** A failed API call: the server's error body `{error: {code, message, details, params}}`, or a network failure (status 0). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  /** The values the server's message was written with, to say it in another language. */
  readonly params: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = [], params: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.params = params;
  }
}

/** Reads an error body whatever its shape; a body without a message falls back to the status text. */
export async function errorFromResponse(res: Response): Promise<ApiRequestError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; params?: unknown } } | undefined)?.error;
  const code = typeof err?.code === 'string' ? err.code : `HTTP_${res.status}`;
  const message = typeof err?.message === 'string' && err.message ? err.message : res.statusText || `HTTP ${res.status}`;
  const details = Array.isArray(err?.details) ? (err.details as ErrorDetail[]) : [];
  const params = typeof err?.params === 'object' && err.params !== null && !Array.isArray(err.params) ? (err.params as Record<string, unknown>) : {};
  return new ApiRequestError(res.status, code, message, details, params);
}
