import type { ListAnswer, MasterDataApi } from './api';
import { listQueryOf, type StateFilter } from './listState';
import { useServerList } from './useServerList';

/** Server-side paging, sorting, debounced search and the state filter of one entity's list (with the titles of referenced records). */
export function useEntityList(md: MasterDataApi, entity: string, debounceMs: number, initialSearch = '') {
  const list = useServerList<StateFilter, ListAnswer>({
    debounceMs, initialSearch, initialFilters: 'active', scope: [md, entity],
    load: ({ q, pageIndex, sorting, filters }) => md.list(entity, { ...listQueryOf({ q, pageIndex, sorting, filter: filters }), titles: true }),
    errorText: (e) => (e as Error).message,
  });
  return { ...list, filter: list.filters, setFilter: list.setFilters };
}
