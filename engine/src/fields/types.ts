/**
 * What each field type means, in one place: its JSON Schema, the widget it is edited with by
 * default, its format check, how a text (a CSV cell) reads as one of its values, the text a
 * list cell (and the CSV export) shows, and the example a CSV template writes. Adding a field type is adding a row here; the switch statements this replaces
 * drifted apart.
 */
import { interpolate, localize, type Lang, type LocalText } from '../text';
import type { FieldDef, FieldType } from '../types';
import { isRecord } from '../validate/values';
import { WIDGET_KEYS, type WidgetKey } from './widgets';
import {
  checkBoolean, checkDate, checkFile, checkNumber, checkObject, checkReference, checkText,
  parseBoolean, parseDate, parseNumber, parseRows, parseText, type CheckCompiler, type TextParse,
} from './checks';

export { INVALID, type Invalid, type CheckContext, type CheckKit, type ValueCheck } from './checks';
export { WIDGET_KEYS, WIDGET_MOUNTS, type WidgetKey, type WidgetMount } from './widgets';

export type JsonSchema = Record<string, unknown>;

/**
 * Titles of referenced records, by target entity, then id: what a list shows in a
 * reference column instead of the id (`{"company": {"c1": "Acme SA"}}`).
 */
export type RefTitles = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface CellContext {
  lang: Lang;
  titles?: RefTitles;
}

export interface ExampleContext {
  lang: Lang;
  /** The first import key of a reference's target entity, which a file names it by. */
  keyOf(entity: string): string;
}

export interface FieldTypeSpec {
  /** The JSON Schema of one value (objects get their properties from `objectSchema`). */
  schema(f: FieldDef, objectSchema: (fields: readonly FieldDef[]) => JsonSchema): JsonSchema;
  /** The widget a field of this type is edited with when it names none and has no options. */
  widget(f: FieldDef): WidgetKey;
  /** Compiles the format check of one (non-list) value: its type, bounds, pattern and options. */
  check: CheckCompiler;
  /** The value a text stands for (a CSV cell, a numeric string), or INVALID. */
  parse: TextParse;
  /** One (non-list, non-option) value as a list cell and the CSV export show it. */
  cell(f: FieldDef, value: unknown, ctx: CellContext): string;
  /** The example a CSV template shows for one value. */
  example(f: FieldDef, ctx: ExampleContext): string;
}

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

/** The readable text of an embedded object (its label, title, name or id), else the value itself. */
export function referenceText(value: unknown): string {
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of ['label', 'title', 'name', 'id']) if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
    return '';
  }
  return value == null ? '' : String(value);
}

const plainText = (_f: FieldDef, value: unknown): string => (typeof value === 'object' ? referenceText(value) : String(value));

const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, size: { type: 'integer' }, contentType: { type: 'string' } },
};

/** What a list of rows adds after its first row: "+2 more". */
export const MORE_ROWS: LocalText = { en: '+{count} more', es: '+{count} más', fr: '+{count} de plus' };

/**
 * One row of an object as a phrase: its values in field order, with "×" before the first
 * number after a name, so a recipe line reads "Glyphosate 48 × 2 L".
 */
function rowText(fields: readonly FieldDef[], row: Record<string, unknown>, ctx: CellContext): string {
  const parts: { text: string; numeric: boolean }[] = [];
  for (const f of fields) {
    if (f.hidden) continue;
    const text = valueText(f, row[f.id], ctx);
    if (text) parts.push({ text, numeric: (f.type === 'number' || f.type === 'integer') && !f.options });
  }
  const n = parts.findIndex((p, i) => i > 0 && p.numeric);
  if (n < 0) return parts.map((p) => p.text).join(' ');
  return `${parts.slice(0, n).map((p) => p.text).join(' ')} × ${parts.slice(n).map((p) => p.text).join(' ')}`;
}

