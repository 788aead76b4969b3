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

/** The success answer of a route that declares none (a CSV, a file, a stream). */
const SUCCESS = { description: 'Success' };
/** Every refusal: 400, 401, 403, 404, 405, 409, 413, 415, 429, with the error body. */
const REFUSED = { $ref: 'ApiError#', description: 'The request was refused; the body says why.' };

type RouteSchema = { hide?: boolean; response?: Record<string, unknown>; security?: unknown[] };

/**
 * A route's schema as the OpenAPI document shows it, made to say what the route does in one
 * place rather than route by route: every operation answers its 4xx with the error body, and
 * a public route needs no bearer token. Only the document changes: the route's own schema
 * (and so what it serialises) stays as written.
 */
export function documented(schema: RouteSchema | undefined, config: { public?: boolean } | undefined): RouteSchema {
  const s = schema ?? {};
  if (s.hide) return s;
  const response = { ...(s.response ?? {}) };
  const codes = Object.keys(response);
  if (!codes.some((k) => k.startsWith('2'))) response['2xx'] = SUCCESS;
  if (!codes.some((k) => k.startsWith('4'))) response['4xx'] = REFUSED;
  return { ...s, response, ...(config?.public ? { security: [] } : {}) };
}

/** The shared error body schema, named ApiError in the document's components. */
export const openapiErrorsPlugin = fp(async (app: FastifyInstance) => {
  app.addSchema(API_ERROR_SCHEMA);
});
