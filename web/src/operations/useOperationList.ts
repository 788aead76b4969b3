import { errorText } from '../api/errorText';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE, sortParam } from '../masterdata/listState';
import { useServerList } from '../masterdata/useServerList';
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
  return useServerList<OperationFilters, OperationPage>({
    debounceMs, initialSorting: [{ id: view.workflow.dateField, desc: true }], initialFilters: NO_FILTERS, scope: [ops, view, warehouseName, t], clearOnError: true,
    load: ({ q, pageIndex, sorting, filters }) => ops.list(view.workflow.name, {
      state: stateParam(view, filters.state), from: filters.from || undefined, to: filters.to || undefined,
      deposit: filters.deposit ?? undefined, depositField: view.operation.depositField, q, sync: filters.sync ?? undefined,
      page: pageIndex + 1, pageSize: PAGE_SIZE, sort: sortParam(sorting),
    }),
    errorText: (e) => errorText(e, t),
  });
}
