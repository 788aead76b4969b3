import { EngineError, formatError, type ErrorCode } from '../errors';
import { localize, type Lang } from '../text';
import type { FieldDef } from '../types';
import { maxItemsOf } from './limits';
import { isRecord } from './values';
// A value left out of the output: absent, or reported as wrong.
import { FIELD_TYPES, INVALID as MISSING, type CheckContext, type CheckKit } from '../fields/types';
import { SYSTEM_KEYS as SYSTEM_KEY_LIST } from '../records/systemKeys';

export type Mode = 'form' | 'import';
export type Severity = 'error' | 'warn';

export interface ValidationMessage {
  severity: Severity;
  code: ErrorCode;
  message: string;
  /** Dotted path of the field concerned (absent for record-level messages). */
  field?: string;
  params: Record<string, unknown>;
  primaryKey?: string;
}

export interface FormatResult {
  success: boolean;
  isReference: boolean;
  messages: ValidationMessage[];
  primaryKey?: string;
  /** The value as it will be stored: multiple fields split, numeric strings parsed, unknown keys dropped. */
  value?: unknown;
}

export interface FormatOptions {
  mode?: Mode;
  lang?: Lang;
}

/** A form as the validator sees it: a name for messages and a field list. */
export interface FormDef {
  name: string;
  fields: FieldDef[];
  /** Fields whose values identify a record in messages when it has no id yet. */
  keyFields?: readonly string[];
}

interface Ctx extends CheckContext {
  mode: Mode;
  lang: Lang;
  messages: ValidationMessage[];
  /** Indices of the list rows being checked, outermost first; they fill the `#` of paths. */
  rows: number[];
}

/** A compiled check: paths are fixed at compile time, with `#` standing for list-row indices. */
type Check = (value: unknown, ctx: Ctx) => unknown;

/** Keys every stored record may carry besides its definition's fields. */
const SYSTEM_KEYS = new Set<string>(SYSTEM_KEY_LIST);

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function providedType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v.length > 200 ? `${v.slice(0, 200)}…` : v;
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

function report(ctx: Ctx, severity: Severity, code: ErrorCode, path: string | undefined, params: Record<string, unknown>): void {
  let field = path;
  if (field !== undefined && field.includes('#')) {
    let i = 0;
    field = field.replace(/#/g, () => String(ctx.rows[i++]));
  }
  ctx.messages.push({ severity, code, message: formatError(code, params), field, params });
}

/** A value that says something: not empty, and not a list or object of empty values only. */
function hasContent(v: unknown): boolean {
  if (isEmpty(v)) return false;
  if (Array.isArray(v)) return v.some(hasContent);
  if (isRecord(v)) return Object.values(v).some(hasContent);
  return true;
}

function optionMatcher(field: FieldDef): ((v: unknown) => { found: boolean; value: unknown; disabled: boolean }) | undefined {
  if (!field.options) return undefined;
  // CSV and query strings carry "1" for 1: options match on their text form.
  const byText = new Map(field.options.map((o) => [String(o.value), o]));
  return (v) => {
    const o = byText.get(String(v));
    return o ? { found: true, value: o.value, disabled: o.disabled === true } : { found: false, value: v, disabled: false };
  };
}

/** One value's check: its type's, from the field-type table, reporting at this path. */
function compileValue(field: FieldDef, formName: string, path: string): Check {
  const labelOf = (ctx: Ctx) => localize(field.label, ctx.lang);
  const fail = (ctx: Ctx, code: ErrorCode, params: Record<string, unknown>): typeof MISSING => {
    report(ctx, 'error', code, path, params);
    return MISSING;
  };
  const options = optionMatcher(field);
  const kit: CheckKit<Ctx> = {
    formName,
    label: labelOf,
    show,
    wrongType: (v, ctx) => fail(ctx, 'FORMAT_WRONG_TYPE', { label: labelOf(ctx), value: show(v), type: field.type, provided: providedType(v) }),
    fail,
    option: (v, ctx) => {
      if (!options) return v;
      const m = options(v);
      return m.found ? m.value : fail(ctx, 'FORMAT_OPTION', { label: labelOf(ctx), value: show(v) });
    },
    fields: (f) => compileFieldList(f.fields ?? [], formName, false, path),
  };
  return FIELD_TYPES[field.type].check(field, kit);
}

function compileField(field: FieldDef, formName: string, path: string): Check {
  const itemPath = field.multiple ? `${path}.#` : path;
  const single = compileValue(field, formName, itemPath);
  const labelOf = (ctx: Ctx) => localize(field.label, ctx.lang);
  // A required section (an enabled extension) that is absent says which of its own required
  // fields are missing, rather than only that the section is.
  const delegates = field.required && !field.multiple && field.fields?.some((f) => f.required) === true;
  const mandatory = (ctx: Ctx) => {
    if (delegates) single({}, ctx);
    else if (field.required && !(ctx.mode === 'import' && field.optionalOnImport)) {
      report(ctx, 'error', 'FORMAT_MANDATORY', path, { label: labelOf(ctx) });
    }
    return MISSING;
  };
  if (!field.multiple) {
    return (v, ctx) => (isEmpty(v) ? mandatory(ctx) : single(v, ctx));
  }
  const splittable = field.type !== 'object';
  const maxItems = maxItemsOf(field);
  return (v, ctx) => {
    if (isEmpty(v)) return mandatory(ctx);
    let items: unknown[];
    if (Array.isArray(v)) items = v;
    else if (typeof v === 'string' && splittable) items = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
    else items = [v];
    if (items.length === 0) return mandatory(ctx);
    if (items.length > maxItems) {
      report(ctx, 'error', 'FORMAT_TOO_MANY', path, { label: labelOf(ctx), limit: maxItems });
      return MISSING;
    }
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (isEmpty(item)) continue;
      ctx.rows.push(i);
      const r = single(item, ctx);
      ctx.rows.pop();
      if (r !== MISSING) out.push(r);
    }
    return out;
  };
}

