import { DEFAULT_PAGE_SIZE, MIN_SEARCH_CHARS, type EntityDef, type ListQuery, type Registry } from '../../../engine/src/index';
import { sortablePaths } from '../../../engine/src/list/index';
import { ApiError } from '../apiError';
import type { Filter, SortSpec } from '../store/types';

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
