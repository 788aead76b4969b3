import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { useTranslation } from 'react-i18next';
import { pageCount } from './logic';

export interface PagedTableProps<T> {
  /** One page of rows, as the server answered it. */
  data: T[];
  columns: ColumnDef<T>[];
  total: number;
  /** 1-based, as the API counts. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** What the pager says after "Page n of m". */
  summary: string;
  testId: string;
  /** Attributes of a row's `<tr>` (test ids, data-*). */
  rowAttributes: (row: T) => Record<string, string>;
  empty?: string;
  loading?: boolean;
  /** A row opens something: the whole row is the target (the links and buttons in it keep their own). */
  onRowClick?: (row: T) => void;
}

/** Clicks on a link or button inside the row are theirs, not the row's. */
function ownTarget(e: { target: EventTarget }): boolean {
  return e.target instanceof Element && e.target.closest('a, button, input') !== null;
}

/** A server-paged TanStack table in PrimeReact's table styling (the master-data lists' look). */
export function PagedTable<T>({ data, columns, total, page, pageSize, onPage, summary, testId, rowAttributes, empty, loading, onRowClick }: PagedTableProps<T>) {
  const { t } = useTranslation();
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    rowCount: total,
    state: { pagination: { pageIndex: page - 1, pageSize } },
    onPaginationChange: (u) => onPage((typeof u === 'function' ? u({ pageIndex: page - 1, pageSize }) : u).pageIndex + 1),
  });
  return (
    <div className="tm-import-table p-datatable p-component p-datatable-sm" data-testid={testId} aria-busy={loading}>
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table">
          <thead className="p-datatable-thead">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => <th key={h.id} data-column={h.column.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>)}
              </tr>
            ))}
          </thead>
          <tbody className="p-datatable-tbody">
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id} {...rowAttributes(row.original)}
                className={onRowClick ? 'tm-row-link' : undefined}
                onClick={onRowClick && ((e) => { if (!ownTarget(e)) onRowClick(row.original); })}
              >
                {row.getVisibleCells().map((cell) => <td key={cell.id} data-column={cell.column.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>)}
              </tr>
            ))}
            {!loading && data.length === 0 && empty && <tr><td colSpan={columns.length}>{empty}</td></tr>}
          </tbody>
        </table>
      </div>
      <div className="p-paginator p-component" data-testid={`${testId}-pager`}>
        <Button icon="pi pi-angle-left" text aria-label={t('import.table.previous')} disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()} />
        <span>{t('import.table.page', { page, pages: pageCount(total, pageSize) })} · {summary}</span>
        <Button icon="pi pi-angle-right" text aria-label={t('import.table.next')} disabled={!table.getCanNextPage()} onClick={() => table.nextPage()} />
      </div>
    </div>
  );
}
