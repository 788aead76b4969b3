/** What the import screens derive from the import API's answers (docs/imports.md); no React here. */

/** The entities each import screen offers (docs/imports.md "Entities"). */
export const MASTER_IMPORTS = ['company', 'material', 'supply', 'recipe', 'ibc_container', 'company_division', 'country', 'units_of_measurement', 'material_package'] as const;
export const EVENT_IMPORTS = ['object_events', 'transformation_events'] as const;

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'rolled_back';

export interface ImportCounts { insert: number; update: number; unchanged: number; reject: number }

export interface CellMessage { column: string; field?: string; code: string; message: string }

export interface ImportJob {
  id: string;
  entity: string;
  fileName: string;
  dryRun: boolean;
  mode: 'all-or-nothing' | 'valid-only';
  status: ImportStatus;
  phase: string;
  createdAt: string;
  finishedAt: string | null;
  createdBy?: { email?: string; displayName?: string };
  progress: { phase: string; rowsDone: number; rowsTotal: number; exact: boolean; percent: number };
  counts: ImportCounts;
  messages: { severity: string; code: string; message: string }[];
  error: { code: string; message: string } | null;
  errorFile: string | null;
  errors?: { data: { row: number; messages: CellMessage[] }[]; total: number; page: number; pageSize: number };
}

export function isFinished(status: ImportStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'rolled_back';
}

/** One line per rejected cell (a row-level problem has an empty column), in row order. */
export function cellErrors(job: ImportJob): { row: number; column: string; message: string }[] {
  return (job.errors?.data ?? []).flatMap((r) => r.messages.map((m) => ({ row: r.row, column: m.column, message: m.message })));
}

/** The entities a screen offers: the event screen only the event entities. */
export function importableFor(path: string | undefined): readonly string[] {
  return path?.endsWith('/event') ? EVENT_IMPORTS : MASTER_IMPORTS;
}

export function templatePath(entity: string, headers: 'ids' | 'labels', lang: string): string {
  return `/api/imports/templates/${encodeURIComponent(entity)}.csv?headers=${headers}&lang=${lang === 'es' ? 'es' : 'en'}`;
}
