import type { FieldDef } from '../types';

type Rec = Record<string, unknown>;
/** A plain object (not null, not an array): a record, or a row or section of one. */
export const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ReferenceSite {
  path: string;
  field: FieldDef;
  value: unknown;
  /** Replaces the value at this site in the walked object (used to store the resolved id). */
  set(v: unknown): void;
}

/** Visits every reference value in a (validated) record, inside objects and lists of rows. */
export function referenceSites(fields: readonly FieldDef[], value: Rec, prefix = ''): ReferenceSite[] {
  const out: ReferenceSite[] = [];
  for (const f of fields) {
    const v = value[f.id];
    if (v === undefined || v === null) continue;
    const path = prefix ? `${prefix}.${f.id}` : f.id;
    if (f.type === 'reference') {
      if (f.multiple && Array.isArray(v)) {
        v.forEach((item, i) => out.push({ path: `${path}.${i}`, field: f, value: item, set: (x) => { v[i] = x; } }));
      } else {
        out.push({ path, field: f, value: v, set: (x) => { value[f.id] = x; } });
      }
    } else if (f.fields) {
      if (f.multiple && Array.isArray(v)) v.forEach((row, i) => { if (isRecord(row)) out.push(...referenceSites(f.fields!, row, `${path}.${i}`)); });
      else if (isRecord(v)) out.push(...referenceSites(f.fields, v, path));
    }
  }
  return out;
}

/** Reads a dotted path. */
export function getPath(value: unknown, path: string): unknown {
  return getParts(value, path.split('.'));
}

/** Reads a dotted path already split (a caller reading one path on many values splits it once). */
export function getParts(value: unknown, parts: readonly string[]): unknown {
  let v = value;
  for (const part of parts) v = isRecord(v) ? v[part] : undefined;
  return v;
}
