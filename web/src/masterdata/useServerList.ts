import { useCallback, useEffect, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { useDebounced } from './useDebounced';

/** What a list asks the server for: the debounced search, the page, the sorting and its own filters. */
export interface ListRequest<F> {
  q: string;
  pageIndex: number;
  sorting: SortingState;
  filters: F;
}

/**
 * The state of one server-paged list: search (debounced), page, sorting, filters, the answer,
 * its error and loading flag, and a reload. The page goes back to the first whenever what is
 * asked changes, or one of `scope` (the entity, the selected warehouse). `load` runs again on
 * any of those; its identity is not watched, `scope` is.
 */
export function useServerList<F, A>(opts: {
  debounceMs: number;
  initialSearch?: string;
  initialSorting?: SortingState;
  initialFilters: F;
  scope: readonly unknown[];
  load: (request: ListRequest<F>) => Promise<A>;
  errorText: (e: unknown) => string;
  /** Whether a failed reload empties the table (operations) or leaves the rows it had (master data). */
  clearOnError?: boolean;
}) {
  const [search, setSearch] = useState(opts.initialSearch ?? '');
  const [pageIndex, setPageIndex] = useState(0);
  const [sorting, setSorting] = useState<SortingState>(opts.initialSorting ?? []);
  const [filters, setFilters] = useState<F>(opts.initialFilters);
  const [answer, setAnswer] = useState<A | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const q = useDebounced(search, opts.debounceMs);

  // eslint-disable-next-line react-hooks/exhaustive-deps -- scope is the caller's list of what resets the page
  useEffect(() => setPageIndex(0), [q, filters, sorting, ...opts.scope]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    opts.load({ q, pageIndex, sorting, filters })
      .then((a) => { if (live) { setAnswer(a); setError(null); } })
      .catch((e: unknown) => { if (live) { if (opts.clearOnError) setAnswer(null); setError(opts.errorText(e)); } })
      .finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load and errorText are read through scope
  }, [q, pageIndex, sorting, filters, version, ...opts.scope]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { search, setSearch, q, pageIndex, setPageIndex, sorting, setSorting, filters, setFilters, answer, error, loading, reload };
}
