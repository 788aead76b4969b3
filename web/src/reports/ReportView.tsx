import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ColumnDef } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { localize, type ReportDef } from '../../../engine/src/index';
import { sortParam } from '../masterdata/listState';
import { ServerTable, useServerPagedTable } from '../masterdata/ServerTable';
import { useMasterData } from '../masterdata/useMasterData';
import { useShell } from '../shell/shellContext';
import { useReports } from './context';
import { cellText, reportColumns } from '../../../engine/src/index';
import { ExportButton } from './ExportButton';
import { FilterBar } from './FilterBar';
import { applySaved, searchOf, stateOfSearch, toParams } from './filters';
import { printGoTo } from './links';
import { ReportCell } from './ReportCell';
import { SavedFilters } from './SavedFilters';
import { ScheduleDialog } from './ScheduleDialog';
import { useReportRows } from './useReportRows';

type Row = Record<string, unknown>;

/**
 * One report, whatever it is: the filter bar its declared filters make, the rows paged and
 * sorted by the server, the count when it arrives, saved filters, Export CSV, Schedule and the
 * print view. Filters and sort live in the address (`#/<key>?…`), so a reload or a link keeps them.
 */
export function ReportView({ def, back }: { def: ReportDef; back: boolean }) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const shell = useShell();
  const { goTo } = useReports();
  const [params, setParams] = useSearchParams();
  const initial = useMemo(() => stateOfSearch(def, params), [def]); // eslint-disable-line react-hooks/exhaustive-deps -- read once: the address follows the state afterwards
  const list = useReportRows(def, initial);
  const [scheduling, setScheduling] = useState(false);

  const search = searchOf(def, list.filters, list.sorting);
  useEffect(() => { if (search !== params.toString()) setParams(search, { replace: true }); }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  const cells = useMemo(() => reportColumns(registry, def, lang), [registry, def, lang]);
  const columns = useMemo<ColumnDef<Row>[]>(() => cells.map((c, i): ColumnDef<Row> => ({
    id: c.id,
    header: c.label,
    enableSorting: def.columns[i].sortable,
    accessorFn: (r) => cellText(c, r),
    cell: (info) => <ReportCell column={c} def={def.columns[i]} row={info.row.original} />,
  })), [cells, def]);
  const table = useServerPagedTable(list, columns, { getRowId: (r, i) => (typeof r.id === 'string' || typeof r.id === 'number' ? `${String(r.id)}#${i}` : String(i)) });

  const filters = toParams(def.filters, list.filters);
  const sort = sortParam(list.sorting);
  const print = printGoTo(shell, def.key, search);
  const summary = list.total === null
    ? t('reports.counting', { page: list.pageIndex + 1 })
    : t('masterdata.list.page', { page: list.pageIndex + 1, pages: Math.max(1, table.getPageCount()), count: list.total });

  return (
    <section className="tm-rep" data-testid="report-view" data-report={def.key}>
      <header className="tm-rep__head">
        {back && <Link to="/" className="tm-rep__back" data-testid="report-back"><i className="pi pi-arrow-left" aria-hidden="true" /> {t('reports.title')}</Link>}
        <h2>{localize(def.label, lang)}</h2>
        {def.description && <p className="tm-rep__description">{localize(def.description, lang)}</p>}
      </header>
      <FilterBar def={def} values={list.filters} onApply={list.setFilters} />
      <div className="tm-md-toolbar tm-rep-actions">
        <SavedFilters def={def} values={list.filters} sorting={list.sorting}
          onApply={(saved) => { const s = applySaved(def, saved); list.setFilters(s.values); list.setSorting(s.sorting); }} />
        <ExportButton def={def} filters={filters} sort={sort} />
        <Button label={t('reports.schedule.open')} icon="pi pi-clock" outlined onClick={() => setScheduling(true)} data-testid="report-schedule" />
        {print && <Button label={t('reports.print.open')} icon="pi pi-print" text onClick={() => goTo(print)} data-testid="report-generate" />}
      </div>
      {list.error && <div className="p-message p-message-error" role="alert" data-testid="list-error">{list.error}</div>}
      <ServerTable table={table} loading={list.loading} total={list.answer?.total ?? 0} pageIndex={list.pageIndex} summary={summary} />
      {scheduling && <ScheduleDialog def={def} filters={filters} sort={sort} onClose={() => setScheduling(false)} />}
    </section>
  );
}
