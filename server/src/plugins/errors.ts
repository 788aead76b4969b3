import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';
import { isStoreError } from '../store/types';

function toApiError(err: FastifyError & { validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[]; validationContext?: string }, bodyLimit: number): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (isStoreError(err)) {
    switch (err.code) {
      case 'DUPLICATE_KEY': return new ApiError('DUPLICATE_KEY', { entity: 'record', fields: err.fields.join(', ') }, err.fields.map((f) => ({ field: f, message: `${f} must be unique` })));
      case 'NOT_FOUND': return new ApiError('RECORD_NOT_FOUND', { entity: 'record', id: '' });
      case 'INVALID_FILTER':
      case 'INVALID_ARGUMENT':
      case 'INVALID_DOCUMENT': return new ApiError('INVALID_REQUEST', { detail: err.message });
      default: return undefined;
    }
  }
  if (err.validation) {
    const where = err.validationContext ?? 'request';
    const details = err.validation.map((v) => ({
      field: `${where}${v.instancePath ? v.instancePath.replace(/\//g, '.') : ''}${v.params && 'additionalProperty' in v.params ? `.${String(v.params.additionalProperty)}` : ''}`,
      message: v.message ?? 'is not valid',
    }));
    return new ApiError('INVALID_REQUEST', { detail: details.map((d) => `${d.field} ${d.message}`).join('; ') }, details);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new ApiError('BODY_TOO_LARGE', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new ApiError('UNSUPPORTED_MEDIA_TYPE', { type: 'this' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return new ApiError('INVALID_JSON');
  }
  if (err instanceof SyntaxError) return new ApiError('INVALID_JSON');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 413) return new ApiError('BODY_TOO_LARGE', { limit: bodyLimit });
    if (err.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', { type: 'this' });
    if (err.statusCode === 429) return new ApiError('RATE_LIMITED', { seconds: 60 });
    return new ApiError('INVALID_REQUEST', { detail: err.message });
  }
  return undefined;
}

/** One place that turns every thrown error into the API's error body; anything unknown is a 500 and logged. */
export const errorsPlugin = fp(async (app: FastifyInstance, opts: { bodyLimit: number }) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const api = toApiError(err, opts.bodyLimit);
    if (api) {
      if (api.code === 'UNSUPPORTED_MEDIA_TYPE') {
        const type = String(request.headers['content-type'] ?? 'none').split(';')[0].slice(0, 80);
        return reply.status(415).send(new ApiError('UNSUPPORTED_MEDIA_TYPE', { type }).toBody());
      }
      return reply.status(api.status).send(api.toBody());
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(new ApiError('INTERNAL').toBody());
  });
  app.setNotFoundHandler({}, (request, reply) => {
    const e = new ApiError('ROUTE_NOT_FOUND', { method: request.method, url: request.url.split('?')[0].slice(0, 200) });
    return reply.status(404).send(e.toBody());
  });
});
