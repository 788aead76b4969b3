/**
 * The EPCIS REST binding answers errors as RFC 7807 problems typed by the standard's exceptions
 * (`epcisException:ValidationException`, `QueryParameterException`, `CaptureLimitExceededException`…).
 * The API answers every error with its own body (`{error: {code, message, details}}`, one schema
 * the OpenAPI document shares); on the EPCIS routes that body also carries the problem's fields,
 * so a standard client and the platform's own read the same answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const TITLES: Record<string, string> = {
  ValidationException: 'The EPCIS document is not valid',
  QueryParameterException: 'A query parameter is not valid',
  CaptureLimitExceededException: 'Capture payload too large',
  SecurityException: 'Not allowed',
  NoSuchResourceException: 'No such resource',
  ImplementationException: 'The repository failed',
};

function exceptionOf(request: FastifyRequest, status: number, code: string): string {
  const capture = request.routeOptions.url?.startsWith('/api/epcis/capture') ?? false;
  if (status === 401 || status === 403) return 'SecurityException';
  if (status === 404) return 'NoSuchResourceException';
  if (status === 413) return capture ? 'CaptureLimitExceededException' : 'QueryTooLargeException';
  if (status >= 500) return 'ImplementationException';
  if (!capture && request.method === 'GET' && request.routeOptions.url === '/api/epcis/events' && code !== 'WAREHOUSE_NOT_YOURS') return 'QueryParameterException';
  return 'ValidationException';
}

/** Adds the problem fields to every error body the plugin's routes send. */
export function withProblemDetails(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{"error"')) return payload;
    const body = JSON.parse(payload) as { error?: { code?: string; message?: string } };
    const exception = exceptionOf(request, reply.statusCode, String(body.error?.code ?? ''));
    return JSON.stringify({
      type: `epcisException:${exception}`, title: TITLES[exception] ?? 'The query is too large', status: reply.statusCode, detail: body.error?.message ?? '', ...body,
    });
  });
}
