import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { type ColumnDef, type VisibilityState } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { ConfirmDialog, confirmDialog } from 'primereact/confirmdialog';
import { InputText } from 'primereact/inputtext';
import { SelectButton } from 'primereact/selectbutton';
import { MultiSelect } from 'primereact/multiselect';
import type { Rec } from './api';
import { localize } from '../../../engine/src/index';
import { cellText, columnsOf, recordTitle, type ColumnSpec } from '../../../engine/src/list/index';
import { type StateFilter } from './listState';
import { useEntityList } from './useEntityList';
import { useMasterData } from './useMasterData';
import { CsvExportButton } from './CsvExportButton';
import { ServerTable, useServerPagedTable } from './ServerTable';

export interface EntityListProps {
  entity: string;
  /** Where this entity's screens live: `/masterdata/company` or `/user-management`. */
  basePath: string;
  /** Extra per-row actions (users: reset password). */
  rowActions?: (record: Rec, reload: () => void) => ReactNode;
}

/** The generated list of one entity: TanStack Table state, PrimeReact controls, the server pages. */
export function EntityList({ entity, basePath, rowActions }: EntityListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { md, registry, lang, settings } = useMasterData();
  // `?q=` deep links open the list already filtered.
  const [params] = useSearchParams();
  const list = useEntityList(md, entity, settings.picker.debounceMs, params.get('q') ?? '');
  const specs = useMemo(() => columnsOf(registry, entity, lang), [registry, entity, lang]);
  const [visibility, setVisibility] = useState<VisibilityState>(() => Object.fromEntries(specs.filter((c) => c.optional).map((c) => [c.path, false])));
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const act = (id: string, run: () => Promise<unknown>) => {
    setBusy(id);
    setActionError(null);
    run().then(list.reload, (e: Error) => setActionError(e.message)).finally(() => setBusy(null));
  };

  /** Disabling takes a record out of every picker: it is confirmed first. */
  const confirmDisable = (record: Rec) => {
    const id = String(record.id);
    const def = registry.entities[entity];
    const title = recordTitle(def, record, lang);
    confirmDialog({
      header: t('masterdata.disable.header', { entity: def ? localize(def.label, lang) : entity }),
      message: t('masterdata.disable.message', { title }),
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: t('masterdata.action.disable'),
      rejectLabel: t('masterdata.action.cancel'),
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: () => act(id, () => md.disable(entity, id)),
    });
  };

  // A reference cell shows its record's title, which the list call answers with the page.
  const titles = list.answer?.titles;
  const columns = useMemo<ColumnDef<Rec>[]>(() => [
    ...specs.map((c: ColumnSpec): ColumnDef<Rec> => ({
      id: c.path,
      header: c.label,
      enableSorting: c.sortable,
      accessorFn: (r) => cellText(c, r, lang, titles),
      cell: (info) => {
        const text = c.sync ? String(info.getValue() || t('masterdata.sync.pending')) : String(info.getValue() ?? '');
        // Long texts are cut to the column's width; the whole text is the tooltip.
        return <span className="tm-cell" title={text || undefined} data-sync={c.sync ? String(info.getValue() || 'pending') : undefined}>{text}</span>;
      },
    })),
    {
      id: '_actions',
      header: t('masterdata.list.actions'),
      enableSorting: false,
      enableHiding: false,
      cell: ({ row }) => {
        const id = String(row.original.id);
        const disabled = row.original.state === 3;
        return (
          <span className="tm-row-actions">
            <Button icon="pi pi-pencil" text rounded aria-label={t('masterdata.action.edit')} data-testid="row-edit" onClick={() => navigate(`${basePath}/${encodeURIComponent(id)}`)} />
            {disabled
              ? <Button icon="pi pi-check-circle" text rounded aria-label={t('masterdata.action.enable')} data-testid="row-enable" disabled={busy === id} onClick={() => act(id, () => md.enable(entity, id))} />
              : <Button icon="pi pi-ban" text rounded severity="danger" aria-label={t('masterdata.action.disable')} data-testid="row-disable" disabled={busy === id} onClick={() => confirmDisable(row.original)} />}
            {rowActions?.(row.original, list.reload)}
          </span>
        );
      },
    },
  ], [specs, lang, titles, t, basePath, busy, md, entity, rowActions, list.reload, navigate, registry]);

  const total = list.answer?.total ?? 0;
  const table = useServerPagedTable(list, columns, { enableMultiSort: true, visibility: { columnVisibility: visibility }, onColumnVisibilityChange: setVisibility });

  const filters: { label: string; value: StateFilter }[] = [
    { label: t('masterdata.filter.active'), value: 'active' },
    { label: t('masterdata.filter.disabled'), value: 'disabled' },
    { label: t('masterdata.filter.all'), value: 'all' },
  ];
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());

  return (
    <div className="tm-md-list" data-testid="entity-list" data-entity={entity} aria-busy={list.loading}>
      <div className="tm-md-toolbar">
        <span className="p-input-icon-left">
          <InputText value={list.search} onChange={(e) => list.setSearch(e.target.value)} placeholder={t('masterdata.list.search')} aria-label={t('masterdata.list.search')} data-testid="list-search" />
        </span>
        <SelectButton value={list.filter} options={filters} onChange={(e) => e.value && list.setFilter(e.value as StateFilter)} data-testid="state-filter" allowEmpty={false} />
        <MultiSelect
          value={hideable.filter((c) => c.getIsVisible()).map((c) => c.id)}
          options={hideable.map((c) => ({ label: String(c.columnDef.header), value: c.id }))}
          onChange={(e) => setVisibility(Object.fromEntries(hideable.map((c) => [c.id, (e.value as string[]).includes(c.id)])))}
          placeholder={t('masterdata.list.columns')} aria-label={t('masterdata.list.columns')} maxSelectedLabels={0} selectedItemsLabel={t('masterdata.list.columns')} data-testid="column-picker"
        />
        <CsvExportButton entity={entity} query={{ q: list.q, sort: list.sorting, filter: list.filter }} columns={table.getVisibleLeafColumns().map((c) => c.id).filter((id) => id !== '_actions')} />
        <Button label={t('masterdata.action.new')} icon="pi pi-plus" onClick={() => navigate(`${basePath}/new`)} data-testid="list-new" />
      </div>
      <ConfirmDialog />
      {(list.error ?? actionError) && <div className="p-message p-message-error" role="alert">{list.error ?? actionError}</div>}
      <ServerTable table={table} loading={list.loading} total={total} pageIndex={list.pageIndex} />
    </div>
  );
}
