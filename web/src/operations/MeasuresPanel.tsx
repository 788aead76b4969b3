import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { localize } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useMasterData } from '../masterdata/useMasterData';
import type { FleetMeasures, Holding } from './api';
import { useOperation } from './context';
import { days, figure, fillCountBars, percent, statusBars, type Bar } from './fleet';

const TOP = 10;

/** Counts as plain CSS bars, each with its label and count. */
function Bars({ rows, testId, color }: { rows: Bar[]; testId: string; color?: (key: string) => string | undefined }) {
  return (
    <ul className="tm-op-bars" data-testid={testId}>
      {rows.map((b) => (
        <li key={b.key} data-key={b.key} data-count={b.count}>
          <span className="tm-op-bars__label">{b.label}</span>
          <span className="tm-op-bars__track"><span className="tm-op-bars__bar" style={{ width: `${b.width}%`, background: color?.(b.key) }} /></span>
          <span className="tm-op-bars__count">{b.count}</span>
        </li>
      ))}
    </ul>
  );
}

/** Customer holdings: taken, returned, to return and average return time, sorted by any column (the top ten first). */
function HoldingsTable({ rows }: { rows: Holding[] }) {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState<SortingState>([{ id: 'ibcToReturn', desc: true }]);
  const [all, setAll] = useState(false);
  const columns = useMemo<ColumnDef<Holding>[]>(() => [
    { id: 'customerName', accessorFn: (h) => h.customerName || h.customer, header: t('operations.measures.customer') },
    { id: 'totalIbcTaken', accessorKey: 'totalIbcTaken', header: t('operations.measures.taken'), sortDescFirst: true },
    { id: 'totalIbcReturned', accessorKey: 'totalIbcReturned', header: t('operations.measures.returned'), sortDescFirst: true },
    { id: 'ibcToReturn', accessorKey: 'ibcToReturn', header: t('operations.measures.toReturn'), sortDescFirst: true },
    // A customer with nothing back yet has no return time: it sorts last either way.
    { id: 'avgReturnTime', accessorFn: (h) => h.avgReturnTime ?? undefined, header: t('operations.measures.avgReturnTime'), sortDescFirst: true, sortUndefined: 'last', cell: (c) => days(c.row.original.avgReturnTime) },
  ], [t]);
  const table = useReactTable({ data: rows, columns, state: { sorting }, onSortingChange: setSorting, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel(), getRowId: (h) => h.customer });
  const sorted = table.getRowModel().rows;
  const shown = all ? sorted : sorted.slice(0, TOP);
  if (rows.length === 0) return <p data-testid="holdings-empty">{t('operations.measures.noHoldings')}</p>;
  return (
    <>
      <table className="tm-op-table" data-testid="holdings">
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const s = h.column.getIsSorted();
                return (
                  <th key={h.id} className="p-sortable-column" data-column={h.column.id} aria-sort={s ? (s === 'asc' ? 'ascending' : 'descending') : undefined} onClick={h.column.getToggleSortingHandler()}>
                    {flexRender(h.column.columnDef.header, h.getContext())}
                    {s && <i className={`pi ${s === 'asc' ? 'pi-sort-amount-up-alt' : 'pi-sort-amount-down'}`} aria-hidden="true" />}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.id} data-testid="holding" data-customer={r.id}>
              {r.getVisibleCells().map((c) => <td key={c.id} data-column={c.column.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {sorted.length > TOP && (
        <Button text size="small" label={all ? t('operations.measures.topTen') : t('operations.measures.showAll', { count: sorted.length })} onClick={() => setAll(!all)} data-testid="holdings-all" />
      )}
    </>
  );
}

/**
 * The IBC measures above the list (`measures: "ibc"`): holdings per customer and the fleet's
 * figures, computed by the server from the IBC event log; fetched again when the warehouse changes.
 */
export function MeasuresPanel() {
  const { t } = useTranslation();
  const { lang } = useMasterData();
  const { ibc, view, warehouseName } = useOperation();
  const [holdings, setHoldings] = useState<Holding[] | null>(null);
  const [measures, setMeasures] = useState<FleetMeasures | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setError(null);
    Promise.all([ibc.holdings(), ibc.measures()]).then(([h, m]) => { if (live) { setHoldings(h.data); setMeasures(m); } }, (e: unknown) => live && setError(errorText(e, t)));
    return () => { live = false; };
  }, [ibc, warehouseName, t]);

  const states = useMemo(() => view.workflow.states.map((s) => ({ id: s.id, label: localize(s.label, lang) })), [view.workflow.states, lang]);
  const colorOf = (id: string) => view.workflow.states.find((s) => s.id === id)?.color;

  if (error) return <div className="p-message p-message-error" role="alert" data-testid="measures-error">{error}</div>;
  if (!holdings || !measures) return <section className="tm-op-measures" aria-busy="true" data-testid="measures" />;
  const figures: [string, string, string][] = [
    ['fleetSize', t('operations.measures.fleetSize'), figure(measures.fleetSize)],
    ['cycleTimeDays', t('operations.measures.cycleTime'), days(measures.cycleTimeDays)],
    ['dwellAtCustomerDays', t('operations.measures.dwell'), days(measures.dwellAtCustomerDays)],
    ['turnsPerYear', t('operations.measures.turns'), figure(measures.turnsPerYear)],
    ['lossRate', t('operations.measures.lossRate'), percent(measures.lossRate)],
    ['lost', t('operations.measures.lost', { days: measures.lossAfterDays }), figure(measures.lost)],
    ['dueForInspection', t('operations.measures.dueForInspection'), figure(measures.dueForInspection)],
    ['pastInspection', t('operations.measures.pastInspection'), figure(measures.pastInspection)],
    ['pastEndOfLife', t('operations.measures.pastEndOfLife'), figure(measures.pastEndOfLife)],
  ];
  return (
    <section className="tm-op-measures" data-testid="measures">
      <div className="tm-op-measures__block">
        <h3>{t('operations.measures.holdings')}</h3>
        <HoldingsTable rows={holdings} />
      </div>
      <div className="tm-op-measures__block">
        <h3>{t('operations.measures.fleet')}</h3>
        <dl className="tm-op-fields tm-op-figures" data-testid="fleet-figures">
          {figures.map(([k, label, value]) => <div key={k} data-measure={k}><dt>{label}</dt><dd>{value}</dd></div>)}
        </dl>
        <div className="tm-op-measures__bars">
          <div><h4>{t('operations.measures.byStatus')}</h4><Bars rows={statusBars(measures, states)} testId="by-status" color={colorOf} /></div>
          <div><h4>{t('operations.measures.fillCount')}</h4><Bars rows={fillCountBars(measures)} testId="fill-counts" /></div>
        </div>
      </div>
    </section>
  );
}
