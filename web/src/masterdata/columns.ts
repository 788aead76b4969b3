import {
  fieldAt, formOf, getPath, localize, type EntityDef, type FieldDef, type Lang, type Registry,
} from '../../../engine/src/index';

export interface ColumnSpec {
  /** Dotted path of the value in a record (`address.city`, `extensions.companyInfo.cuit`). */
  path: string;
  label: string;
  field?: FieldDef;
  sortable: boolean;
  /** The Senasa Sync column of entities with `sync`. */
  sync?: boolean;
  /** Not in `listColumns`: offered in the column picker, hidden until chosen. */
  optional?: boolean;
}

/** Every scalar path of a field list (objects flattened, multiple objects skipped). */
function scalarPaths(fields: readonly FieldDef[], prefix: string, out: string[]): string[] {
  for (const f of fields) {
    const p = prefix ? `${prefix}.${f.id}` : f.id;
    if (f.hidden || (f.type === 'object' && f.multiple)) continue;
    if (f.type === 'object' && f.fields) scalarPaths(f.fields, p, out);
    else if (f.type !== 'object') out.push(p);
  }
  return out;
}

export const SYNC_PATH = 'sync.status';

/** What the server lets a list sort by (mirrors server/src/masterdata/query.ts sortablePaths). */
function canSort(def: EntityDef, path: string, f: FieldDef | undefined): boolean {
  if (path === 'id' || path === 'createdAt' || path === 'updatedAt') return true;
  if (!f || f.multiple || f.type === 'object') return false;
  return f.sortable === true || f.searchable === true || f.id === def.titleField || f.id === 'state';
}

/** The list columns of an entity, from `listColumns` (else its first five fields), labelled in `lang`. */
export function columnsOf(registry: Registry, entity: string, lang: Lang): ColumnSpec[] {
  const def = registry.entities[entity];
  const form = formOf(registry, entity);
  if (!def || !form) return [];
  const paths = def.listColumns ?? def.fields.filter((f) => !f.hidden && f.type !== 'object').slice(0, 5).map((f) => f.id);
  const cols: ColumnSpec[] = paths.map((path) => {
    const field = path === 'id' ? undefined : fieldAt(form.fields, path);
    return { path, label: path === 'id' ? 'ID' : localize(field?.label ?? path, lang), field, sortable: canSort(def, path, field) };
  });
  if (def.sync) cols.push({ path: SYNC_PATH, label: 'Senasa Sync', sortable: false, sync: true });
  // Every other field, extensions included, can be shown from the column picker: a field a
  // configurator adds is in the list without anyone editing listColumns.
  const secret = new Set(def.secretFields ?? []);
  for (const path of scalarPaths(form.fields, '', [])) {
    if (paths.includes(path) || secret.has(path)) continue;
    const field = fieldAt(form.fields, path);
    cols.push({ path, label: localize(field?.label ?? path, lang), field, sortable: canSort(def, path, field), optional: true });
  }
  return cols;
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

function referenceText(value: unknown): string {
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of ['label', 'title', 'name', 'id']) if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
    return '';
  }
  return value == null ? '' : String(value);
}

/** One value as a list cell shows it (and the CSV export writes it). */
export function formatValue(field: FieldDef | undefined, value: unknown, lang: Lang): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => formatValue(field && { ...field, multiple: false }, v, lang)).filter(Boolean).join(', ');
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
    default: return typeof value === 'object' ? referenceText(value) : String(value);
  }
}

export function cellText(col: ColumnSpec, record: Record<string, unknown>, lang: Lang): string {
  return formatValue(col.field, getPath(record, col.path), lang);
}
