import { formatError, localize, referenceSites, type EntityDef, type FieldDef, type Lang, type Registry } from '../../../engine/src/index';
import { columnsOf, recordTitle, referencedIds, type ColumnSpec, type RefTitles } from '../../../engine/src/list/index';
import type { ErrorDetail } from '../apiError';
import type { Store } from '../store/types';

type Rec = Record<string, unknown>;
const isKey = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Resolves references to ids. A reference is an id, an object of the target's key fields
 * ({"erp_id": "C000123"}), or — when `byKeyValue` (CSV imports) — a plain value matched
 * against the target's import keys in order. Answers are cached per resolver, so an import
 * of many rows naming the same company asks the store once.
 */
export class ReferenceResolver {
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly reg: Registry, private readonly store: Pick<Store, 'find'>, private readonly options: { byKeyValue?: boolean } = {}) {}

  private keyPaths(target: string): string[] {
    const def = this.reg.entities[target];
    return [...def.importKeys];
  }

  private async findOne(target: string, filter: Rec): Promise<string | null> {
    const cacheKey = `${target}\u0000${JSON.stringify(filter)}`;
    const hit = this.cache.get(cacheKey);
    if (hit !== undefined) return hit;
    const found = await this.store.find(target, { filter, limit: 2 });
    const id = found.length === 1 ? found[0].id : null;
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(cacheKey, id);
    return id;
  }

  /** The id a reference value points to, or null when it names no single record. */
  async resolve(target: string, value: unknown): Promise<string | null> {
    if (isKey(value)) {
      const byId = await this.findOne(target, { id: String(value) });
      if (byId || !this.options.byKeyValue) return byId;
      for (const path of this.keyPaths(target)) {
        const id = await this.findOne(target, { [path]: value });
        if (id) return id;
      }
      return null;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const allowed = new Set(['id', ...this.keyPaths(target)]);
    const filter: Rec = {};
    for (const [k, v] of Object.entries(value as Rec)) {
      if (allowed.has(k) && isKey(v)) filter[k] = k === 'id' ? String(v) : v;
    }
    return Object.keys(filter).length > 0 ? this.findOne(target, filter) : null;
  }

  /** Replaces every reference in a validated record by its id; returns a message for each that names nothing. */
  async resolveAll(fields: readonly FieldDef[], value: Rec): Promise<ErrorDetail[]> {
    const out: ErrorDetail[] = [];
    for (const site of referenceSites(fields, value)) {
      const target = site.field.ref!;
      const id = await this.resolve(target, site.value);
      if (id) site.set(id);
      else out.push({
        field: site.path,
        code: 'FORMAT_REFERENCE_NOT_FOUND',
        message: formatError('FORMAT_REFERENCE_NOT_FOUND', { label: localize(site.field.label), type: target, value: JSON.stringify(site.value).slice(0, 100) }),
      });
    }
    return out;
  }
}

/** One-off resolution for a single record (the master-data API). */
export function resolveReferences(reg: Registry, store: Store, fields: readonly FieldDef[], value: Rec): Promise<ErrorDetail[]> {
  return new ReferenceResolver(reg, store).resolveAll(fields, value);
}

/** Ids read per store query when looking titles up (the stores accept up to 5,000 in one `$in`). */
export const TITLE_BATCH = 1000;

/**
 * The titles of the records that the reference columns of `records` point to, by target
 * entity then id: one store query per target entity (ids batched by TITLE_BATCH), reading
 * only the id and the title field. An id that names no record is left out, so the list
 * shows it as it is.
 */
export async function referenceTitles(reg: Registry, store: Store, cols: readonly ColumnSpec[], records: readonly Rec[], lang: Lang): Promise<RefTitles> {
  const lookups = [...referencedIds(cols, records)].filter(([target]) => Object.hasOwn(reg.entities, target));
  const answers = await Promise.all(lookups.map(async ([target, idSet]) => {
    const def = reg.entities[target];
    const ids = [...idSet];
    const titles: Record<string, string> = {};
    for (let i = 0; i < ids.length; i += TITLE_BATCH) {
      const chunk = ids.slice(i, i + TITLE_BATCH);
      const projection = def.titleField ? { id: 1 as const, [def.titleField]: 1 as const } : { id: 1 as const };
      for (const r of await store.find(target, { filter: { id: { $in: chunk } }, projection, limit: chunk.length })) titles[r.id] = recordTitle(def, r, lang);
    }
    return [target, titles] as const;
  }));
  return Object.fromEntries(answers);
}

/** The titles a page of an entity's list refers to, over all its list columns (those shown and those offered). */
export function listTitles(reg: Registry, store: Store, def: EntityDef, records: readonly Rec[], lang: Lang): Promise<RefTitles> {
  return referenceTitles(reg, store, columnsOf(reg, def.name, lang), records, lang);
}
