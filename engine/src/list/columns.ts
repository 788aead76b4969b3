import { localize, type Lang } from '../text';
import type { EntityDef, FieldDef } from '../types';
import { enabledExtensions, fieldAt, formOf, SYNC_STATUS_PATH, type Registry } from '../registry/registry';

/**
 * The columns of an entity's list, shared by the web list and the server's CSV export so
 * both show the same columns, labels and text.
 */
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

export const SYNC_PATH = SYNC_STATUS_PATH;

/** Paths every record has and a list may sort by. */
const SYSTEM_SORT_PATHS = ['id', 'createdAt', 'updatedAt'];

/** A field a list may sort by: declared sortable or searchable, the title field or `state`; never a list or an object. */
function sortsBy(def: EntityDef, f: FieldDef): boolean {
  return (f.sortable || f.searchable || f.id === def.titleField || f.id === 'state') === true && !f.multiple && f.type !== 'object';
}

function sortableUnder(def: EntityDef, fields: readonly FieldDef[], prefix: string, out: string[]): void {
  for (const f of fields) {
    const p = prefix ? `${prefix}.${f.id}` : f.id;
    if (f.fields && !f.multiple) sortableUnder(def, f.fields, p, out);
    else if (sortsBy(def, f)) out.push(p);
  }
}

/** Every path the list API sorts an entity by (its fields and its enabled extensions' fields). */
export function sortablePaths(reg: Registry, def: EntityDef): Set<string> {
  const out = [...SYSTEM_SORT_PATHS];
  sortableUnder(def, def.fields, '', out);
  for (const e of enabledExtensions(reg, def.name)) sortableUnder(def, e.fields, `extensions.${e.name}`, out);
  return new Set(out);
}

/** Every scalar path of a field list (objects flattened, hidden fields and lists of rows skipped). */
function scalarPaths(fields: readonly FieldDef[], prefix: string, out: string[]): string[] {
  for (const f of fields) {
    const p = prefix ? `${prefix}.${f.id}` : f.id;
    if (f.hidden || (f.type === 'object' && f.multiple)) continue;
    if (f.type === 'object' && f.fields) scalarPaths(f.fields, p, out);
    else if (f.type !== 'object') out.push(p);
  }
  return out;
}

/**
 * The list columns of an entity, from `listColumns` (defaulted by the registry), labelled
 * in `lang`; then every other scalar field, extensions included and secrets excluded, as an
 * optional column, so a field a configurator adds is in the list without editing listColumns.
 */
export function columnsOf(registry: Registry, entity: string, lang: Lang): ColumnSpec[] {
  const def = registry.entities[entity];
  const form = formOf(registry, entity);
  if (!def || !form) return [];
  const sortable = sortablePaths(registry, def);
  const paths = def.listColumns;
  const cols: ColumnSpec[] = paths.map((path) => {
    const field = path === 'id' ? undefined : fieldAt(form.fields, path);
    return { path, label: path === 'id' ? 'ID' : localize(field?.label ?? path, lang), field, sortable: sortable.has(path) };
  });
  if (def.sync) cols.push({ path: SYNC_PATH, label: 'Senasa Sync', sortable: false, sync: true });
  const secret = new Set(def.secretFields);
  for (const path of scalarPaths(form.fields, '', [])) {
    if (paths.includes(path) || secret.has(path)) continue;
    const field = fieldAt(form.fields, path);
    cols.push({ path, label: localize(field?.label ?? path, lang), field, sortable: sortable.has(path), optional: true });
  }
  return cols;
}
