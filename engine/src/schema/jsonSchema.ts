import { localize, type Lang } from '../text';
import type { FieldDef } from '../types';
import type { FormDef } from '../validate/format';
import { maxItemsOf, maxLengthOf } from '../validate/limits';
import { FIELD_TYPES, defaultWidget, type JsonSchema } from '../fields/types';

export type { JsonSchema } from '../fields/types';

export type UiSchema = Record<string, unknown>;

export interface SchemaOptions {
  lang?: Lang;
  /** 'edit' makes immutable fields read-only (SPEC: cuit not editable after creation). */
  purpose?: 'create' | 'edit';
  /** Emit the system id as a read-only property (lists, generated types). */
  includeId?: boolean;
}

function valueSchema(f: FieldDef, o: Required<Pick<SchemaOptions, 'lang'>>): JsonSchema {
  const s: JsonSchema = FIELD_TYPES[f.type].schema(f, (fields) => objectSchema(fields, o));
  if (f.pattern !== undefined) s.pattern = f.pattern;
  if (f.minLength !== undefined) s.minLength = f.minLength;
  if (f.type === 'string') s.maxLength = maxLengthOf(f);
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  if (f.options) {
    s.oneOf = f.options.map((opt) => ({ const: opt.value, title: localize(opt.label, o.lang) }));
  }
  return s;
}

function fieldSchema(f: FieldDef, o: Required<Pick<SchemaOptions, 'lang'>>): JsonSchema {
  const title = localize(f.label, o.lang);
  const inner = valueSchema(f, o);
  const s: JsonSchema = f.multiple ? { type: 'array', items: inner } : inner;
  s.title = title;
  if (f.help) s.description = localize(f.help, o.lang);
  if (f.default !== undefined) s.default = f.default;
  if (f.required && f.multiple) s.minItems = 1;
  if (f.multiple) s.maxItems = maxItemsOf(f);
  if (f.type === 'string' && f.required && !f.options) s.minLength = Math.max(1, f.minLength ?? 1);
  return s;
}

function objectSchema(fields: readonly FieldDef[], o: Required<Pick<SchemaOptions, 'lang'>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of fields) {
    properties[f.id] = fieldSchema(f, o);
    if (f.required) required.push(f.id);
  }
  const s: JsonSchema = { type: 'object', properties };
  if (required.length) s.required = required;
  return s;
}

/** The JSON Schema of a form (entity plus enabled extensions) for @rjsf/core and ajv. */
export function toJsonSchema(form: FormDef, options: SchemaOptions = {}): JsonSchema {
  const o = { lang: options.lang ?? 'en' };
  const s = objectSchema(form.fields, o);
  if (options.includeId) {
    (s.properties as Record<string, JsonSchema>).id = { type: 'string', title: 'ID', readOnly: true };
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: form.name, ...s };
}

function fieldUi(f: FieldDef, options: SchemaOptions): UiSchema {
  const ui: UiSchema = {};
  const widget = defaultWidget(f);
  const uiOptions: Record<string, unknown> = { widget };
  if (f.ref) uiOptions.ref = f.ref;
  if (f.minChars !== undefined) uiOptions.minChars = f.minChars;
  if (f.unit) uiOptions.unit = localize(f.unit, options.lang);
  if (f.fractionDigits !== undefined) uiOptions.fractionDigits = f.fractionDigits;
  if (f.accept) uiOptions.accept = f.accept;
  if (f.maxSizeBytes) uiOptions.maxSizeBytes = f.maxSizeBytes;
  if (f.options?.some((x) => x.disabled)) uiOptions.enumDisabled = f.options.filter((x) => x.disabled).map((x) => x.value);
  if (f.hidden || widget === 'hidden') ui['ui:widget'] = 'hidden';
  if (f.disabled) ui['ui:disabled'] = true;
  if (f.preview || (f.immutable && options.purpose === 'edit')) ui['ui:readonly'] = true;
  ui['ui:options'] = uiOptions;
  if (f.type === 'object' && f.fields) {
    const nested = objectUi(f.fields, options);
    if (f.multiple) ui.items = nested;
    else Object.assign(ui, nested);
  }
  return ui;
}

function objectUi(fields: readonly FieldDef[], options: SchemaOptions): UiSchema {
  const ui: UiSchema = { 'ui:order': [...fields.map((f) => f.id), '*'] };
  for (const f of fields) ui[f.id] = fieldUi(f, options);
  return ui;
}

/** The uiSchema that picks each field's widget from its definition, never from the entity. */
export function toUiSchema(form: FormDef, options: SchemaOptions = {}): UiSchema {
  return objectUi(form.fields, options);
}
