/** What the import screens derive from the import API's answers (docs/imports.md); no React here. */
import type { CellMessage, ImportCounts, ImportJobPage, ImportJobStatus, ImportMode, ImportStatus, RejectedRows } from '../../../engine/src/contract';
import { importableEntities, type Registry } from '../../../engine/src/index';


export type { CellMessage, CodedMessage, ImportCounts, ImportMode, ImportStatus, JobMessage, RejectedRows } from '../../../engine/src/contract';
export { ERRORS_PAGE_SIZE, LOGS_PAGE_SIZE } from '../../../engine/src/contract';
export type ImportJob = ImportJobStatus;
export type JobPage = ImportJobPage;
export type HeaderKind = 'ids' | 'labels';

export const COUNT_KEYS = ['insert', 'update', 'unchanged', 'reject'] as const satisfies readonly (keyof ImportCounts)[];

export function isFinished(status: ImportStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'rolled_back';
}

/** Wait before asking for a running job again: quick at first (small files finish at once), then every second. */
export function pollDelay(attempt: number): number {
  return Math.min(1000, 250 * 2 ** Math.max(0, attempt));
}

/** The error file exists once validation has finished, and is worth a link when a row was rejected. */
export function hasErrorFile(job: ImportJob): boolean {
  return job.errorFile !== null && job.counts.reject > 0 && isFinished(job.status);
}

/** One line per problem (a row-level problem has an empty column), in row order. */
export interface ErrorLine extends CellMessage { row: number }

export function errorLines(rows: RejectedRows | undefined): ErrorLine[] {
  return (rows?.data ?? []).flatMap((r) => r.messages.map((m) => ({ ...m, row: r.row })));
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The importable entities a screen offers (docs/imports.md "Entities"): the event screen only the event entities. */
export function importableFor(registry: Pick<Registry, 'entities'>, path: string | undefined): readonly string[] {
  return importableEntities(registry, path?.replace(/\/+$/, '').endsWith('/event') ? 'event' : 'master');
}

/** The template's address; the server writes labels in English or Spanish (French reads English). */
export function templatePath(entity: string, headers: HeaderKind, lang: string): string {
  return `/api/imports/templates/${encodeURIComponent(entity)}.csv?headers=${headers}&lang=${lang === 'es' || lang === 'fr' ? lang : 'en'}`;
}

/** The multipart body of `POST /api/imports`: the fields first, the file last. */
export function uploadForm(file: Blob, name: string, o: { entity: string; dryRun: boolean; mode: ImportMode }): FormData {
  const form = new FormData();
  form.set('entity', o.entity);
  form.set('dryRun', String(o.dryRun));
  form.set('mode', o.mode);
  form.set('file', file, name);
  return form;
}

/** The file name a `Content-Disposition` answer gives, else the fallback. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return m ? decodeURIComponent(m[1]) : fallback;
}

/** A time stamp as the user's clock shows it: `2026-03-31 14:30:05`. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** How long a finished job took, in whole seconds (at least 1 when it ran at all). */
export function durationSeconds(job: Pick<ImportJob, 'startedAt' | 'finishedAt' | 'createdAt'>): number | undefined {
  if (!job.finishedAt) return undefined;
  const ms = Date.parse(job.finishedAt) - Date.parse(job.startedAt ?? job.createdAt);
  return Number.isFinite(ms) ? Math.max(ms > 0 ? 1 : 0, Math.round(ms / 1000)) : undefined;
}

/** Severity of a status for its badge. */
export function statusSeverity(status: ImportStatus): 'success' | 'danger' | 'warning' | 'info' {
  if (status === 'succeeded') return 'success';
  if (status === 'failed') return 'danger';
  if (status === 'rolled_back') return 'warning';
  return 'info';
}

/** A count as the user's language writes it: 100,000 / 100.000. */
export function formatNumber(n: number, lang: string): string {
  return new Intl.NumberFormat(lang).format(n);
}
