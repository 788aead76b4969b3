import { EngineError, formatError, type ErrorCode } from '../errors';
import { localize, type Lang } from '../text';
import type { FieldDef } from '../types';
import { maxItemsOf, maxLengthOf } from './limits';
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

interface Ctx {
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
const MISSING = Symbol('missing');
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'si', 'sí']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
  if (isPlainObject(v)) return Object.values(v).some(hasContent);
  return true;
}

function fractionDigitsOf(n: number): number {
  if (Number.isInteger(n)) return 0;
  const s = String(n);
  const e = s.indexOf('e-');
  if (e >= 0) return Number(s.slice(e + 2)) + (s.indexOf('.') >= 0 ? e - s.indexOf('.') - 1 : 0);
  return s.length - s.indexOf('.') - 1;
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

function compileScalar(field: FieldDef, formName: string, path: string): Check {
  const labelOf = (ctx: Ctx) => localize(field.label, ctx.lang);
  const wrong = (v: unknown, ctx: Ctx, type: string = field.type) => {
    report(ctx, 'error', 'FORMAT_WRONG_TYPE', path, { label: labelOf(ctx), value: show(v), type, provided: providedType(v) });
    return MISSING;
  };
  const pattern = field.pattern !== undefined ? new RegExp(field.pattern) : undefined;
  const maxLength = maxLengthOf(field);
  const options = optionMatcher(field);
  const checkOption = (v: unknown, ctx: Ctx): unknown => {
    if (!options) return v;
    const m = options(v);
    if (!m.found) {
      report(ctx, 'error', 'FORMAT_OPTION', path, { label: labelOf(ctx), value: show(v) });
      return MISSING;
    }
    return m.value;
  };
  const checkNumber = (n: number, raw: unknown, ctx: Ctx): unknown => {
    if (field.type === 'integer' && !Number.isInteger(n)) return wrong(raw, ctx);
    if (field.min !== undefined && n < field.min) {
      report(ctx, 'error', 'FORMAT_TOO_SMALL', path, { label: labelOf(ctx), value: show(raw), limit: field.min });
      return MISSING;
    }
    if (field.max !== undefined && n > field.max) {
      report(ctx, 'error', 'FORMAT_TOO_LARGE', path, { label: labelOf(ctx), value: show(raw), limit: field.max });
      return MISSING;
    }
    if (field.fractionDigits !== undefined && fractionDigitsOf(n) > field.fractionDigits) {
      report(ctx, 'error', 'FORMAT_FRACTION_DIGITS', path, { label: labelOf(ctx), value: show(raw), digits: field.fractionDigits });
      return MISSING;
    }
    return checkOption(n, ctx);
  };

  switch (field.type) {
    case 'reference':
      return (v, ctx) => {
        if (typeof v === 'string' || typeof v === 'number' || isPlainObject(v)) return v;
        report(ctx, 'error', 'FORMAT_INVALID_REFERENCE', path, { label: labelOf(ctx), type: field.ref ?? formName });
        return MISSING;
      };
    case 'file':
      // Exempt from the type check (SPEC 5): an upload id, a URL or file metadata. Only the
      // metadata keys are kept so no foreign keys ride into the store inside a file value.
      return (v) => (isPlainObject(v) ? pickFileKeys(v) : typeof v === 'string' || typeof v === 'number' ? v : MISSING);
    case 'number':
    case 'integer':
      return (v, ctx) => {
        if (typeof v === 'number') return Number.isFinite(v) ? checkNumber(v, v, ctx) : wrong(v, ctx);
        if (typeof v === 'string' && v.trim() !== '') {
          const n = Number(v);
          if (Number.isFinite(n)) return checkNumber(n, v, ctx);
        }
        return wrong(v, ctx);
      };
    case 'boolean':
      return (v, ctx) => {
        if (typeof v === 'boolean') return v;
        if (ctx.mode === 'import' && typeof v === 'string') {
          const w = v.trim().toLowerCase();
          if (TRUE_WORDS.has(w)) return true;
          if (FALSE_WORDS.has(w)) return false;
        }
        return wrong(v, ctx);
      };
    case 'date':
    case 'datetime':
      return (v, ctx) => {
        if (typeof v !== 'string') return wrong(v, ctx);
        const m = ISO_DATE.exec(v);
        const t = m ? Date.parse(field.type === 'date' ? `${m[1]}-${m[2]}-${m[3]}` : v) : NaN;
        if (!m || Number.isNaN(t) || new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() !== +m[3]) {
          report(ctx, 'error', 'FORMAT_PATTERN', path, { label: labelOf(ctx), value: show(v) });
          return MISSING;
        }
        return field.type === 'date' ? `${m[1]}-${m[2]}-${m[3]}` : v;
      };
    default:
      return (v, ctx) => {
        // A number is not text (SPEC 5): a spreadsheet's codes reach here as strings already.
        if (typeof v !== 'string') return wrong(v, ctx);
        const s = v;
        if (field.minLength !== undefined && s.length < field.minLength) {
          report(ctx, 'error', 'FORMAT_TOO_SHORT', path, { label: labelOf(ctx), limit: field.minLength });
          return MISSING;
        }
        if (s.length > maxLength) {
          report(ctx, 'error', 'FORMAT_TOO_LONG', path, { label: labelOf(ctx), limit: maxLength });
          return MISSING;
        }
        if (pattern && !pattern.test(s)) {
          report(ctx, 'error', 'FORMAT_PATTERN', path, { label: labelOf(ctx), value: show(s) });
          return MISSING;
        }
        return checkOption(s, ctx);
      };
  }
}

const FILE_KEYS = ['id', 'name', 'size', 'contentType'] as const;

function pickFileKeys(v: Record<string, unknown>): Record<string, unknown> | typeof MISSING {
  const out: Record<string, unknown> = {};
  for (const k of FILE_KEYS) {
    const x = v[k];
    if (typeof x === 'string' || typeof x === 'number') out[k] = x;
  }
  return Object.keys(out).length > 0 ? out : MISSING;
}

function compileField(field: FieldDef, formName: string, path: string): Check {
  const itemPath = field.multiple ? `${path}.#` : path;
  const single: Check = field.type === 'object' && field.fields
    ? compileObject(field, formName, itemPath)
    : compileScalar(field, formName, itemPath);
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

function compileObject(field: FieldDef, formName: string, path: string): Check {
  const inner = compileFieldList(field.fields ?? [], formName, false, path);
  return (v, ctx) => {
    if (!isPlainObject(v)) {
      report(ctx, 'error', 'FORMAT_WRONG_TYPE', path, {
        label: localize(field.label, ctx.lang), value: show(v), type: 'object', provided: providedType(v),
      });
      return MISSING;
    }
    return inner(v, ctx);
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
    if (!isPlainObject(value)) {
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
    for (const part of parts) v = isPlainObject(v) ? v[part] : undefined;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return undefined;
}

/** The form helper of SPEC 5: validates a value against a bare field list. */
export function validateFields(fields: unknown, value: unknown, options?: FormatOptions & { name?: string }): FormatResult {
  if (!Array.isArray(fields)) throw new EngineError('INVALID_FORM', { type: providedType(fields) });
  return compileForm({ name: options?.name ?? 'record', fields: fields as FieldDef[] })(value, options);
}
