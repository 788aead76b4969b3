import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { cellText, reportColumns, type DashboardWidgetDef, type ReportDef, type TableData } from '../../../engine/src/index';
import { useMasterData } from '../masterdata/useMasterData';
import { ReportCell } from '../reports/ReportCell';

type Row = Record<string, unknown>;

/**
 * A widget's table: the report's first rows in its default order, the columns the widget names,
 * each cell as the report screen shows it (the engine's cell text, a state's badge, a link to
 * the record). TanStack Table in the lists' PrimeReact look.
 */
export function TableWidget({ widget, report, data }: { widget: DashboardWidgetDef; report: ReportDef; data: TableData }) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const cells = reportColumns(registry, report, lang);
    return (widget.columns ?? []).flatMap((id) => {
      const i = report.columns.findIndex((c) => c.id === id);
      if (i < 0) return [];
      const c = cells[i];
      return [{ id: c.id, header: c.label, accessorFn: (r: Row) => cellText(c, r), cell: (info) => <ReportCell column={c} def={report.columns[i]} row={info.row.original} /> } satisfies ColumnDef<Row>];
    });
  }, [registry, report, lang, widget.columns]);
  const table = useReactTable({ data: data.rows, columns, getCoreRowModel: getCoreRowModel() });
  if (data.rows.length === 0) return <p className="tm-dash-empty" data-testid="widget-empty">{t('dashboards.noRows')}</p>;
  return (
    <div className="tm-dash-table p-datatable p-component p-datatable-sm" data-testid="widget-table" data-painted="true">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table">
          <thead className="p-datatable-thead">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>{hg.headers.map((h) => <th key={h.id} data-column={h.column.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>)}</tr>
            ))}
          </thead>
          <tbody className="p-datatable-tbody">
            {table.getRowModel().rows.map((r) => (
              <tr key={r.id} data-testid="widget-row">{r.getVisibleCells().map((c) => <td key={c.id} data-column={c.column.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.hasMore && <p className="tm-dash-note">{t('dashboards.firstRows', { count: data.rows.length })}</p>}
    </div>
  );
}
