import type { SortingState } from '@tanstack/react-table';
import type { ListQuery } from './api';

export type StateFilter = 'active' | 'disabled' | 'all';

export const PAGE_SIZE = 20;

export function stateParam(filter: StateFilter): 1 | 3 | undefined {
  return filter === 'active' ? 1 : filter === 'disabled' ? 3 : undefined;
}

/** TanStack sorting state to the API's `sort=field,-other`. */
export function sortParam(sorting: SortingState): string | undefined {
  const s = sorting.map((x) => (x.desc ? `-${x.id}` : x.id)).join(',');
  return s || undefined;
}

/** The list call of a table state: page index is 0-based in the table, 1-based in the API. */
export function listQueryOf(s: { q: string; pageIndex: number; sorting: SortingState; filter: StateFilter }): ListQuery {
  return { q: s.q, page: s.pageIndex + 1, pageSize: PAGE_SIZE, sort: sortParam(s.sorting), state: stateParam(s.filter) };
}
