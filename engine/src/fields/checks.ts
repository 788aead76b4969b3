/**
 * The format check and the text parse of each field type, as the field-type table
 * (`./types`) lists them. A check is compiled once per field into a closure, so a value costs
 * what it did when these lived in the validator's own switch: these run for every cell of
 * every imported row.
 */
import type { ErrorCode } from '../errors';
import type { Lang } from '../text';
import type { FieldDef } from '../types';
import { maxLengthOf } from '../validate/limits';
import { isRecord } from '../validate/values';

/** What a check or a parse returns for a value that is not one of its type. */
export const INVALID: unique symbol = Symbol('invalid');
export type Invalid = typeof INVALID;

/** What a check needs of the validation under way. */
export interface CheckContext {
  /** On import, cells are text: booleans may be written as words ("yes", "sí"). */
  readonly mode: 'form' | 'import';
  readonly lang: Lang;
}

/** One value in, the value as stored out (or INVALID, after reporting why). */
export type ValueCheck<C extends CheckContext> = (value: unknown, ctx: C) => unknown;

/** What the validator lends a type's check: how to report at this field's path. */
export interface CheckKit<C extends CheckContext> {
  /** The name of the form, which a reference without a target entity names in its message. */
  readonly formName: string;
  label(ctx: C): string;
  /** A value as a message quotes it (cut at 200 characters). */
  show(value: unknown): string;
  /** SPEC 5's "{label} : {value} must be a {type}, {provided} provided". */
  wrongType(value: unknown, ctx: C): Invalid;
  /** Reports an error at this field's path. */
  fail(ctx: C, code: ErrorCode, params: Record<string, unknown>): Invalid;
  /** The stored value of one of the field's options (the value itself when it has none). */
  option(value: unknown, ctx: C): unknown;
  /** The check of an object's own fields, compiled at this field's path. */
  fields(field: FieldDef): (value: Record<string, unknown>, ctx: C) => Record<string, unknown>;
}

/** Compiles a field's check; generic so the validator's own context flows through untouched. */
export type CheckCompiler = <C extends CheckContext>(field: FieldDef, kit: CheckKit<C>) => ValueCheck<C>;

/** The typed value a text (a CSV cell, a form's input) stands for, or INVALID. */
export type TextParse = (field: FieldDef, text: string) => unknown;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'si', 'sí']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);
const FILE_KEYS = ['id', 'name', 'size', 'contentType'] as const;

function fractionDigitsOf(n: number): number {
  if (Number.isInteger(n)) return 0;
  const s = String(n);
  const e = s.indexOf('e-');
  if (e >= 0) return Number(s.slice(e + 2)) + (s.indexOf('.') >= 0 ? e - s.indexOf('.') - 1 : 0);
  return s.length - s.indexOf('.') - 1;
}

export const parseText: TextParse = (_f, text) => text;

/** Numeric strings stand for their number, in a form as in a file (SPEC 5's one exemption). */
export const parseNumber: TextParse = (_f, text) => {
  if (text.trim() === '') return INVALID;
  const n = Number(text);
  return Number.isFinite(n) ? n : INVALID;
};

export const parseBoolean: TextParse = (_f, text) => {
  const w = text.trim().toLowerCase();
  return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : INVALID;
};

/** An ISO date (a time after it is dropped), of a day the calendar has. */
export const parseDate: TextParse = (f, text) => {
  const m = ISO_DATE.exec(text);
  const t = m ? Date.parse(f.type === 'date' ? `${m[1]}-${m[2]}-${m[3]}` : text) : NaN;
  if (!m || Number.isNaN(t) || new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() !== +m[3]) return INVALID;
  return f.type === 'date' ? `${m[1]}-${m[2]}-${m[3]}` : text;
};

/** A list of rows written as one JSON cell: an array of objects, or one object standing for a one-row list. */
export const parseRows: TextParse = (f, text) => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return INVALID;
  }
  if (Array.isArray(v) && v.every(isRecord)) return v;
  if (isRecord(v)) return f.multiple ? [v] : v;
  return INVALID;
};

