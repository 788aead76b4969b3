import { errorText } from '../api/errorText';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE, sortParam } from '../masterdata/listState';
import { useServerList, type ListRequest } from '../masterdata/useServerList';
import type { OperationPage, OperationQuery, SyncFilter } from './api';
import { useOperation } from './context';
import { fleetQuery, NO_FLEET_FILTERS, type FleetFilters } from './fleet';
import { stateParam, type OperationView } from './model';

export interface OperationFilters {
  state: string | null;
  from: string;
  to: string;
  deposit: string | null;
  sync: SyncFilter | null;
  /** Sent only where the feature shows the IBC fleet (`measures: "ibc"`). */
  fleet: FleetFilters;
}

export const NO_FILTERS: OperationFilters = { state: null, from: '', to: '', deposit: null, sync: null, fleet: NO_FLEET_FILTERS };

/**
 * The list call of a feature's list state: its states, search, page and sorting; on the fleet
 * (`measures: "ibc"`, read from the IBC list route) the fleet filters, elsewhere the dates,
 * deposit and sync the generic list serves.
 */
export function listQuery(view: Pick<OperationView, 'operation' | 'measures'>, { q, pageIndex, sorting, filters }: ListRequest<OperationFilters>): OperationQuery {
  const own = view.measures === 'ibc' ? fleetQuery(filters.fleet) : {
    from: filters.from || undefined, to: filters.to || undefined,
    deposit: filters.deposit ?? undefined, depositField: view.operation.depositField, sync: filters.sync ?? undefined,
  };
  return { state: stateParam(view, filters.state), q, ...own, page: pageIndex + 1, pageSize: PAGE_SIZE, sort: sortParam(sorting) };
}

/** Server paging, sorting, search and the operation filters of one feature's list; fetched again when the warehouse changes. */
export function useOperationList(debounceMs: number) {
  const { view, ops, warehouseName } = useOperation();
  const { t } = useTranslation();
  return useServerList<OperationFilters, OperationPage>({
    debounceMs, initialSorting: [{ id: view.workflow.dateField, desc: true }], initialFilters: NO_FILTERS, scope: [ops, view, warehouseName, t], clearOnError: true,
    load: (request) => ops.list(view.listPath, listQuery(view, request)),
    errorText: (e) => errorText(e, t),
  });
}
