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

/** The list call of a feature's list state: its states, dates, deposit, sync, the fleet filters where it shows the fleet, page and sorting. */
export function listQuery(view: Pick<OperationView, 'operation' | 'measures'>, { q, pageIndex, sorting, filters }: ListRequest<OperationFilters>): OperationQuery {
  return {
    state: stateParam(view, filters.state), from: filters.from || undefined, to: filters.to || undefined,
    deposit: filters.deposit ?? undefined, depositField: view.operation.depositField, q, sync: filters.sync ?? undefined,
    ...(view.measures === 'ibc' ? fleetQuery(filters.fleet) : {}),
    page: pageIndex + 1, pageSize: PAGE_SIZE, sort: sortParam(sorting),
  };
}

/** Server paging, sorting, search and the operation filters of one feature's list; fetched again when the warehouse changes. */
export function useOperationList(debounceMs: number) {
  const { view, ops, warehouseName } = useOperation();
  const { t } = useTranslation();
  return useServerList<OperationFilters, OperationPage>({
    debounceMs, initialSorting: [{ id: view.workflow.dateField, desc: true }], initialFilters: NO_FILTERS, scope: [ops, view, warehouseName, t], clearOnError: true,
    load: (request) => ops.list(view.workflow.name, listQuery(view, request)),
    errorText: (e) => errorText(e, t),
  });
}