/** Text within its length bounds and pattern, one of its options when it has some. A number is not text (SPEC 5). */
export const checkText: CheckCompiler = (f, k) => {
  const pattern = f.pattern !== undefined ? new RegExp(f.pattern) : undefined;
  const maxLength = maxLengthOf(f);
  return (v, ctx) => {
    // A spreadsheet's codes reach here as strings already.
    if (typeof v !== 'string') return k.wrongType(v, ctx);
    if (f.minLength !== undefined && v.length < f.minLength) return k.fail(ctx, 'FORMAT_TOO_SHORT', { label: k.label(ctx), limit: f.minLength });
    if (v.length > maxLength) return k.fail(ctx, 'FORMAT_TOO_LONG', { label: k.label(ctx), limit: maxLength });
    if (pattern && !pattern.test(v)) return k.fail(ctx, 'FORMAT_PATTERN', { label: k.label(ctx), value: k.show(v) });
    return k.option(v, ctx);
  };
};

/** A finite number (or numeric string) within min, max and fraction digits; an integer for integer fields. */
export function checkNumber<C extends CheckContext>(f: FieldDef, k: CheckKit<C>): ValueCheck<C> {
  const inRange = (n: number, raw: unknown, ctx: C): unknown => {
    if (f.type === 'integer' && !Number.isInteger(n)) return k.wrongType(raw, ctx);
    if (f.min !== undefined && n < f.min) return k.fail(ctx, 'FORMAT_TOO_SMALL', { label: k.label(ctx), value: k.show(raw), limit: f.min });
    if (f.max !== undefined && n > f.max) return k.fail(ctx, 'FORMAT_TOO_LARGE', { label: k.label(ctx), value: k.show(raw), limit: f.max });
    if (f.fractionDigits !== undefined && fractionDigitsOf(n) > f.fractionDigits) {
      return k.fail(ctx, 'FORMAT_FRACTION_DIGITS', { label: k.label(ctx), value: k.show(raw), digits: f.fractionDigits });
    }
    return k.option(n, ctx);
  };
  return (v, ctx) => {
    if (typeof v === 'number') return Number.isFinite(v) ? inRange(v, v, ctx) : k.wrongType(v, ctx);
    if (typeof v === 'string') {
      const n = parseNumber(f, v);
      if (n !== INVALID) return inRange(n as number, v, ctx);
    }
    return k.wrongType(v, ctx);
  };
}

/** true or false; on import also the words a spreadsheet uses ("yes", "no", "sí"…). */
export const checkBoolean: CheckCompiler = (f, k) => (v, ctx) => {
  if (typeof v === 'boolean') return v;
  if (ctx.mode === 'import' && typeof v === 'string') {
    const b = parseBoolean(f, v);
    if (b !== INVALID) return b;
  }
  return k.wrongType(v, ctx);
};

/** An ISO date or date-time; a date is stored as YYYY-MM-DD. */
export const checkDate: CheckCompiler = (f, k) => (v, ctx) => {
  if (typeof v !== 'string') return k.wrongType(v, ctx);
  const d = parseDate(f, v);
  return d === INVALID ? k.fail(ctx, 'FORMAT_PATTERN', { label: k.label(ctx), value: k.show(v) }) : d;
};

/** An id, an import key or an embedded record: which record it names is resolved later. */
export const checkReference: CheckCompiler = (f, k) => (v, ctx) => {
  if (typeof v === 'string' || typeof v === 'number' || isRecord(v)) return v;
  return k.fail(ctx, 'FORMAT_INVALID_REFERENCE', { label: k.label(ctx), type: f.ref ?? k.formName });
};

function pickFileKeys(v: Record<string, unknown>): Record<string, unknown> | Invalid {
  const out: Record<string, unknown> = {};
  for (const key of FILE_KEYS) {
    const x = v[key];
    if (typeof x === 'string' || typeof x === 'number') out[key] = x;
  }
  return Object.keys(out).length > 0 ? out : INVALID;
}

/**
 * Exempt from the type check (SPEC 5): an upload id, a URL or file metadata. Only the
 * metadata keys are kept so no foreign keys ride into the store inside a file value.
 */
export const checkFile: CheckCompiler = () => (v) => (isRecord(v) ? pickFileKeys(v) : typeof v === 'string' || typeof v === 'number' ? v : INVALID);

/** An object checked field by field; one whose definition lists no fields holds text. */
export const checkObject: CheckCompiler = (f, k) => {
  if (!f.fields) return checkText(f, k);
  const inner = k.fields(f);
  return (v, ctx) => (isRecord(v) ? inner(v, ctx) : k.wrongType(v, ctx));
};
