/**
 * Receiving an import: the multipart body is streamed to a file (never held in memory), then
 * looked at before any job exists, so a file that cannot be imported — not a CSV, empty,
 * header only, a required column missing — is refused at once with a message to act on.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { canAccess, importableEntities, type Registry } from '../../../engine/src/index';
import { ApiError, type ErrorDetail } from '../apiError';
import { unreadableMultipart } from '../multipartErrors';
import { newId } from '../store/ids';
import { columnCatalogue, mapHeader, type HeaderMapping } from './columns';
import { importKind } from './context';
import { jobMessage, zeroCounts, type ImportMode, type Job } from './jobs';
import { sniff } from './source';

export interface Upload {
  id: string;
  path: string;
  fileName: string;
  fileBytes: number;
  fields: Record<string, string>;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off', '']);

/** Streams the `file` part to `<dir>/<id>.part`; other parts are small text fields. */
export async function receive(request: FastifyRequest, dir: string, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new ApiError('IMPORT_NOT_MULTIPART', { type: String(request.headers['content-type'] ?? 'none').split(';')[0].slice(0, 80) });
  }
  const id = newId();
  const path = `${dir}/${id}.part`;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
  let fileName: string | undefined;
  let fileBytes = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || fileName !== undefined) {
          part.file.resume(); // drained and dropped: one file per import
          continue;
        }
        fileName = (part.filename || 'upload.csv').slice(0, 200);
        part.file.on('data', (c: Buffer) => { fileBytes += c.length; });
        await pipeline(part.file, createWriteStream(path));
        if (part.file.truncated) throw tooLarge(maxBytes);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value.slice(0, 200);
      }
    }
  } catch (e) {
    await rm(path, { force: true });
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw unreadableMultipart(e);
  }
  if (fileName === undefined) throw new ApiError('IMPORT_NO_FILE');
  return { id, path, fileName, fileBytes, fields };
}

const tooLarge = (maxBytes: number) => new ApiError('IMPORT_FILE_TOO_LARGE', { limit: Math.round(maxBytes / (1024 * 1024)) });

export interface ImportRequest {
  entity: string;
  dryRun: boolean;
  mode: ImportMode;
}

/** The form fields of an import (or the query string); every problem named. */
export function readFields(reg: Registry, fields: Record<string, string>): ImportRequest {
  const details: ErrorDetail[] = [];
  const entity = (fields.entity ?? '').trim();
  const allowed = importableEntities(reg);
  if (!allowed.includes(entity)) {
    // SPEC §5 fixes this message word for word; the detail says what would be accepted.
    throw new ApiError('LOT_NOT_STRING', {}, [{ field: 'entity', message: `must be one of ${allowed.join(', ')}`, code: 'LOT_NOT_STRING' }]);
  }
  const dry = (fields.dryRun ?? '').trim().toLowerCase();
  if (!TRUE.has(dry) && !FALSE.has(dry)) details.push({ field: 'dryRun', message: 'must be true or false' });
  const mode = (fields.mode ?? 'all-or-nothing').trim() || 'all-or-nothing';
  if (mode !== 'all-or-nothing' && mode !== 'valid-only') details.push({ field: 'mode', message: 'must be all-or-nothing or valid-only' });
  if (details.length > 0) throw new ApiError('INVALID_REQUEST', { detail: details.map((d) => `${d.field} ${d.message}`).join('; ') }, details);
  return { entity, dryRun: TRUE.has(dry), mode: mode as ImportMode };
}

/** Importing an entity needs the Data Import key and the entity's own access key. */
export function checkEntityAccess(reg: Registry, request: FastifyRequest, entity: string): void {
  const key = reg.entities[entity].access;
  if (!request.principal || !canAccess(request.principal, { key }, reg.access.superadmin)) throw new ApiError('FORBIDDEN', { key });
}

