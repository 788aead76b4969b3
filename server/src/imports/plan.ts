/**
 * What writing a batch of valid rows would do: insert, update or leave each record as it is.
 * The dry run counts the plan; the commit carries it out (apply.ts) inside the transaction
 * that read it.
 *
 * "Unchanged" compares the record's data, never its metadata: the stored record without
 * id/createdAt/updatedAt/createdBy/updatedBy/sync against the same record with the row's
 * cells applied. Re-importing a file therefore counts every row unchanged and writes nothing.
 */
import { creationStamp, formatError, immutableChanges, stampUpdate, SYSTEM_KEYS } from '../../../engine/src/index';
import { arrayPaths, sameJson } from '../store/docs';
import { newId } from '../store/ids';
import type { Doc, SerializedDoc, Store, StoredDoc } from '../store/types';
import { validateDocument } from '../store/validate';
import type { ImportContext, RecordKey } from './context';
import type { RejectedRow } from './jobs';
import { removePaths } from './rows';

type Rec = Record<string, unknown>;

/** A valid row, as the validation phase stages it: its row number, cleaned value, defaulted paths. */
export interface Staged {
  r: number;
  /** The cleaned value, without the keys the server sets (SYSTEM_KEYS: a file never sets them). */
  v: Rec;
  /** Paths filled from defaults: used for a new record, left alone on an existing one. */
  d?: string[];
  /** Events: the content-hash id. */
  id?: string;
  /** Ready to stage (readyToStage): the import key (its index in keyPaths, its value)… */
  k?: [number, string | number | boolean];
  /** …the paths at which v holds arrays… */
  a?: string[];
  /** …and v as JSON, which an insert writes as it is. */
  text?: string;
}

export interface Plan {
  inserts: { row: number; doc: SerializedDoc }[];
  /** Where the inserted documents hold arrays (the store's queries must know). */
  arrays: Set<string>;
  updates: { row: number; id: string; before: StoredDoc; doc: Doc }[];
  unchanged: number;
  rejected: RejectedRow[];
}

const LOOKUP_CHUNK = 500;

/**
 * Makes checked rows ready to stage: the keys the server sets dropped, the value checked as the
 * store checks a document, its import key and array paths noted and, for a commit, its JSON
 * written once, so that writing it later needs neither the value nor a second serialisation.
 * Returns the rows the store would refuse, with why.
 */
/** The server-set keys dropped from a staged row's value and the paths it holds arrays at noted (`scratch`: a Set to reuse). */
export function noteValue(s: Staged, scratch: Set<string> = new Set()): void {
  if (SYSTEM_KEYS.some((k) => Object.hasOwn(s.v, k))) s.v = dataOf(s.v);
  arrayPaths(s.v, '', scratch);
  if (scratch.size > 0) {
    s.a = [...scratch];
    scratch.clear();
  }
}

export function readyToStage(ctx: ImportContext, rows: readonly Staged[], serialise: boolean): { ready: Staged[]; refused: { row: number; reason: string }[] } {
  const ready: Staged[] = [];
  const refused: { row: number; reason: string }[] = [];
  const arrays = new Set<string>(); // one for the batch: most rows hold no array
  for (const s of rows) {
    noteValue(s, arrays);
    try {
      validateDocument(s.v);
    } catch (e) {
      refused.push({ row: s.r, reason: (e as Error).message });
      continue;
    }
    const key = ctx.kind === 'master' ? ctx.keyOf(s.v) : undefined;
    if (key) s.k = [key.index, key.value];
    if (serialise) s.text = JSON.stringify(s.v);
    ready.push(s);
  }
  return { ready, refused };
}

/**
 * The JSON of a new record: the row's value (its text when staged) with its id and `extra`
 * (metadata) spliced in. Where the entity derives fields, the value is read and derived first.
 */
