import type { EntityDef, FieldDef, Registry } from '../../../engine/src/index';
import { enabledExtensions } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { Filter, SortSpec } from '../store/types';

export interface ListQuery {
  q?: string;
  page?: number;
  pageSize?: number;
  sort?: string;
  state?: number;
}

export const MIN_SEARCH_CHARS = 2;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

function paths(fields: readonly FieldDef[], prefix: string, pick: (f: FieldDef) => boolean, out: string[]): string[] {
  for (const f of fields) {
    const p = prefix ? `${prefix}.${f.id}` : f.id;
    if (f.fields && !f.multiple) paths(f.fields, p, pick, out);
    else if (pick(f)) out.push(p);
  }
  return out;
}

function allFields(reg: Registry, def: EntityDef): { fields: readonly FieldDef[]; prefix: string }[] {
  return [{ fields: def.fields, prefix: '' }, ...enabledExtensions(reg, def.name).map((e) => ({ fields: e.fields, prefix: `extensions.${e.name}` }))];
}

export function sortablePaths(reg: Registry, def: EntityDef): Set<string> {
  const out = ['id', 'createdAt', 'updatedAt'];
  for (const { fields, prefix } of allFields(reg, def)) paths(fields, prefix, (f) => (f.sortable || f.searchable || f.id === def.titleField || f.id === 'state') === true && !f.multiple && f.type !== 'object', out);
  return new Set(out);
}

/** Builds the store filter and sort from a list query; only declared paths ever reach the store. */
export function buildListQuery(reg: Registry, def: EntityDef, query: ListQuery): { filter: Filter; search?: string; sort: SortSpec; skip: number; limit: number; page: number; pageSize: number } {
  const and: Filter[] = [];
  const q = query.q?.trim();
  const search = q && q.length >= MIN_SEARCH_CHARS ? q : undefined;
  if (query.state !== undefined) and.push({ state: query.state });
  const sortable = sortablePaths(reg, def);
  const sort: SortSpec = {};
  for (const raw of (query.sort ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const desc = raw.startsWith('-');
    const path = desc ? raw.slice(1) : raw;
    if (!sortable.has(path)) throw new ApiError('INVALID_REQUEST', { detail: `cannot sort ${def.name} by "${path.slice(0, 60)}"; sortable: ${[...sortable].join(', ')}` });
    sort[path] = desc ? -1 : 1;
  }
  if (Object.keys(sort).length === 0 && def.titleField && sortable.has(def.titleField)) sort[def.titleField] = 1;
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { filter: and.length === 0 ? {} : and.length === 1 ? and[0] : { $and: and }, search, sort, skip: (page - 1) * pageSize, limit: pageSize, page, pageSize };
}
