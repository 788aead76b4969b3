/**
 * What one import may hold, from the environment (documented in docs/imports.md). The caps
 * bound the time, the disk and the import keys a file costs; memory is bounded whatever the
 * file holds (rows stream through, rejections go to the store as they are found).
 */
export interface ImportLimits {
  /** IMPORT_MAX_FILE_MB: the upload as sent (a gzip file counts compressed). */
  maxFileBytes: number;
  /** IMPORT_MAX_CONTENT_MB: the CSV text once decompressed. */
  maxContentBytes: number;
  /** IMPORT_MAX_ROWS: data rows of one file. */
  maxRows: number;
  /** IMPORT_MAX_ATTEMPTS: starts of a job (crashes included) before it is given up instead of resumed. */
  maxAttempts: number;
}

const MB = 1024 * 1024;

/** A file of a million material rows is 139 MB of CSV: both defaults leave room for it. */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxFileBytes: 50 * MB, maxContentBytes: 512 * MB, maxRows: 1_500_000, maxAttempts: 2 };

export function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got "${value}"`);
  return n;
}

export function readImportLimits(env: NodeJS.ProcessEnv): ImportLimits {
  const d = DEFAULT_IMPORT_LIMITS;
  return {
    maxFileBytes: positive(env, 'IMPORT_MAX_FILE_MB', d.maxFileBytes / MB) * MB,
    maxContentBytes: positive(env, 'IMPORT_MAX_CONTENT_MB', d.maxContentBytes / MB) * MB,
    maxRows: positive(env, 'IMPORT_MAX_ROWS', d.maxRows),
    maxAttempts: positive(env, 'IMPORT_MAX_ATTEMPTS', d.maxAttempts),
  };
}