function compileFieldList(fields: FieldDef[], formName: string, top: boolean, prefix: string): (v: Record<string, unknown>, ctx: Ctx) => Record<string, unknown> {
  const checks = fields.map((f) => [f.id, compileField(f, formName, prefix ? `${prefix}.${f.id}` : f.id)] as const);
  const known = new Set(fields.map((f) => f.id));
  return (v, ctx) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < checks.length; i++) {
      const [id, check] = checks[i];
      const r = check(v[id], ctx);
      if (r !== MISSING) out[id] = r;
    }
    for (const key in v) {
      if (known.has(key)) continue;
      if (top && SYSTEM_KEYS.has(key)) {
        out[key] = v[key];
        continue;
      }
      const fieldPath = prefix ? `${prefix}.${key}` : key;
      report(ctx, 'warn', 'FORMAT_UNKNOWN_FIELD', fieldPath, { field: fieldPath, entity: formName });
    }
    return out;
  };
}

export type CompiledForm = (value: unknown, options?: FormatOptions) => FormatResult;

const cache = new WeakMap<object, CompiledForm>();

/**
 * Compiles a form's fields once into a chain of closures, so validating a record walks no
 * definition and allocates only its output (the reason it keeps up with compiled ajv).
 */
export function compileForm(form: FormDef): CompiledForm {
  if (!Array.isArray(form.fields)) {
    throw new EngineError('INVALID_FORM', { type: providedType(form.fields) });
  }
  const hit = cache.get(form);
  if (hit) return hit;
  const check = compileFieldList(form.fields, form.name, true, '');
  // Fields a default fills (state…) say nothing about the record: without a value in one of
  // the others, `{}` would store a blank record wherever the only required field has a default.
  const contentFields = form.fields.filter((f) => f.default === undefined).map((f) => f.id);
  const keyFields = (form.keyFields ?? []).map((k) => k.split('.'));
  const compiled: CompiledForm = (value, options = {}) => {
    const ctx: Ctx = { mode: options.mode ?? 'form', lang: options.lang ?? 'en', messages: [], rows: [] };
    if (typeof value === 'string') {
      report(ctx, 'warn', 'FORMAT_REFERENCE_STRING', undefined, { entity: form.name });
      return { success: true, isReference: true, messages: ctx.messages, primaryKey: value, value };
    }
    if (!isRecord(value)) {
      report(ctx, 'error', 'FORMAT_NOT_OBJECT', undefined, { entity: form.name, provided: providedType(value) });
      return { success: false, isReference: false, messages: ctx.messages };
    }
    const out = check(value, ctx);
    // Only when nothing else is wrong: a missing required field already says what to fill in.
    if (!ctx.messages.some((m) => m.severity === 'error') && contentFields.length > 0 && !contentFields.some((id) => hasContent(value[id]))) {
      report(ctx, 'error', 'FORMAT_EMPTY_RECORD', undefined, { entity: form.name });
    }
    const primaryKey = primaryKeyOf(value, keyFields);
    let success = true;
    for (const m of ctx.messages) {
      if (primaryKey !== undefined) m.primaryKey = primaryKey;
      if (m.severity === 'error') success = false;
    }
    return { success, isReference: false, messages: ctx.messages, primaryKey, value: out };
  };
  cache.set(form, compiled);
  return compiled;
}

function primaryKeyOf(value: Record<string, unknown>, keyFields: string[][]): string | undefined {
  if (typeof value.id === 'string' || typeof value.id === 'number') return String(value.id);
  for (const parts of keyFields) {
    let v: unknown = value;
    for (const part of parts) v = isRecord(v) ? v[part] : undefined;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/** The form helper of SPEC 5: validates a value against a bare field list. */
export function validateFields(fields: unknown, value: unknown, options?: FormatOptions & { name?: string }): FormatResult {
  if (!Array.isArray(fields)) throw new EngineError('INVALID_FORM', { type: providedType(fields) });
  return compileForm({ name: options?.name ?? 'record', fields: fields as FieldDef[] })(value, options);
}
