import { useCallback, useEffect, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import type { ListAnswer, MasterDataApi } from './api';
import { listQueryOf, type StateFilter } from './listState';
import { useDebounced } from './useDebounced';

/** Server-side paging, sorting, debounced search and the state filter of one entity's list (with the titles of referenced records). */
export function useEntityList(md: MasterDataApi, entity: string, debounceMs: number, initialSearch = '') {
  const [search, setSearch] = useState(initialSearch);
  const [pageIndex, setPageIndex] = useState(0);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState<StateFilter>('active');
  const [answer, setAnswer] = useState<ListAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const q = useDebounced(search, debounceMs);

  useEffect(() => setPageIndex(0), [q, filter, sorting, entity]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    md.list(entity, { ...listQueryOf({ q, pageIndex, sorting, filter }), titles: true })
      .then((a) => { if (live) { setAnswer(a); setError(null); } })
      .catch((e: Error) => { if (live) setError(e.message); })
      .finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  }, [md, entity, q, pageIndex, sorting, filter, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { search, setSearch, q, pageIndex, setPageIndex, sorting, setSorting, filter, setFilter, answer, error, loading, reload };
}
