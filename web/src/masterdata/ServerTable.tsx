import { useTranslation } from 'react-i18next';
import { flexRender, type Table } from '@tanstack/react-table';
import { Button } from 'primereact/button';

export interface ServerTableProps<T> {
  table: Table<T>;
  loading: boolean;
  total: number;
  pageIndex: number;
  /** Opening a row (operations: the record's detail); rows are then focusable and open on Enter. */
  onOpen?: (id: string) => void;
}

/** A server-paged TanStack table in PrimeReact's markup: sortable headers, the rows, the empty line and the pager. */
export function ServerTable<T>({ table, loading, total, pageIndex, onOpen }: ServerTableProps<T>) {
  const { t } = useTranslation();
  const columns = table.getVisibleLeafColumns().length;
  return (
    <div className="p-datatable p-component p-datatable-sm">
      <div className="p-datatable-wrapper">
        <table className="p-datatable-table" role="table">
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
        <span data-testid="list-total">{t('masterdata.list.page', { page: pageIndex + 1, pages: Math.max(1, table.getPageCount()), count: total })}</span>
        <Button icon="pi pi-angle-right" text aria-label={t('masterdata.list.next')} disabled={!table.getCanNextPage()} onClick={() => table.nextPage()} />
      </div>
    </div>
  );
}
