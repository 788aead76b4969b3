import { localize, type Lang } from '../text';
import type { EntityDef, FieldDef } from '../types';
import { fieldAt } from '../registry/registry';
import { getPath } from '../validate/values';
import type { ColumnSpec } from './columns';

type Rec = Record<string, unknown>;

/**
 * Titles of referenced records, by target entity, then id: what a list shows in a
 * reference column instead of the id (`{"company": {"c1": "Acme SA"}}`).
 */
export type RefTitles = Readonly<Record<string, Readonly<Record<string, string>>>>;

const DATE_RE = /^(\d{4}-\d{2}-\d{2})/;

/** Dates as YYYY-MM-DD (SPEC 5), whatever the stored precision. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string') return value == null ? '' : String(value);
  const m = DATE_RE.exec(value);
  return m ? m[1] : value;
}

/** Numbers with the field's fraction digits (GHG: exactly 2). */
export function formatNumber(value: unknown, fractionDigits?: number): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return value == null ? '' : String(value);
  return fractionDigits === undefined ? String(n) : n.toFixed(fractionDigits);
}

/** The id a reference value holds, whether stored as an id or as an embedded object. */
export function referenceId(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'id' in value) {
    const id = (value as { id: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  }
  return undefined;
}

function referenceText(value: unknown): string {
  if (value && typeof value === 'object') {
    const o = value as Rec;
    for (const k of ['label', 'title', 'name', 'id']) if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
    return '';
  }
  return value == null ? '' : String(value);
}

/** One value as a list cell shows it (and the CSV export writes it); a reference shows its record's title when `titles` has it. */
export function formatValue(field: FieldDef | undefined, value: unknown, lang: Lang, titles?: RefTitles): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => formatValue(field && { ...field, multiple: false }, v, lang, titles)).filter(Boolean).join(', ');
  if (!field) return typeof value === 'object' ? referenceText(value) : String(value);
  if (field.options) {
    const opt = field.options.find((o) => o.value === value || String(o.value) === String(value));
    if (opt) return localize(opt.label, lang);
  }
  switch (field.type) {
    case 'date':
    case 'datetime': return formatDate(value);
    case 'number':
    case 'integer': return formatNumber(value, field.fractionDigits);
    case 'boolean': return value === true ? '✓' : value === false ? '' : String(value);
    case 'file': return typeof value === 'object' ? String((value as { name?: unknown }).name ?? '') : String(value);
    case 'reference': {
      const id = referenceId(value);
      const title = field.ref && id !== undefined ? titles?.[field.ref]?.[id] : undefined;
      return title ?? referenceText(value);
    }
    default: return typeof value === 'object' ? referenceText(value) : String(value);
  }
}

export function cellText(col: ColumnSpec, record: Rec, lang: Lang, titles?: RefTitles): string {
  return formatValue(col.field, getPath(record, col.path), lang, titles);
}

/** The label a record shows when another record points to it: its entity's title field (formatted), else its id. */
export function recordTitle(def: EntityDef | undefined, record: Rec | undefined, lang: Lang): string {
  if (!record) return '';
  const titleField = def?.titleField;
  const v = titleField ? record[titleField] : undefined;
  const text = titleField && v !== undefined && v !== null && v !== '' ? formatValue(def && fieldAt(def.fields, titleField), v, lang) : '';
  return text || String(record.id ?? '');
}

/**
 * The ids the reference columns of a page point to, grouped by target entity, so the
 * titles are looked up once per target entity however many rows and columns name it.
 */
export function referencedIds(cols: readonly ColumnSpec[], records: readonly Rec[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const col of cols) {
    const target = col.field?.type === 'reference' ? col.field.ref : undefined;
    if (!target) continue;
    for (const r of records) {
      const v = getPath(r, col.path);
      for (const item of Array.isArray(v) ? v : [v]) {
        const id = referenceId(item);
        if (id === undefined || id === '') continue;
        let ids = out.get(target);
        if (!ids) out.set(target, (ids = new Set()));
        ids.add(id);
      }
    }
  }
  return out;
}
