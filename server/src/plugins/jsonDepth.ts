import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';

/** The deepest nesting of arrays and objects a JSON body may have; no record needs more. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests `[`/`{` deeper than `limit`, counted without recursion and
 * outside strings. It runs before JSON.parse because the recursive code after it (the
 * validators, the store's serialisers) overflows the stack at a few thousand levels.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Every JSON body, on every route, is parsed by Fastify's own parser once its depth is known to be bounded. */
export const jsonDepthPlugin = fp(async (app: FastifyInstance) => {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) return done(new ApiError('JSON_TOO_DEEP', { limit: MAX_JSON_DEPTH }), undefined);
    return parse(request, body as string, done);
  });
});
