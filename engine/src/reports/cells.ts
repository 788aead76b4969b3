import type { Registry } from '../registry/registry';
import { localize, type Lang } from '../text';
import type { ReportColumnDef, ReportDef } from '../types';
import { getParts, isRecord } from '../validate/values';

/**
 * A report column as a screen or an export worker needs it, serializable (it crosses to a
 * worker thread and to the browser): the label and the state labels already in one language.
 */
export interface CellColumn {
  id: string;
  label: string;
  type: ReportColumnDef['type'];
  field: string;
  subField?: string;
  sortable: boolean;
  /** The language localized texts in the rows show in. */
  lang: Lang;
  /** status: each state's label. */
  statuses?: Record<string, string>;
  action?: ReportColumnDef['action'];
}

export function reportColumns(reg: Registry, def: ReportDef, lang: Lang): CellColumn[] {
  return def.columns.map((c) => {
    const states = c.type === 'status' && c.workflow ? reg.workflows[c.workflow]?.states : undefined;
    return {
      id: c.id,
      label: localize(c.label, lang),
      type: c.type,
      field: c.field,
      ...(c.subField !== undefined ? { subField: c.subField } : {}),
      sortable: c.sortable,
      lang,
      ...(states ? { statuses: Object.fromEntries(states.map((s) => [s.id, localize(s.label, lang)])) } : {}),
      ...(c.action ? { action: c.action } : {}),
    };
  });
}

/** The CSV header: the columns' labels, in the language they were made for. */
export function reportHeader(cols: readonly CellColumn[]): string[] {
  return cols.map((c) => c.label);
}

/** A `{en, es, fr}` text as the definitions and alerts write them. */
function isLocalText(v: Record<string, unknown>): boolean {
  const keys = Object.keys(v);
  return keys.length > 0 && typeof v.en === 'string' && keys.every((k) => k === 'en' || k === 'es' || k === 'fr');
}

/** The date part of an ISO date or date-time (a Date too); anything else as it is. */
function dayText(v: unknown): string {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  const s = String(v);
  return /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : s;
}

/** Whole years from the day `from` to the day `today` (both YYYY-MM-DD). */
function yearsBetween(from: string, today: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) return from;
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  const years = ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
  return String(Math.max(0, years));
}

/** Any value as plain text: localized texts in `lang`, lists joined by "; ", objects as `k: v; …`. */
function plain(v: unknown, lang: Lang): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return joined(v, (x) => plain(x, lang));
  if (v instanceof Date) return dayText(v);
  if (isRecord(v)) {
    if (isLocalText(v)) return localize(v as never, lang);
    return Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => `${k}: ${plain(x, lang)}`).join('; ');
  }
  return String(v);
}

/** Each item's text, the empty ones left out, joined by "; " (one loop: an export does this for every row). */
function joined(items: readonly unknown[], text: (x: unknown) => string): string {
  let out = '';
  for (const x of items) {
    const s = text(x);
    if (s !== '') out = out === '' ? s : `${out}; ${s}`;
  }
  return out;
}

/** A path as a reader: split once, not for every cell (an export reads millions). */
function pathReader(path: string): (v: unknown) => unknown {
  const parts = path.split('.');
  if (parts.length === 1) return (v) => (isRecord(v) ? v[path] : undefined);
  // Split here once: getPath splits the path on every call, once a cell of every row.
  return (v) => getParts(v, parts);
}

/**
 * The text of a column's cells, the same on screen and in the CSV: date_text as YYYY-MM-DD, age
 * in whole years to `today` (default: the current UTC day), text in the column's language, an
 * array as each element's `subField` joined by "; ", an object as its `subField` (else
 * `k: v; …`), a status as its state's label, a conditional_action as its value. Absent: "".
 * Made once per column; an export calls it for every row.
 */
export function cellReader(col: CellColumn, today?: string): (row: Record<string, unknown>) => string {
  const field = pathReader(col.field);
  const sub = col.subField !== undefined ? pathReader(col.subField) : (x: unknown) => x;
  const text = (v: unknown): string => {
    switch (col.type) {
      case 'date_text': return Array.isArray(v) ? v.map(dayText).join('; ') : dayText(v);
      case 'age': return yearsBetween(dayText(v), today ?? new Date().toISOString().slice(0, 10));
      case 'status': return Array.isArray(v) ? v.map((s) => col.statuses?.[String(s)] ?? plain(s, col.lang)).join('; ') : col.statuses?.[String(v)] ?? plain(v, col.lang);
      case 'array': {
        const items = Array.isArray(v) ? (v.some(Array.isArray) ? v.flat(Infinity) : v) : [v];
        return joined(items, (x) => plain(sub(x), col.lang));
      }
      case 'object': return plain(sub(v), col.lang);
      default: return plain(v, col.lang);
    }
  };
  return (row) => {
    const v = field(row);
    return v === null || v === undefined ? '' : text(v);
  };
}

/** One cell's text (cellReader, for a single cell). */
export function cellText(col: CellColumn, row: Record<string, unknown>, today?: string): string {
  return cellReader(col, today)(row);
}
