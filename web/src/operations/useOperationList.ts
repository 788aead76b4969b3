import { useCallback, useEffect, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { errorText } from '../api/errorText';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE, sortParam } from '../masterdata/listState';
import { useDebounced } from '../masterdata/useDebounced';
import type { OperationPage, SyncFilter } from './api';
import { useOperation } from './context';
import { stateParam } from './model';

export interface OperationFilters {
  state: string | null;
  from: string;
  to: string;
  deposit: string | null;
  sync: SyncFilter | null;
}

export const NO_FILTERS: OperationFilters = { state: null, from: '', to: '', deposit: null, sync: null };

/** Server paging, sorting, search and the operation filters of one feature's list; fetched again when the warehouse changes. */
export function useOperationList(debounceMs: number) {
  const { view, ops, warehouseName } = useOperation();
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const [sorting, setSorting] = useState<SortingState>([{ id: view.workflow.dateField, desc: true }]);
  const [filters, setFilters] = useState<OperationFilters>(NO_FILTERS);
  const [answer, setAnswer] = useState<OperationPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const q = useDebounced(search, debounceMs);

  useEffect(() => setPageIndex(0), [q, filters, sorting, warehouseName]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    ops.list(view.workflow.name, {
      state: stateParam(view, filters.state), from: filters.from || undefined, to: filters.to || undefined,
      deposit: filters.deposit ?? undefined, depositField: view.operation.depositField, q, sync: filters.sync ?? undefined,
      page: pageIndex + 1, pageSize: PAGE_SIZE, sort: sortParam(sorting),
    })
      .then((a) => { if (live) { setAnswer(a); setError(null); } })
      .catch((e: unknown) => { if (live) { setAnswer(null); setError(errorText(e, t)); } })
      .finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  }, [ops, view, filters, q, pageIndex, sorting, warehouseName, version, t]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { search, setSearch, pageIndex, setPageIndex, sorting, setSorting, filters, setFilters, answer, error, loading, reload };
}
