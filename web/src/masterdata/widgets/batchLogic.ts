/**
 * The batch picker's pure parts: where the line's material is, and how a batch reads in the
 * list (quantity available and expiry), first-expired first as the server answers.
 */
export type PathPart = string | number;

/** What the picker needs from the form it is in (operation forms put it in formContext). */
export interface BatchScope {
  /** The material and deposit the batch of the line at `path` of the form's `value` is drawn from; null when the form has none. */
  scope(path: readonly PathPart[], value: unknown): { material: string; deposit: string } | null;
  /** Batches with stock of a material at a deposit, first-expired first. */
  batches(material: string, deposit: string): Promise<BatchOption[]>;
}

export interface BatchOption {
  batch: string;
  deposit?: string;
  quantity: number;
  unit?: string | null;
  expirationDate?: string | null;
  daysToExpire?: number | null;
}

export function valueAt(value: unknown, path: readonly PathPart[]): unknown {
  let v = value;
  for (const p of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[String(p)] : undefined;
  return v;
}

/** Orders batches first-expired first; a batch without an expiry date goes last. */
export function firstExpiredFirst(rows: readonly BatchOption[]): BatchOption[] {
  return [...rows].sort((a, b) => (a.expirationDate ?? '\uffff').localeCompare(b.expirationDate ?? '\uffff') || a.batch.localeCompare(b.batch));
}
