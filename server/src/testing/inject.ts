import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Requests through app.inject: `call` answers status and JSON body; `ok` also expects the status (200 unless told). */
export function apiCaller(app: () => FastifyInstance) {
  const call = async (method: Method, url: string, headers: Record<string, string>, payload?: unknown) => {
    const r = await app().inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
    return { status: r.statusCode, body: r.json() as Record<string, any> };
  };
  const ok = async (method: Method, url: string, headers: Record<string, string>, payload?: unknown, status = 200) => {
    const r = await call(method, url, headers, payload);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };
  return { call, ok };
}