function insertJson(ctx: ImportContext, id: string, s: Staged, extra: string): string {
  const derived = ctx.derive?.(s.v);
  const body = derived && derived !== s.v ? JSON.stringify(derived) : s.text ?? JSON.stringify(s.v);
  return `{"id":${JSON.stringify(id)},${body.length > 2 ? `${body.slice(1, -1)},` : ''}${extra}}`;
}

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

async function findIn(store: Pick<Store, 'find'>, coll: string, path: string, values: unknown[]): Promise<StoredDoc[]> {
  const out: StoredDoc[] = [];
  for (let i = 0; i < values.length; i += LOOKUP_CHUNK) {
    out.push(...(await store.find(coll, { filter: { [path]: { $in: values.slice(i, i + LOOKUP_CHUNK) } } })));
  }
  return out;
}

/** Stored records by import key (the same key string keyOf gives a row). */
async function existingByKey(store: Pick<Store, 'find'>, ctx: ImportContext, keys: readonly (RecordKey | undefined)[]): Promise<Map<string, StoredDoc[]>> {
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
export async function planBatch(store: Pick<Store, 'find'>, ctx: ImportContext, staged: readonly Staged[], actor: string, now: string, countOnly = false): Promise<Plan> {
  const plan: Plan = { inserts: [], arrays: new Set(), updates: [], unchanged: 0, rejected: [] };
  const { sync: _sync, ...meta } = creationStamp(ctx.def, actor, now);
  // Staged values never hold these keys (readyToStage), so splicing them in cannot repeat one.
  const metaJson = JSON.stringify(meta).slice(1, -1);
  const insert = (s: Staged, id: string, extra: string) => {
    if (countOnly) {
      plan.inserts.push({ row: s.r, doc: undefined as never });
      return;
    }
    plan.inserts.push({ row: s.r, doc: { id, json: insertJson(ctx, id, s, extra) } });
    for (const a of s.a ?? []) plan.arrays.add(a);
  };
  if (ctx.kind === 'event') {
    const ids = staged.map((s) => s.id!);
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const docs = await store.find(ctx.entity, { filter: { id: { $in: ids.slice(i, i + LOOKUP_CHUNK) } }, projection: { id: 1 } });
      for (const d of docs) found.add(d.id);
    }
    for (const s of staged) {
      if (found.has(s.id!)) plan.unchanged++;
      else insert(s, s.id!, metaJson);
    }
    return plan;
  }
  const newJson = JSON.stringify(creationStamp(ctx.def, actor, now)).slice(1, -1);
  const keys = staged.map((s) => (s.k ? ctx.recordKey(s.k[0], s.k[1]) : ctx.keyOf(s.v)));
  const existing = await existingByKey(store, ctx, keys);
  for (let i = 0; i < staged.length; i++) {
    const s = staged[i];
    const key = keys[i];
    // No import key (an entity without one): nothing to match, the row is new.
    if (!key) {
      insert(s, newId(), newJson);
      continue;
    }
    const matches = existing.get(key.key) ?? [];
    if (matches.length > 1) {
      const label = ctx.labelOf(key.path);
      plan.rejected.push({ row: s.r, messages: [{ column: ctx.columnOf(key.path), field: key.path, code: 'IMPORT_KEY_AMBIGUOUS', message: formatError('IMPORT_KEY_AMBIGUOUS', { label, value: key.value, count: matches.length }), params: { label, value: key.value, count: matches.length } }] });
      continue;
    }
    if (matches.length === 0) {
      insert(s, newId(), newJson);
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
    const changed = immutableChanges(ctx.fields, before, merged);
    if (changed.length > 0) {
      plan.rejected.push({ row: s.r, messages: changed.map((m) => ({ column: ctx.columnOf(m.field), field: m.field, code: m.code, message: m.message, params: m.params })) });
      continue;
    }
    const doc = stampUpdate(ctx.reg, ctx.def, before, merged, actor, now) as Doc;
    // Derived after the stamp, which keeps the server's fields as they were.
    plan.updates.push({ row: s.r, id: before.id, before, doc: (ctx.derive?.(doc) as Doc | undefined) ?? doc });
  }
  return plan;
}
