import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The API error body (apiError.ts toBody), one shared schema every 4xx answer refers to. */
export const API_ERROR_SCHEMA = {
  $id: 'ApiError',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message'],
            properties: { field: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } },
          },
        },
        params: { type: 'object', additionalProperties: true, description: 'The values the message was written with, to say it in another language.' },
      },
    },
  },
} as const;

type RouteSchema = { hide?: boolean; produces?: readonly string[]; response?: unknown; security?: readonly unknown[] };

const text = { schema: { type: 'string' } };

/**
 * A route's schema as the OpenAPI document shows it, made to say what the route does in one
 * place rather than route by route: every operation answers its 4xx with the error body (and
 * a route that serves pages, `produces: ['text/html']`, may answer them as a page), declares
 * its success answer (in its `produces` types when it is not JSON), and a public route needs
 * no bearer token. Only the document changes: what the route serialises stays as written.
 */
export function documented(schema: RouteSchema | undefined, config: { public?: boolean } | undefined): RouteSchema {
  const s = schema ?? {};
  if (s.hide) return s;
  const response: Record<string, unknown> = { ...((s.response as Record<string, unknown> | undefined) ?? {}) };
  const codes = Object.keys(response);
  if (!codes.some((k) => k.startsWith('2'))) {
    response['2xx'] = s.produces
      ? { description: 'Success', content: Object.fromEntries(s.produces.map((t) => [t, text])) }
      : { description: 'Success' };
  }
  if (!codes.some((k) => k.startsWith('4'))) {
    const page = s.produces?.includes('text/html') ? { 'text/html': text } : {};
    response['4xx'] = { description: 'The request was refused; the body says why.', content: { 'application/json': { schema: { $ref: 'ApiError#' } }, ...page } };
  }
  return { ...s, response, ...(config?.public ? { security: [] } : {}) };
}

/** The shared error body schema, named ApiError in the document's components. */
export const openapiErrorsPlugin = fp(async (app: FastifyInstance) => {
  app.addSchema(API_ERROR_SCHEMA);
});
