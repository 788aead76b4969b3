/**
 * The HTTP contract between the server and the web, declared once: what a list call takes
 * and answers, and what an import job looks like from outside. Both sides import these
 * types, so a change to one side's answer is a type error on the other.
 */
import type { RefTitles } from './list/cells';

type Rec = Record<string, unknown>;

/** One problem of a refused request, at its field when it has one: `error.details` of an error body. */
export interface ErrorDetail {
  field?: string;
  message: string;
  code?: string;
  /** The values the message was written with, so a client can say it in its user's language. */
  params?: Record<string, unknown>;
}

/** A search shorter than this is ignored by the server and not sent by the web. */
export const MIN_SEARCH_CHARS = 2;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

/** `GET /api/v3/masterdata/:entity` query. */
export interface ListQuery {
  q?: string;
  page?: number;
  pageSize?: number;
  /** `field,-other` */
  sort?: string;
  /** Record state: 1 Active, 3 Disabled (SPEC 4). */
  state?: number;
  /** Ask for the titles of the records the page's references point to. */
  titles?: boolean;
}

/** `GET /api/v3/masterdata/:entity` answer. */
export interface ListAnswer<T = Rec> {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
  /** With `titles`: target entity → id → title. */
  titles?: RefTitles;
}

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'rolled_back';
export type ImportPhase = 'queued' | 'validating' | 'applying' | 'rolling_back' | 'done';
export type ImportMode = 'all-or-nothing' | 'valid-only';

export interface ImportCounts {
  insert: number;
  update: number;
  unchanged: number;
  reject: number;
}

/** A message with its code and values, so the web can say it in the user's language. */
export interface CodedMessage {
  code: string;
  message: string;
  params?: Record<string, unknown>;
}

/** One problem of a rejected row: `column` as written in the file (empty for the whole row), `field` its path. */
export interface CellMessage extends CodedMessage {
  column: string;
  field?: string;
}

export interface JobMessage extends CodedMessage {
  severity: 'error' | 'warn';
}

export interface RejectedRow {
  row: number;
  messages: CellMessage[];
}

/** Rejected rows, a page at a time. */
export interface RejectedRows {
  data: RejectedRow[];
  total: number;
  page: number;
  pageSize: number;
}

/** Rejected rows a page of a job's answer, and imports a page of the logs. */
export const ERRORS_PAGE_SIZE = 50;
export const LOGS_PAGE_SIZE = 20;

/** `GET /api/imports/:id` answer (and each entry of `GET /api/imports`). */
export interface ImportJobStatus {
  id: string;
  entity: string;
  kind?: 'master' | 'event';
  encoding?: string;
  fileName: string;
  fileBytes?: number;
  dryRun: boolean;
  mode: ImportMode;
  status: ImportStatus;
  phase: ImportPhase;
  createdAt: string;
  startedAt?: string | null;
  finishedAt: string | null;
  createdBy?: { email?: string; displayName?: string };
  progress: { phase: ImportPhase; rowsDone: number; rowsTotal: number; exact: boolean; percent: number };
  counts: ImportCounts;
  columns?: { header: string; path: string }[];
  /** Headers that name no field (not imported), and headers left out on purpose (`id`). */
  unknownColumns?: string[];
  ignoredColumns?: string[];
  messages: JobMessage[];
  error: JobMessage | null;
  errorFile: string | null;
  /** Rejected rows, paged: only in `GET /api/imports/:id`. */
  errors?: RejectedRows;
}

export type ImportJobPage = ListAnswer<ImportJobStatus>;

/** One queued action of the mobile app as `POST /api/v3/mobile/actions` takes it (issue 20). */
export interface MobileActionPayload {
  /** The device's own increasing number: the server judges each (user, device, seq) once. */
  seq: number;
  /** The mobile feature (schemas/mobile.json) it was done in. */
  feature: string;
  workflow: string;
  /** A create names the id the device made for the record, so later actions can name it. */
  recordId: string;
  kind: 'create' | 'transition';
  transition?: string;
  fields?: Record<string, unknown>;
  comment?: string;
  /** When it was done on the device (ISO date and time). */
  at: string;
  offline: boolean;
}
