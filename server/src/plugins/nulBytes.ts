import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';

/**
 * Where a NUL character hides in a request value (a key or a string at any depth), named as
 * `querystring.q` or `body.address.city`; undefined when there is none. Walks with its own
 * stack: the body's depth is bounded already, but this must not be the thing that overflows.
 */
export function nulAt(root: unknown, prefix: string): string | undefined {
  const stack: [unknown, string][] = [[root, prefix]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, `${path}.${i}`]));
    } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
      for (const [k, v] of Object.entries(value)) {
        const at = `${path}.${k.replace(/\0/g, '\\0').slice(0, 60)}`;
        if (k.includes('\0')) return at;
        stack.push([v, at]);
      }
    }
  }
  return undefined;
}

/**
 * No string with a NUL character reaches a route: neither store takes one safely in a search,
 * and no field needs one. Refused at the boundary, for the query, path and body of every route.
 */
export const nulBytesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [['querystring', request.query], ['params', request.params], ['body', request.body]] as const) {
      const at = nulAt(value, where);
      if (at) throw new ApiError('NUL_CHARACTER', { where: at });
    }
  });
});
