import type { Lang } from '../text';
import type { EntityDef, FieldDef } from '../types';
import { referenceId, valueText, type RefTitles } from '../fields/types';
import { fieldAt } from '../registry/registry';
import { getPath, referenceSites } from '../validate/values';
import type { ColumnSpec } from './columns';

type Rec = Record<string, unknown>;

export { formatDate, formatNumber, referenceId, type RefTitles } from '../fields/types';

/** One value as a list cell shows it (and the CSV export writes it); a reference shows its record's title when `titles` has it. */
export function formatValue(field: FieldDef | undefined, value: unknown, lang: Lang, titles?: RefTitles): string {
  return valueText(field, value, { lang, titles });
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
  const add = (target: string, item: unknown) => {
    const id = referenceId(item);
    if (id === undefined || id === '') return;
    let ids = out.get(target);
    if (!ids) out.set(target, (ids = new Set()));
    ids.add(id);
  };
  for (const col of cols) {
    const field = col.field;
    if (field?.type === 'reference' && field.ref) {
      for (const r of records) {
        const v = getPath(r, col.path);
        for (const item of Array.isArray(v) ? v : [v]) add(field.ref, item);
      }
    } else if (field?.type === 'object' && field.multiple && field.fields) {
      // A list of rows shows its first row only (valueText), so only its references are looked up.
      for (const r of records) {
        const rows = getPath(r, col.path);
        const first = Array.isArray(rows) ? rows[0] : undefined;
        if (first && typeof first === 'object') for (const site of referenceSites(field.fields, first as Rec)) add(site.field.ref!, site.value);
      }
    }
  }
  return out;
}
