/**
 * What writing a batch of valid rows would do: insert, update or leave each record as it is.
 * The dry run counts the plan; the commit carries it out (apply.ts) inside the transaction
 * that read it.
 *
 * "Unchanged" compares the record's data, never its metadata: the stored record without
 * id/createdAt/updatedAt/createdBy/updatedBy/sync against the same record with the row's
 * cells applied. Re-importing a file therefore counts every row unchanged and writes nothing.
 */
import { formatError } from '../../../engine/src/index';
import { sameJson } from '../store/docs';
import { newId } from '../store/ids';
import type { Doc, JsonValue, Store, StoredDoc } from '../store/types';
import { SYSTEM_KEYS, type ImportContext, type RecordKey } from './context';
import type { RejectedRow } from './jobs';
import { removePaths } from './rows';

type Rec = Record<string, unknown>;

/** A valid row, as the validation phase stages it: its row number, cleaned value, defaulted paths. */
export interface Staged {
  r: number;
  v: Rec;
  /** Paths filled from defaults: used for a new record, left alone on an existing one. */
  d?: string[];
  /** Events: the content-hash id. */
  id?: string;
}

export interface Plan {
  inserts: { row: number; doc: Doc & { id: string } }[];
  updates: { row: number; id: string; before: StoredDoc; doc: Doc }[];
  unchanged: number;
  rejected: RejectedRow[];
}

const LOOKUP_CHUNK = 500;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored record without what the server sets: what a file's row is compared with. */
export function dataOf(doc: Rec): Rec {
  const out: Rec = { ...doc };
  for (const k of SYSTEM_KEYS) delete out[k];
  return out;
}

/** Objects merge field by field; a value or a list from the file replaces the stored one. */
export function mergeInto(base: Rec, patch: Rec): Rec {
  const out: Rec = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = isRec(v) && isRec(base[k]) ? mergeInto(base[k] as Rec, v) : v;
  return out;
}

async function findIn(store: Store, coll: string, path: string, values: unknown[]): Promise<StoredDoc[]> {
  const out: StoredDoc[] = [];
  for (let i = 0; i < values.length; i += LOOKUP_CHUNK) {
    out.push(...(await store.find(coll, { filter: { [path]: { $in: values.slice(i, i + LOOKUP_CHUNK) } } })));
  }
  return out;
}

/** Stored records by import key (the same key string keyOf gives a row). */
async function existingByKey(store: Store, ctx: ImportContext, keys: readonly (RecordKey | undefined)[]): Promise<Map<string, StoredDoc[]>> {
  const byPath = new Map<string, Set<unknown>>();
  for (const k of keys) {
    if (!k) continue;
    let set = byPath.get(k.path);
    if (!set) byPath.set(k.path, (set = new Set()));
    set.add(k.value);
  }
  const out = new Map<string, StoredDoc[]>();
  for (const [path, values] of byPath) {
    const index = ctx.keyPaths.indexOf(path);
    for (const doc of await findIn(store, ctx.entity, path, [...values])) {
      const v = ctx.getter(path)(doc);
      const key = `${index}\u0000${String(v)}`;
      const list = out.get(key);
      if (list) list.push(doc);
      else out.set(key, [doc]);
    }
  }
  return out;
}

/** countOnly (the dry run): the same decisions, without building the documents to write. */
export async function planBatch(store: Store, ctx: ImportContext, staged: readonly Staged[], actor: string, now: string, countOnly = false): Promise<Plan> {
  const plan: Plan = { inserts: [], updates: [], unchanged: 0, rejected: [] };
  const meta = { createdAt: now, updatedAt: now, createdBy: actor, updatedBy: actor };
  if (ctx.kind === 'event') {
    const ids = staged.map((s) => s.id!);
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const docs = await store.find(ctx.entity, { filter: { id: { $in: ids.slice(i, i + LOOKUP_CHUNK) } }, projection: { id: 1 } });
      for (const d of docs) found.add(d.id);
    }
    for (const s of staged) {
      if (found.has(s.id!)) plan.unchanged++;
      else plan.inserts.push({ row: s.r, doc: countOnly ? (undefined as never) : { ...(s.v as Doc), ...meta, id: s.id! } });
    }
    return plan;
  }
  const keys = staged.map((s) => ctx.keyOf(s.v));
  const existing = await existingByKey(store, ctx, keys);
  for (let i = 0; i < staged.length; i++) {
    const s = staged[i];
    const key = keys[i]!;
    const matches = existing.get(key.key) ?? [];
    if (matches.length > 1) {
      const label = ctx.labelOf(key.path);
      plan.rejected.push({ row: s.r, messages: [{ column: ctx.columnOf(key.path), field: key.path, code: 'IMPORT_KEY_AMBIGUOUS', message: formatError('IMPORT_KEY_AMBIGUOUS', { label, value: key.value, count: matches.length }), params: { label, value: key.value, count: matches.length } }] });
      continue;
    }
    if (matches.length === 0) {
      if (countOnly) {
        plan.inserts.push({ row: s.r, doc: undefined as never });
        continue;
      }
      const doc = { ...(s.v as Doc), ...meta, id: newId() } as Doc & { id: string };
      if (ctx.def.sync) doc.sync = { status: '' };
      plan.inserts.push({ row: s.r, doc });
      continue;
    }
    const before = matches[0];
    const base = dataOf(before);
    const patch = s.d && s.d.length > 0 ? removePaths(structuredClone(s.v), s.d) : s.v;
    const merged = mergeInto(base, patch);
    if (sameJson(merged, base)) {
      plan.unchanged++;
      continue;
    }
    const doc: Doc = { ...(merged as Doc), updatedAt: now, updatedBy: actor };
    for (const k of ['createdAt', 'createdBy', 'sync'] as const) if (before[k] !== undefined) doc[k] = before[k] as JsonValue;
    plan.updates.push({ row: s.r, id: before.id, before, doc });
  }
  return plan;
}
