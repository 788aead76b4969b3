import { ApiError } from './apiError';

/**
 * What a failure to read a multipart body becomes: our own refusals pass through, anything
 * else (no boundary, cut short, too many parts) is the client's body, so a 400, never a 500.
 */
export function unreadableMultipart(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError('BAD_MULTIPART', { reason: String((e as Error)?.message ?? e).slice(0, 200) });
}
