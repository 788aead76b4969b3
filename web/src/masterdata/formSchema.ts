import {
  formOf, prepareRecord, toJsonSchema, toUiSchema, type FieldDef, type FormatResult, type JsonSchema, type Lang, type Registry, type UiSchema,
} from '../../../engine/src/index';
import { FIELD_WIDGETS, LAYOUT_WIDGETS, isRegisteredWidget, lineListField } from './widgets/keys';

export type Purpose = 'create' | 'edit';

export interface BuiltForm {
  schema: JsonSchema;
  uiSchema: UiSchema;
  /** The server's record pipeline run in the browser: `before` is the stored record when editing. */
  validate: (value: unknown, before?: Record<string, unknown>) => FormatResult;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Routes each uiSchema node to its component by `ui:options.widget`: object-valued widgets
 * (picker, address, upload…) become RJSF fields, the rest RJSF widgets; an unknown key gets
 * the explicit fallback. Multiple scalars carry the widget to their items. Never mutates.
 */
export function routeWidgets(schema: JsonSchema, ui: UiSchema): UiSchema {
  const out: Node = { ...ui };
  const options = isNode(ui['ui:options']) ? ui['ui:options'] : undefined;
  const widget = typeof options?.widget === 'string' ? options.widget : undefined;
  const isArray = schema.type === 'array';
  const props = isNode(schema.properties) ? schema.properties : undefined;
  for (const [k, v] of Object.entries(ui)) {
    if (k.startsWith('ui:') || k === 'items' || !isNode(v) || !props || !isNode(props[k])) continue;
    out[k] = routeWidgets(props[k] as JsonSchema, v);
  }
  if (isArray) {
    const items = isNode(schema.items) ? (schema.items as JsonSchema) : {};
    const itemUi = isNode(ui.items) ? ui.items : widget && widget !== 'list' ? { 'ui:options': { ...options } } : {};
    out.items = routeWidgets(items, itemUi);
    // RJSF reads an array's `widget` option as a widget name: lists keep only their layout options.
    const { widget: _w, ...rest } = options ?? {};
    out['ui:options'] = { ...rest, orderable: false };
    const listField = lineListField(out.items);
    if (listField) out['ui:field'] = listField;
    return out;
  }
  if (!widget || out['ui:widget'] === 'hidden') return out;
  if (LAYOUT_WIDGETS.has(widget)) return out;
  if (FIELD_WIDGETS.has(widget)) out['ui:field'] = widget;
  else out['ui:widget'] = isRegisteredWidget(widget) ? widget : 'fallback';
  return out;
}

/** Fields without those at the dotted paths given (`productData.rejected` drops a sub-field). */
export function withoutPaths(fields: readonly FieldDef[], paths: ReadonlySet<string>, prefix = ''): FieldDef[] {
  return fields
    .filter((f) => !paths.has(prefix + f.id))
    .map((f) => (f.fields ? { ...f, fields: withoutPaths(f.fields, paths, `${prefix}${f.id}.`) } : f));
}

/**
 * The form of an entity (fields plus enabled extensions as sections), ready for RJSF; `omit`
 * leaves out fields a screen does not ask for (an operation's state and history).
 */
export function buildForm(registry: Registry, entity: string, lang: Lang, purpose: Purpose, omit: readonly string[] = []): BuiltForm | undefined {
  const full = formOf(registry, entity);
  if (!full) return undefined;
  // Secret fields (password hashes) never reach a form; the server strips them from reads too.
  const hidden = new Set([...(registry.entities[entity]?.secretFields ?? []), ...omit]);
  const form = hidden.size ? { ...full, fields: withoutPaths(full.fields, hidden) } : full;
  const schema = toJsonSchema(form, { lang, purpose });
  delete schema.title; // the screen titles the form; RJSF would repeat the entity's name
  const uiSchema = routeWidgets(schema, toUiSchema(form, { lang, purpose }));
  uiSchema['ui:submitButtonOptions'] = { norender: true };
  // The same pipeline as the server: defaults on create, extensions, immutable fields on edit.
  return { schema, uiSchema, validate: (value, before) => prepareRecord(registry, entity, value, { lang, before: purpose === 'edit' ? before : undefined }) };
}

export interface ErrorTree {
  __errors?: string[];
  [key: string]: ErrorTree | string[] | undefined;
}

export interface FieldMessage {
  field?: string;
  message: string;
}

/** Messages to RJSF's error schema: each under its dotted path (`input_materials.0.quantity`). */
export function toErrorSchema(messages: readonly FieldMessage[]): ErrorTree {
  const root: ErrorTree = {};
  for (const m of messages) {
    let node = root;
    for (const part of m.field ? m.field.split('.') : []) {
      const next = node[part];
      node = (isNode(next) ? next : (node[part] = {})) as ErrorTree;
    }
    (node.__errors ??= []).push(m.message);
  }
  return root;
}

/**
 * The engine's messages to show now: while typing, only what concerns a value the user has
 * given (a "mandatory" message waits for the first save); after a save attempt, all errors.
 */
export function visibleMessages(result: FormatResult, submitted: boolean, text: (m: FormatResult['messages'][number]) => string = (m) => m.message): FieldMessage[] {
  return result.messages
    .filter((m) => m.severity === 'error' && (submitted || m.code !== 'FORMAT_MANDATORY'))
    .map((m) => ({ field: m.field, message: text(m) }));
}

/** Drops empty strings and empty objects the form leaves behind, so "absent" stays absent. */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty).filter((v) => v !== undefined);
  if (!isNode(value)) return value === '' ? undefined : value;
  const out: Node = {};
  for (const [k, v] of Object.entries(value)) {
    const p = pruneEmpty(v);
    if (p === undefined || (isNode(p) && Object.keys(p).length === 0)) continue;
    out[k] = p;
  }
  return out;
}
