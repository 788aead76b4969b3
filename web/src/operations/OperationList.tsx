import { lazy, Suspense, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { type ColumnDef } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { fieldAt, formOf, localize } from '../../../engine/src/index';
import { cellText, columnsOf, recordTitle, referencedIds, type ColumnSpec } from '../../../engine/src/list/index';
import type { Rec } from '../masterdata/api';
import { ServerTable, useServerPagedTable } from '../masterdata/ServerTable';
import { useMasterData } from '../masterdata/useMasterData';
import type { SyncFilter } from './api';
import { useOperation } from './context';
import { FleetFilters } from './FleetFilters';
import { MeasuresPanel } from './MeasuresPanel';
import { locatedRecords, stateBadge, stateOf } from './model';
import { mapSettings } from '../masterdata/widgets/mapLogic';
import { StateBadge } from './StateBadge';
import { useOperationList } from './useOperationList';
import { useTitles } from './useLookups';
import { SyncBadge } from './SyncBadge';

const SYNC_STATES: SyncFilter[] = ['pending', 'synced', 'failed'];

const RecordsMap = lazy(() => import('./RecordsMap'));

/** A feature's records: the entity's list columns, the state as a badge, Senasa Sync when declarable; filters by state, date, deposit and sync. */
export function OperationList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { registry, lang, settings } = useMasterData();
  const { view, warehouse } = useOperation();
  const { workflow, entity } = view;
  const list = useOperationList(settings.picker.debounceMs);
  const declarable = workflow.declarable === true;
  const specs = useMemo(() => columnsOf(registry, entity, lang).filter((c) => !c.optional && (declarable || !c.sync)), [registry, entity, lang, declarable]);
  const dateLabel = localize(fieldAt(formOf(registry, entity)?.fields ?? [], workflow.dateField)?.label ?? workflow.dateField, lang);
  const titles = useTitles(useMemo(() => referencedIds(specs, list.answer?.data ?? []), [specs, list.answer]));

  const columns = useMemo<ColumnDef<Rec>[]>(() => specs.map((c: ColumnSpec): ColumnDef<Rec> => ({
    id: c.path,
    header: c.sync ? t('list.senasaSync') : c.label,
    enableSorting: c.sortable,
    // TanStack sorts (here: lets the header ask the server to) only columns with an accessor.
    accessorFn: (r) => cellText(c, r, lang, titles),
    cell: (info) => {
      const r = info.row.original;
      if (c.path === workflow.stateField) return <StateBadge workflow={workflow} state={r[workflow.stateField]} />;
      if (c.sync) return <SyncBadge record={r} />;
      // Read here, not through getValue: TanStack keeps a row's values while the data is the same, and titles arrive after it.
      const text = cellText(c, r, lang, titles);
      return <span className="tm-cell" title={text || undefined}>{text}</span>;
    },
  })), [specs, lang, titles, t, workflow]);

  const total = list.answer?.total ?? 0;
  const table = useServerPagedTable(list, columns);


  // The fleet's list route filters by age, fill count and customer instead of dates, deposit and sync.
  const fleet = view.measures === 'ibc';
  const f = list.filters;
  const set = (patch: Partial<typeof f>) => list.setFilters({ ...f, ...patch });
  const stateOptions = view.states.map((s) => ({ label: localize(s.label, lang), value: s.id, color: s.color }));
  // A workflow no warehouse narrows (return requests, SPEC 2.1: the shell hides its dropdown there) has no deposit filter.
  const depositOptions = view.depositField && !fleet ? (warehouse?.warehouseList ?? []).map((w) => ({ label: w.name || w.id, value: w.id })) : [];
  const customerEntity = view.measures === 'ibc' ? fieldAt(formOf(registry, entity)?.fields ?? [], 'customer')?.ref : undefined;
  const def = registry.entities[entity];
  const points = useMemo(() => (view.map ? locatedRecords(list.answer?.data ?? [], (r) => recordTitle(def, r, lang), (r) => stateOf(workflow, r)) : []),
    [view.map, list.answer, def, lang, workflow]);
  const map = useMemo(() => mapSettings(settings), [settings]);

  return (
    <div className="tm-md-list tm-op-list" data-testid="operation-list" aria-busy={list.loading}>
      {fleet && <MeasuresPanel />}
      <div className="tm-md-toolbar tm-op-filters">
        <InputText value={list.search} onChange={(e) => list.setSearch(e.target.value)} placeholder={t('masterdata.list.search')} aria-label={t('masterdata.list.search')} data-testid="list-search" />
        {stateOptions.length > 1 && (
          <Dropdown value={f.state} options={stateOptions} showClear placeholder={t('operations.filter.state')} aria-label={t('operations.filter.state')} data-testid="filter-state"
            onChange={(e) => set({ state: (e.value as string | undefined) ?? null })}
            itemTemplate={(o: { label: string; color: string }) => <span className="tm-op-badge" style={{ background: o.color }}>{o.label}</span>} />
        )}
        {!fleet && (
          <>
            <label className="tm-op-date">{t('operations.filter.from', { field: dateLabel })}
              <input type="date" value={f.from} max={f.to || undefined} onChange={(e) => set({ from: e.target.value })} data-testid="filter-from" />
            </label>
            <label className="tm-op-date">{t('operations.filter.to')}
              <input type="date" value={f.to} min={f.from || undefined} onChange={(e) => set({ to: e.target.value })} data-testid="filter-to" />
            </label>
          </>
        )}
        {depositOptions.length > 0 && (
          <Dropdown value={f.deposit} options={depositOptions} showClear placeholder={t('operations.filter.deposit')} aria-label={t('operations.filter.deposit')} data-testid="filter-deposit"
            onChange={(e) => set({ deposit: (e.value as string | undefined) ?? null })} />
        )}
        {declarable && !fleet && (
          <Dropdown value={f.sync} options={SYNC_STATES.map((s) => ({ label: t(`list.sync.${s}`), value: s }))} showClear placeholder={t('list.senasaSync')} aria-label={t('list.senasaSync')} data-testid="filter-sync"
            onChange={(e) => set({ sync: (e.value as SyncFilter | undefined) ?? null })} />
        )}
        {fleet && <FleetFilters value={f.fleet} onChange={(fleet) => set({ fleet })} customerEntity={customerEntity} />}
        {view.create && <Button label={t('masterdata.action.new')} icon="pi pi-plus" onClick={() => navigate('/new')} data-testid="list-new" />}
      </div>
      {list.error && <div className="p-message p-message-error" role="alert" data-testid="list-error">{list.error}</div>}
      {view.map && (
        <Suspense fallback={<div className="tm-md-map tm-op-map" aria-busy="true" />}>
          {points.length === 0 && !list.loading && <p className="tm-op-map__none" data-testid="map-none">{t('operations.map.none')}</p>}
          <RecordsMap points={points} settings={map} label={t('operations.map.label')} onOpen={(id) => navigate(`/${encodeURIComponent(id)}`)}
            describe={(p) => { const b = stateBadge(workflow, p.state, lang); return { title: p.title, state: b.label, color: b.color }; }} />
        </Suspense>
      )}
      <ServerTable table={table} loading={list.loading} total={total} pageIndex={list.pageIndex} onOpen={(id) => navigate(`/${encodeURIComponent(id)}`)} />
    </div>
  );
}
