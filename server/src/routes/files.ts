import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { DEFAULT_ENTITY_ACCESS, canAccess, fieldAt, formOf, localize, type FieldDef, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { unreadableMultipart } from '../multipartErrors';
import type { ServerConfig } from '../config';
import { openFileStore, type FileStore } from '../files/fileStore';
import { accepts, sniffType } from '../files/sniff';
import type { Store } from '../store/types';
import { requestLang } from './masterdata';

/** Without a `maxSizeBytes` on the field, a file may not exceed this. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

function fileField(reg: Registry, entity: string, path: string): FieldDef {
  const form = Object.hasOwn(reg.entities, entity) ? formOf(reg, entity) : undefined;
  if (!form) throw new ApiError('UNKNOWN_ENTITY', { entity: entity.slice(0, 60) });
  const f = fieldAt(form.fields, path);
  if (!f || f.type !== 'file') throw new ApiError('INVALID_REQUEST', { detail: `${entity}.${path.slice(0, 100)} is not a file field` });
  return f;
}

function largestLimit(reg: Registry): number {
  let max = DEFAULT_MAX_FILE_BYTES;
  const walk = (fields: readonly FieldDef[]) => { for (const f of fields) { if (f.maxSizeBytes && f.maxSizeBytes > max) max = f.maxSizeBytes; if (f.fields) walk(f.fields); } };
  for (const e of Object.values(reg.entities)) walk(e.fields);
  for (const x of Object.values(reg.extensions)) walk(x.fields);
  return max;
}

function mayUse(reg: Registry, request: FastifyRequest, entity: string): void {
  const key = reg.entities[entity]?.access ?? DEFAULT_ENTITY_ACCESS;
  if (!request.principal || !canAccess(request.principal, { key }, reg.access.superadmin)) throw new ApiError('FORBIDDEN', { key });
}

/**
 * `POST /api/files` (multipart: `entity`, `field` — the dotted path of a file field — then
 * `file`): the field's `accept` and `maxSizeBytes` apply, checked on the sniffed content,
 * not the name. `GET /api/files/:id` streams it back to users with the entity's access.
 */
export async function fileRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; config: ServerConfig; files?: FileStore }): Promise<void> {
  const reg = opts.registry;
  const files = opts.files ?? await openFileStore({ dataDir: opts.config.dataDir, mongodbUri: opts.store.kind === 'mongodb' ? opts.config.mongodbUri : undefined });
  if (!opts.files) app.addHook('onClose', async () => files.close());
  await app.register(multipart, { limits: { fileSize: largestLimit(reg), files: 1, fields: 5, fieldSize: 500, parts: 8 } });

  app.post('/api/files', {
    config: { access: null },
    schema: { tags: ['Files'], summary: 'Upload a file for a file field (multipart: entity, field, file)', consumes: ['multipart/form-data'] },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { type: String(request.headers['content-type'] ?? 'none').slice(0, 60) });
    const part = await request.file().catch((e: unknown) => { throw unreadableMultipart(e); });
    if (!part) throw new ApiError('INVALID_REQUEST', { detail: 'send entity, field and then the file in a multipart field named file' });
    const value = (name: string) => { const f = part.fields[name]; return f && !Array.isArray(f) && f.type === 'field' ? String(f.value) : ''; };
    const entity = value('entity');
    const path = value('field');
    mayUse(reg, request, entity);
    const field = fileField(reg, entity, path);
    const label = localize(field.label, requestLang(request));
    const limit = field.maxSizeBytes ?? DEFAULT_MAX_FILE_BYTES;
    let content: Buffer;
    try {
      content = await part.toBuffer();
    } catch {
      throw new ApiError('BODY_TOO_LARGE', { limit }, [{ field: path, message: `${label} : the file is larger than ${limit} bytes`, code: 'FILE_TOO_LARGE' }]);
    }
    if (content.length > limit) throw new ApiError('BODY_TOO_LARGE', { limit }, [{ field: path, message: `${label} : the file is larger than ${limit} bytes`, code: 'FILE_TOO_LARGE' }]);
    const type = await sniffType(content, part.filename);
    if (!accepts(field.accept, type, part.filename)) {
      const message = `${label} : only ${field.accept!.join(', ')} files are accepted`;
      throw new ApiError('INVALID_REQUEST', { detail: message }, [{ field: path, message, code: 'FILE_TYPE' }]);
    }
    const meta = await files.put({
      name: part.filename.slice(0, 200), size: content.length, contentType: type.mime, entity, field: path,
      uploadedBy: request.principal?.userId ?? 'anonymous', uploadedAt: new Date().toISOString(),
    }, content);
    return reply.status(201).send({ id: meta.id, name: meta.name, size: meta.size, contentType: meta.contentType });
  });

  app.get('/api/files/:id', {
    config: { access: null },
    schema: { tags: ['Files'], summary: 'Download a stored file (in the type it was stored with)', produces: ['*/*'], params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-f0-9]{24}$' } } } },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const found = await files.get(id);
    if (!found) throw new ApiError('RECORD_NOT_FOUND', { entity: 'file', id });
    mayUse(reg, request, found.meta.entity);
    reply.header('content-type', found.meta.contentType);
    reply.header('content-disposition', `attachment; filename="${found.meta.name.replace(/["\\\r\n]/g, '_')}"`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(found.stream());
  });
}
