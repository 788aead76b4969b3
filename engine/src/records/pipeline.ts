/**
 * One record pipeline for every writer (the master-data API, CSV imports, the web form):
 * strip what a client never writes, apply defaults on create, validate with the compiled
 * form (extensions included), refuse changes to immutable fields, stamp the system keys.
 * Pure: references and uniqueness, which need the store, stay with the caller.
 */
import { formatError } from '../errors';
import { formOf, type Registry } from '../registry/registry';
import { localize, type Lang } from '../text';
import type { EntityDef, FieldDef } from '../types';
import { compileForm, type FormatResult, type Mode, type ValidationMessage } from '../validate/format';
import { getPath, isRecord } from '../validate/values';
import { SYSTEM_KEYS } from './systemKeys';

type Rec = Record<string, unknown>;

/** Fields a client never writes: the definition's secret fields, and its server fields (a last sign-in), which are kept on update and dropped on create. */
export function clientBarredFields(def: EntityDef): string[] {
  return [...def.secretFields, ...def.serverFields];
}

/** The body without the fields a client never writes (anything but an object is returned as is). */
export function stripBarred(def: EntityDef, body: unknown): unknown {
  const barred = clientBarredFields(def);
  if (!barred.length || !isRecord(body)) return body;
  const out: Rec = { ...body };
  for (const s of barred) delete out[s];
  return out;
}

/**
 * Gives missing fields their declared default, in place, and returns the paths it filled
 * outside lists of rows (an import's update leaves those as stored: the file said nothing of
 * them). Compiled once: only the parts of the definition that hold a default are walked.
 */
export function defaultsFiller(fields: readonly FieldDef[]): (value: Rec) => string[] {
  type Step = (value: Rec, prefix: string, filled: string[] | undefined) => void;
  const compile = (fs: readonly FieldDef[]): Step | undefined => {
    const steps: Step[] = [];
    for (const f of fs) {
      const inner = f.fields ? compile(f.fields) : undefined;
      if (f.default === undefined && !inner) continue;
      steps.push((value, prefix, filled) => {
        const v = value[f.id];
        if ((v === undefined || v === null) && f.default !== undefined) {
          value[f.id] = structuredClone(f.default);
          filled?.push(prefix ? `${prefix}.${f.id}` : f.id);
        } else if (inner && !f.multiple && isRecord(v)) {
          inner(v, prefix ? `${prefix}.${f.id}` : f.id, filled);
        } else if (inner && f.multiple && Array.isArray(v)) {
          // Defaults inside list rows belong to the rows given: not tracked.
          for (const row of v) if (isRecord(row)) inner(row, '', undefined);
        }
      });
    }
    return steps.length > 0 ? (value, prefix, filled) => { for (const s of steps) s(value, prefix, filled); } : undefined;
  };
  const root = compile(fields);
  return (value) => {
    const filled: string[] = [];
    root?.(value, '', filled);
    return filled;
  };
}

const fillers = new WeakMap<readonly FieldDef[], (value: Rec) => string[]>();

/** A copy of the value with each missing field given its declared default (nested objects too). */
export function applyDefaults(fields: readonly FieldDef[], value: Rec): Rec {
  let fill = fillers.get(fields);
  if (!fill) fillers.set(fields, (fill = defaultsFiller(fields)));
  const out = structuredClone(value);
  fill(out);
  return out;
}

/** One message per immutable field whose stored value `after` changes (SPEC 3.3: CUIT). */
export function immutableChanges(fields: readonly FieldDef[], before: Rec, after: Rec, lang: Lang = 'en'): ValidationMessage[] {
  const out: ValidationMessage[] = [];
  const walk = (fs: readonly FieldDef[], p: string) => {
    for (const f of fs) {
      const path = p ? `${p}.${f.id}` : f.id;
      if (f.immutable) {
        const was = getPath(before, path);
        if (was !== undefined && was !== null && was !== '' && JSON.stringify(was) !== JSON.stringify(getPath(after, path))) {
          const params = { label: localize(f.label, lang) };
          out.push({ severity: 'error', code: 'FORMAT_IMMUTABLE', message: formatError('FORMAT_IMMUTABLE', params), field: path, params });
        }
      }
      if (f.fields && !f.multiple) walk(f.fields, path);
    }
  };
  walk(fields, '');
  return out;
}

export interface PrepareOptions {
  /** The stored record: an update (no defaults; immutable fields checked against it). */
  before?: Rec;
  lang?: Lang;
  mode?: Mode;
}

/**
 * What a write of `body` would store, and every reason it cannot: the same answer for
 * `/validate`, create, update and the browser. The value is the engine's cleaned value.
 */
export function prepareRecord(reg: Registry, entity: string, body: unknown, options: PrepareOptions = {}): FormatResult & { value: Rec } {
  const def = reg.entities[entity];
  const form = formOf(reg, entity)!;
  const compiled = compileForm(form);
  const { before, lang, mode } = options;
  const input = stripBarred(def, body);
  if (!isRecord(input)) {
    // SPEC 5: a bare string is a reference (success, isReference); never a record to write.
    return { ...compiled(input, { lang, mode }), value: {} };
  }
  const r = compiled(before ? input : applyDefaults(form.fields, input), { lang, mode });
  const value = (r.value ?? {}) as Rec;
  if (before) {
    const changed = immutableChanges(form.fields, before, value, lang);
    if (changed.length > 0) return { ...r, success: false, messages: [...r.messages, ...changed], value };
  }
  return { ...r, value };
}

/** The keys a new record is stamped with. */
export function creationStamp(def: EntityDef, actor: string, now: string): Rec {
  const out: Rec = { createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor };
  if (def.sync) out.sync = { status: '' };
  return out;
}

/** A new record as stored: the value without system keys a client sent, stamped (no id: the store gives it). */
export function stampCreate(def: EntityDef, value: Rec, actor: string, now: string): Rec {
  const doc: Rec = { ...value };
  for (const k of SYSTEM_KEYS) delete doc[k];
  return { ...doc, ...creationStamp(def, actor, now) };
}

/**
 * An updated record as stored: what a client may not set (creation keys, sync state, secret
 * and server-owned fields, extensions the deployment no longer enables) carried over from
 * the stored record, and the update stamped.
 */
export function stampUpdate(reg: Registry, def: EntityDef, before: Rec, value: Rec, actor: string, now: string): Rec {
  const doc: Rec = { ...value };
  for (const k of ['createdAt', 'createdBy', 'sync', ...clientBarredFields(def)]) {
    if (before[k] !== undefined) doc[k] = before[k];
    else delete doc[k];
  }
  const stored = before.extensions;
  if (isRecord(stored)) {
    const enabled = new Set(reg.deployment.extensions[def.name] ?? []);
    const kept = Object.fromEntries(Object.entries(stored).filter(([k]) => !enabled.has(k)));
    if (Object.keys(kept).length > 0) doc.extensions = { ...(isRecord(doc.extensions) ? doc.extensions : {}), ...kept };
  }
  delete doc.id;
  doc.updatedAt = now;
  doc.updatedBy = actor;
  return doc;
}
