import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState, type Table, type TableOptions } from '@tanstack/react-table';
import { Button } from 'primereact/button';

import { PAGE_SIZE } from './listState';

/** What a server-paged list keeps: the page it shows, its sorting, and the server's answer. */
export interface ServerPagedList<T> {
  answer: { data: T[]; total: number } | null;
  sorting: SortingState;
  setSorting: TableOptions<T>['onSortingChange'];
  pageIndex: number;
  setPageIndex(i: number): void;
}

/**
 * A TanStack table whose paging and sorting the server does: the rows of the answer, the page
 * and sorting of the list, rows keyed by their record id. `extra` adds options (multi-sort,
 * column visibility and its state).
 */
export function useServerPagedTable<T extends { id?: unknown }>(list: ServerPagedList<T>, columns: ColumnDef<T>[], extra: Partial<TableOptions<T>> & { visibility?: TableOptions<T>['state'] } = {}): Table<T> {
  const { visibility, ...options } = extra;
  return useReactTable({
    data: list.answer?.data ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    rowCount: list.answer?.total ?? 0,
    state: { sorting: list.sorting, pagination: { pageIndex: list.pageIndex, pageSize: PAGE_SIZE }, ...visibility },
    onSortingChange: list.setSorting,
    onPaginationChange: (u) => list.setPageIndex((typeof u === 'function' ? u({ pageIndex: list.pageIndex, pageSize: PAGE_SIZE }) : u).pageIndex),
    getRowId: (r) => String(r.id),
    ...options,
  });
}

export interface ServerTableProps<T> {
  table: Table<T>;
  loading: boolean;
  total: number;
  pageIndex: number;
  /** Opening a row (operations: the record's detail); rows are then focusable and open on Enter. */
  onOpen?: (id: string) => void;
  /** What the pager says instead of the page and count (a report whose count is still being taken). */
  summary?: ReactNode;
}

/** A server-paged TanStack table in PrimeReact's markup: sortable headers, the rows, the empty line and the pager. */
export function ServerTable<T>({ table, loading, total, pageIndex, onOpen, summary }: ServerTableProps<T>) {
  const { t } = useTranslation();
  const columns = table.getVisibleLeafColumns().length;
  return (
    <div className="p-datatable p-component p-datatable-sm">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table" role="table" aria-busy={loading}>
          <thead className="p-datatable-thead">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  return (
                    <th key={h.id} className={h.column.getCanSort() ? 'p-sortable-column' : undefined} aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                      onClick={h.column.getCanSort() ? h.column.getToggleSortingHandler() : undefined} data-column={h.column.id}>
                      {flexRender(h.column.columnDef.header, h.getContext())}
                      {sorted && <i className={`pi ${sorted === 'asc' ? 'pi-sort-amount-up-alt' : 'pi-sort-amount-down'}`} aria-hidden="true" />}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="p-datatable-tbody">
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-testid="list-row" data-id={row.id}
                {...(onOpen ? { className: 'tm-row-open', tabIndex: 0, onClick: () => onOpen(row.id), onKeyDown: (e: { key: string }) => { if (e.key === 'Enter') onOpen(row.id); } } : {})}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} data-column={cell.column.id} data-label={cell.column.id === '_actions' ? undefined : String(cell.column.columnDef.header)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
            {!loading && total === 0 && <tr><td colSpan={columns} data-testid="list-empty">{t('masterdata.list.empty')}</td></tr>}
          </tbody>
        </table>
      </div>
      <div className="p-paginator p-component" data-testid="list-pager">
        <Button icon="pi pi-angle-left" text aria-label={t('masterdata.list.previous')} disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()} />
        <span data-testid="list-total">{summary ?? t('masterdata.list.page', { page: pageIndex + 1, pages: Math.max(1, table.getPageCount()), count: total })}</span>
        <Button icon="pi pi-angle-right" text aria-label={t('masterdata.list.next')} disabled={!table.getCanNextPage()} onClick={() => table.nextPage()} />
      </div>
    </div>
  );
}
