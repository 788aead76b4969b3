/**
 * Everything an import of one file needs to know about its entity, computed once: the compiled
 * validator, the import keys, the other unique fields, the row builder and the way back from a
 * field path in a message to the column it came from.
 */
import { createHash } from 'node:crypto';
import {
  collectionSpec, compileForm, defaultsFiller, fieldAt, formOf, localize, type CompiledForm, type EntityDef, type FieldDef, type Registry,
} from '../../../engine/src/index';
import type { WriteHooks } from '../records/writeHooks';
import type { MappedColumn } from './columns';
import { rowBuilder, type RowBuilder } from './rows';

export interface RecordKey {
  /** Which import key matched (its index in keyPaths) and its value, as one string. */
  key: string;
  index: number;
  path: string;
  value: string | number | boolean;
}

export interface ImportContext {
  reg: Registry;
  def: EntityDef;
  entity: string;
  kind: 'master' | 'event';
  fields: FieldDef[];
  compiled: CompiledForm;
  /** Import keys, tried in order: the first one a record has a value for identifies it. */
  keyPaths: string[];
  /** Single-field unique keys besides the import keys: checked against the store before writing. */
  uniquePaths: string[];
  columns: readonly MappedColumn[];
  builder: RowBuilder;
  /** The header of the column a field path (as the engine reports it) came from. */
  columnOf(field: string | undefined): string;
  labelOf(path: string): string;
  keyOf(value: unknown): RecordKey | undefined;
  /** The key of import key `index` with this value (keyOf's result, from what a staged row kept of it). */
  recordKey(index: number, value: string | number | boolean): RecordKey;
  /** A compiled reader of a dotted path. */
  getter(path: string): (value: unknown) => unknown;
  /** Gives missing fields their defaults, in place; returns the paths it filled. */
  fillDefaults(value: Record<string, unknown>): string[];
  /** The record with its derived fields current (writeHooks.ts); absent where nothing is derived (a dry run's worker). */
  derive?(record: Record<string, unknown>): Record<string, unknown>;
}

/** Reads a dotted path with its segments split once, not on every row. */
export function pathGetter(path: string): (value: unknown) => unknown {
  const segs = path.split('.');
  return (value) => {
    let v = value;
    for (let i = 0; i < segs.length; i++) {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
      v = (v as Record<string, unknown>)[segs[i]];
    }
    return v;
  };
}

const isKeyValue = (v: unknown): v is string | number | boolean =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** An event entity without import keys is only ever added to; every other entity is matched by its keys. */
export const importKind = (def: EntityDef): 'master' | 'event' => (def.kind === 'event' && !def.importKeys.length ? 'event' : 'master');

export function importContext(reg: Registry, entity: string, columns: readonly MappedColumn[], width: number, hooks?: WriteHooks): ImportContext {
  const def = reg.entities[entity];
  const form = formOf(reg, entity)!;
  const kind = importKind(def);
  const keyPaths = kind === 'master' ? [...def.importKeys] : [];
  const uniquePaths = collectionSpec(reg, entity).uniqueKeys.filter((k) => k.length === 1 && !keyPaths.includes(k[0])).map((k) => k[0]);

  const byPath = new Map<string, string>();
  for (const c of columns) {
    const t = c.target;
    byPath.set(t.kind === 'rowCell' ? `${t.path}.${t.index}.${t.sub}` : t.path, c.header);
  }
  const columnOf = (field: string | undefined): string => {
    if (!field) return '';
    const segs = field.split('.');
    for (let n = segs.length; n > 0; n--) {
      const hit = byPath.get(segs.slice(0, n).join('.'));
      if (hit !== undefined) return hit;
    }
    return '';
  };
  const labelOf = (path: string) => {
    const f = fieldAt(form.fields, path.split('.').filter((s) => !/^\d+$/.test(s)).join('.'));
    return f ? localize(f.label) : path;
  };
  const getters = new Map<string, (value: unknown) => unknown>();
  const getter = (path: string) => {
    let g = getters.get(path);
    if (!g) getters.set(path, (g = pathGetter(path)));
    return g;
  };
  const keyGetters = keyPaths.map(getter);
  const recordKey = (index: number, value: string | number | boolean): RecordKey =>
    ({ key: `${index}\u0000${String(value)}`, index, path: keyPaths[index], value });
  const keyOf = (value: unknown): RecordKey | undefined => {
    for (let i = 0; i < keyPaths.length; i++) {
      const v = keyGetters[i](value);
      if (isKeyValue(v)) return recordKey(i, v);
    }
    return undefined;
  };
  return {
    reg, def, entity, kind, fields: form.fields, compiled: compileForm(form), keyPaths, uniquePaths, columns,
    builder: rowBuilder(columns, width), columnOf, labelOf, keyOf, recordKey, getter, fillDefaults: defaultsFiller(form.fields),
    ...(hooks?.has(entity) ? { derive: (record: Record<string, unknown>) => hooks.apply(entity, record) } : {}),
  };
}

/** JSON with keys sorted at every level: the same event always gives the same text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * An event's id is a hash of its content (26 Crockford base32 characters, like other ids):
 * importing the same event again finds it instead of storing it twice.
 */
export function eventId(entity: string, value: unknown): string {
  const h = createHash('sha256').update(entity).update('\u0000').update(canonicalJson(value)).digest();
  let out = '';
  for (let i = 0; i < 26; i++) {
    const bit = i * 5;
    const byte = bit >> 3;
    const word = (h[byte] << 8) | h[byte + 1];
    out += B32[(word >> (11 - (bit & 7))) & 31];
  }
  return out;
}
