import type {
  AccessDef, DeploymentDef, EntityDef, ExtensionDef, FeatureCatalogue, FieldDef, I18nBundle, ReportDef, WorkflowDef,
} from '../types';
import type { Lang, LocalText } from '../text';
import type { FormDef } from '../validate/format';
import type { DashboardDef } from '../dashboards/types';
import type { MobileDef } from '../mobile/types';

export { DEFAULT_ENTITY_ACCESS, uniqueFieldPaths } from './sanitise';

/** The checked, read-only set of definitions the server and the web trust. */
export interface Registry {
  readonly entities: Readonly<Record<string, EntityDef>>;
  readonly extensions: Readonly<Record<string, ExtensionDef>>;
  readonly features: FeatureCatalogue;
  readonly access: AccessDef;
  readonly deployment: DeploymentDef;
  readonly i18n: Readonly<Partial<Record<Lang, I18nBundle>>>;
  readonly reports: Readonly<Record<string, ReportDef>>;
  /** Dashboard definitions (schemas/dashboards/), by key. */
  readonly dashboards: Readonly<Record<string, DashboardDef>>;
  readonly workflows: Readonly<Record<string, WorkflowDef>>;
  /** The mobile app's features (schemas/mobile.json); none when the file is absent. */
  readonly mobile: MobileDef;
}

/** Every entity has a read-only, unique, required, searchable system id (SPEC 3.1). */
export const ID_FIELD: FieldDef = Object.freeze({
  id: 'id',
  label: { en: 'ID', es: 'ID', fr: 'ID' },
  type: 'string',
  required: true,
  unique: true,
  searchable: true,
  disabled: true,
}) as FieldDef;

export function enabledExtensions(reg: Registry, entity: string): ExtensionDef[] {
  return (reg.deployment.extensions[entity] ?? [])
    .map((name) => reg.extensions[name])
    .filter((e): e is ExtensionDef => e !== undefined && e.base === entity && !e.template);
}

/**
 * Where the authority sync writes a record's sync state, on every entity with `sync` (not a
 * declared field): the lists' Senasa Sync column, the outbox's look for pending records, and
 * the pending-declaration reports filter on it, so it is indexed and may lead a compound index.
 */
export const SYNC_STATUS_PATH = 'sync.status';

/** The label of the object field a record's extension data is stored under (`extensionsField`). */
export const EXTENSIONS_LABEL: LocalText = Object.freeze({ en: 'Extensions', es: 'Extensiones', fr: 'Extensions' });

/**
 * The object field under which a record's extension data is stored. An extension with
 * required fields is itself required (SPEC 3.3), unless `optional` names it: a record of the
 * base entity then needs its section filled on create, update and import alike.
 */
export function extensionsField(extensions: ExtensionDef[], optional: readonly string[] = []): FieldDef | undefined {
  if (extensions.length === 0) return undefined;
  const fields = extensions.map((e) => {
    const required = !optional.includes(e.name) && e.fields.some((f) => f.required);
    return { id: e.name, label: e.label, type: 'object', fields: e.fields, ...(required ? { required } : {}) } as FieldDef;
  });
  const required = fields.some((f) => f.required);
  return {
    id: 'extensions',
    label: EXTENSIONS_LABEL,
    type: 'object',
    fields,
    ...(required ? { required } : {}),
  };
}

/** Enabled extensions a record of `entity` may go without (the deployment's `optionalExtensions`). */
export function optionalExtensions(reg: Registry, entity: string): readonly string[] {
  return reg.deployment.optionalExtensions?.[entity] ?? [];
}

const forms = new WeakMap<Registry, Map<string, FormDef>>();

/** The entity's fields plus its enabled extensions, as one form; built once per registry. */
export function formOf(reg: Registry, entity: string): FormDef | undefined {
  let byName = forms.get(reg);
  if (!byName) forms.set(reg, (byName = new Map()));
  const hit = byName.get(entity);
  if (hit) return hit;
  const def = reg.entities[entity];
  if (!def) return undefined;
  const ext = extensionsField(enabledExtensions(reg, def.name), optionalExtensions(reg, def.name));
  const form: FormDef = {
    name: def.name,
    fields: ext ? [...def.fields, ext] : def.fields,
    keyFields: def.importKeys,
  };
  byName.set(entity, form);
  return form;
}

/** Finds a field by dotted path (`address.city`, `extensions.companyInfo.cuit`) in a form. */
export function fieldAt(fields: readonly FieldDef[], path: string): FieldDef | undefined {
  let list: readonly FieldDef[] | undefined = fields;
  let found: FieldDef | undefined;
  for (const part of path.split('.')) {
    found = list?.find((f) => f.id === part);
    if (!found) return undefined;
    list = found.fields;
  }
  return found;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