/** Looks at the saved file and builds the job, or refuses the file (the caller deletes it). */
export async function prepareJob(reg: Registry, request: FastifyRequest, upload: Upload, req: ImportRequest, maxContentBytes: number): Promise<{ job: Job; mapping: HeaderMapping }> {
  const sniffed = await sniff(upload.path);
  if (sniffed.notCsv) throw new ApiError('IMPORT_NOT_CSV', { what: sniffed.notCsv });
  // A plain file's content is its size; a gzip file's is known only once read (the job fails then).
  if (!sniffed.format.gzip && upload.fileBytes > maxContentBytes) throw new ApiError('IMPORT_CONTENT_TOO_LARGE', { limit: Math.round(maxContentBytes / (1024 * 1024)) });
  if (sniffed.empty) throw new ApiError('IMPORT_EMPTY_FILE');
  const cat = columnCatalogue(reg, req.entity);
  const mapping = mapHeader(cat, sniffed.header);
  const detail = (column: string, message: string): ErrorDetail => ({ field: column, message });
  if (mapping.duplicates.length > 0) {
    const d = mapping.duplicates[0];
    throw new ApiError('IMPORT_DUPLICATE_COLUMN', { column: d.header, other: d.other }, mapping.duplicates.map((x) => detail(x.header, `names the same field as ${x.other}`)));
  }
  if (mapping.ambiguous.length > 0) {
    throw new ApiError('IMPORT_AMBIGUOUS_COLUMN', { column: mapping.ambiguous[0] }, mapping.ambiguous.map((h) => detail(h, 'could name more than one field')));
  }
  if (mapping.missing.length > 0) {
    const names = mapping.missing.map((m) => (m.label && m.label !== m.path ? `${m.label} (${m.path})` : m.path));
    throw new ApiError('IMPORT_MISSING_COLUMNS', { columns: names.join(', ') }, mapping.missing.map((m) => detail(m.path, 'required column missing')));
  }
  if (!sniffed.hasRows) throw new ApiError('IMPORT_NO_ROWS');
  const messages = [];
  if (sniffed.format.encoding === 'windows-1252') messages.push(jobMessage('warn', 'IMPORT_ENCODING', { encoding: 'Windows-1252 (Latin-1)' }));
  if (mapping.unknown.length > 0) messages.push(jobMessage('warn', 'IMPORT_UNKNOWN_COLUMNS', { entity: req.entity, columns: mapping.unknown.join(', ') }));
  if (mapping.ignored.length > 0) messages.push(jobMessage('warn', 'IMPORT_IGNORED_COLUMNS', { columns: mapping.ignored.join(', '), keys: cat.importKeys.join(', ') || 'their content' }));
  const p = request.principal!;
  const def = reg.entities[req.entity];
  const job: Job = {
    id: upload.id,
    entity: req.entity,
    kind: importKind(def),
    fileName: upload.fileName,
    fileBytes: upload.fileBytes,
    format: sniffed.format,
    dryRun: req.dryRun,
    mode: req.mode,
    status: 'queued',
    phase: 'queued',
    createdAt: new Date().toISOString(),
    createdBy: { userId: p.userId, email: p.email, displayName: p.displayName },
    rowsTotal: 0,
    rowsExact: false,
    rowsValidated: 0,
    rowsApplied: 0,
    rowsValid: 0,
    counts: zeroCounts(),
    header: sniffed.header,
    columns: mapping.columns.map((c) => ({ header: c.header, path: c.target.kind === 'rowCell' ? `${c.target.path}.${c.target.index + 1}.${c.target.sub}` : c.target.path })),
    messages,
    unknownColumns: mapping.unknown,
    ignoredColumns: mapping.ignored,
    attempts: 0,
    errorBatches: 0,
    errorRows: 0,
  };
  return { job, mapping };
}

export async function keepUpload(upload: Upload, finalPath: string): Promise<void> {
  await rename(upload.path, finalPath);
}
