import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../apiError';

/**
 * Requests Node cannot read (headers too large, too slow, malformed) never reach Fastify's
 * error handler; this answers them with the same error body as every other refusal, where
 * Fastify's default answers `{"error":"Request Header Fields Too Large"}`.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e = err.code === 'HPE_HEADER_OVERFLOW' ? new ApiError('HEADERS_TOO_LARGE')
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ApiError('REQUEST_TIMEOUT')
      : new ApiError('INVALID_REQUEST', { detail: 'the request could not be read' });
  const body = JSON.stringify(e.toBody());
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
