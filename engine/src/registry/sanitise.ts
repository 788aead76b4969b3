import type { EntityDef, EntityDefinition, ExtensionDef, FieldDef } from '../types';
import { defaultWidget } from '../fields/types';

/** The access key of an entity that names none (SPEC 3.1: master data screens). */
export const DEFAULT_ENTITY_ACCESS = 'Master Data';

/** How many fields an entity without `listColumns` shows in its list. */
const DEFAULT_LIST_COLUMNS = 5;

/** Every field, nested ones too, with the widget it is edited with. */
function withWidgets(fields: readonly FieldDef[]): FieldDef[] {
  return fields.map((f) => ({ ...f, widget: defaultWidget(f), ...(f.fields ? { fields: withWidgets(f.fields) } : {}) }));
}

export function uniqueFieldPaths(def: Pick<EntityDefinition, 'fields'>): string[] {
  return def.fields.filter((f) => f.unique && !f.multiple).map((f) => f.id);
}

/**
 * An entity with every default the definition reference (docs/definitions.md) promises
 * applied, so readers never fall back on their own: system entities (users, groups…) are
 * not importable unless they say so.
 */
export function sanitiseEntity(def: EntityDefinition): EntityDef {
  const fields = withWidgets(def.fields);
  return {
    ...def,
    fields,
    titleField: def.titleField ?? 'id',
    access: def.access ?? DEFAULT_ENTITY_ACCESS,
    importable: def.importable ?? def.kind !== 'system',
    importKeys: def.importKeys ?? uniqueFieldPaths(def),
    secretFields: def.secretFields ?? [],
    serverFields: def.serverFields ?? [],
    listColumns: def.listColumns ?? fields.filter((f) => !f.hidden && f.type !== 'object').slice(0, DEFAULT_LIST_COLUMNS).map((f) => f.id),
  };
}

export function sanitiseExtension(def: ExtensionDef): ExtensionDef {
  return { ...def, fields: withWidgets(def.fields) };
}