export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeSpec>> = {
  string: {
    schema: () => ({ type: 'string' }),
    widget: () => 'text',
    check: checkText,
    parse: parseText,
    cell: plainText,
    example: (f, ctx) => (f.widget === 'email' || /email/i.test(f.id) ? 'name@example.com' : `${localize(f.label, ctx.lang)} 1`),
  },
  number: {
    schema: () => ({ type: 'number' }),
    widget: () => 'number',
    check: checkNumber,
    parse: parseNumber,
    cell: (f, v) => formatNumber(v, f.fractionDigits),
    example: (f) => (f.fractionDigits !== undefined ? (12.5).toFixed(f.fractionDigits) : '12.5'),
  },
  integer: {
    schema: () => ({ type: 'integer' }),
    widget: () => 'number',
    check: checkNumber,
    parse: parseNumber,
    cell: (f, v) => formatNumber(v, f.fractionDigits),
    example: (f) => String(f.min ?? 1),
  },
  boolean: {
    schema: () => ({ type: 'boolean' }),
    widget: () => 'checkbox',
    check: checkBoolean,
    parse: parseBoolean,
    cell: (_f, v) => (v === true ? '✓' : v === false ? '' : String(v)),
    example: () => 'yes',
  },
  date: {
    schema: () => ({ type: 'string', format: 'date' }),
    widget: () => 'date',
    check: checkDate,
    parse: parseDate,
    cell: (_f, v) => formatDate(v),
    example: () => '2025-03-31',
  },
  datetime: {
    schema: () => ({ type: 'string', format: 'date-time' }),
    widget: () => 'datetime',
    check: checkDate,
    parse: parseDate,
    cell: (_f, v) => formatDate(v),
    example: () => '2025-03-31T14:30:00Z',
  },
  reference: {
    schema: () => ({ type: ['string', 'number', 'object'] }),
    widget: () => 'picker',
    check: checkReference,
    parse: parseText,
    cell: (f, v, ctx) => {
      const id = referenceId(v);
      const title = f.ref && id !== undefined ? ctx.titles?.[f.ref]?.[id] : undefined;
      return title ?? referenceText(v);
    },
    example: (f, ctx) => `<${f.ref} ${ctx.keyOf(f.ref!)}>`,
  },
  file: {
    schema: () => ({ ...FILE_SCHEMA }),
    widget: () => 'upload',
    check: checkFile,
    parse: parseText,
    cell: (_f, v) => (typeof v === 'object' ? String((v as { name?: unknown }).name ?? '') : String(v)),
    example: (f, ctx) => `${localize(f.label, ctx.lang)} 1`,
  },
  object: {
    schema: (f, objectSchema) => objectSchema(f.fields ?? []),
    widget: (f) => (f.multiple ? 'list' : 'object'),
    check: checkObject,
    parse: parseRows,
    cell: plainText,
    example: (f, ctx) => `${localize(f.label, ctx.lang)} 1`,
  },
};

/** The widget a field is edited with when its definition names none. */
export function defaultWidget(f: FieldDef): string {
  if (f.widget) return f.widget;
  if (f.options) return 'select';
  return FIELD_TYPES[f.type].widget(f);
}

/** One value as a list cell shows it (and the CSV export writes it); a reference shows its record's title when `titles` has it. */
export function valueText(field: FieldDef | undefined, value: unknown, ctx: CellContext): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) {
    const one = field && { ...field, multiple: false };
    // A list of rows is summed up by its first row: a cell has no room for a table.
    if (field?.type === 'object' && field.fields) {
      const first = isRecord(value[0]) ? rowText(field.fields, value[0], ctx) : valueText(one, value[0], ctx);
      const rest = value.length - 1;
      return rest > 0 ? `${first}, ${interpolate(localize(MORE_ROWS, ctx.lang), { count: rest })}` : first;
    }
    return value.map((v) => valueText(one, v, ctx)).filter(Boolean).join(', ');
  }
  if (!field) return typeof value === 'object' ? referenceText(value) : String(value);
  if (field.options) {
    const opt = field.options.find((o) => o.value === value || String(o.value) === String(value));
    if (opt) return localize(opt.label, ctx.lang);
  }
  return FIELD_TYPES[field.type].cell(field, value, ctx);
}
