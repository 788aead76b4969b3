import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { errorText } from '../api/errorText';
import { PAGE_SIZE, sortParam } from '../masterdata/listState';
import { ServerTable, useServerPagedTable } from '../masterdata/ServerTable';
import { useShell } from '../shell/shellContext';
import { useTrace } from './context';
import { featureOfWorkflow } from '../reports/links';
import { paramsOf, paramsOfHit, queryOf, type TraceAnswer, type TraceRow } from './model';
import { BoundaryNotice } from './BoundaryNotice';
import { TraceSearch } from './TraceSearch';

/** The columns the events list shows, in order; without a trace only these sort (the store sorts them). */
const COLUMNS = ['date', 'time', 'bizStep', 'disposition', 'material', 'lot', 'ibc', 'quantity', 'unit', 'from', 'to', 'document', 'operation', 'transition'] as const;
const STORE_SORTED = new Set(['time', 'bizStep', 'disposition']);

type Row = TraceRow & { id: string };

/**
 * /events: the events behind a trace (its start in the address, `#/?lot=…`, or handed on by the
 * traceability map), one row per event and lot, or every event the user may see; paged and
 * sorted by the server. A document opens its operation where a feature shows it.
 */
export function EventsView() {
  const { t } = useTranslation();
  const shell = useShell();
  const { trace, warehouseName, goTo } = useTrace();
  const [params, setParams] = useSearchParams();
  const start = useMemo(() => paramsOf(params), [params]);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [pageIndex, setPageIndex] = useState(0);
  const [state, setState] = useState<{ answer: { data: Row[]; total: number } | null; boundary?: TraceAnswer['boundary']; error: string | null; loading: boolean }>({ answer: null, error: null, loading: true });
  const key = start ? queryOf(start) : '';
  useEffect(() => { setPageIndex(0); setSorting([]); }, [key]);
  const sort = sortParam(sorting);

  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    trace.events(start, pageIndex + 1, PAGE_SIZE, sort).then(
      (a) => live && setState({ answer: { data: a.data.map((r, i) => ({ ...r, id: `${r.event}#${r.lot}#${i}` })), total: a.total }, boundary: a.boundary, error: null, loading: false }),
      (e: unknown) => live && setState({ answer: null, error: errorText(e, t), loading: false }),
    );
    return () => { live = false; };
  }, [key, pageIndex, sort, warehouseName, trace, t]); // eslint-disable-line react-hooks/exhaustive-deps -- the start is its query

  const columns = useMemo<ColumnDef<Row>[]>(() => COLUMNS.map((c): ColumnDef<Row> => ({
    id: c,
    header: t(`trace.column.${c}`),
    enableSorting: start !== null || STORE_SORTED.has(c),
    accessorFn: (r) => (c === 'time' ? r.time.slice(11, 19) : r[c] ?? ''),
    cell: c === 'document'
      ? (info) => {
        const r = info.row.original;
        const feature = r.record && r.workflow ? featureOfWorkflow(shell.registry, shell.allowed, r.workflow) : null;
        return feature && r.document
          ? <a href="#" className="tm-op-link" data-testid="trace-event-document" onClick={(e) => { e.preventDefault(); goTo({ type: feature, query: { id: r.record } }); }}>{r.document}</a>
          : r.document;
      }
      : (info) => String(info.getValue() ?? ''),
  })), [t, start, shell, goTo]);
  const list = { answer: state.answer, sorting, setSorting, pageIndex, setPageIndex };
  const table = useServerPagedTable<Row>(list, columns);

  return (
    <section className="tm-trace tm-trace-events" data-testid="trace-events-view" data-mode={start ? 'trace' : 'all'}>
      <div className="tm-trace__bar">
        <TraceSearch onPick={(h) => setParams(queryOf(paramsOfHit(h, start?.direction ?? 'both')))} initial={start?.lot ?? start?.ibc ?? start?.shipment ?? ''} />
        {start && <Button label={t('trace.events.all')} icon="pi pi-times" text onClick={() => setParams('')} data-testid="trace-events-all" />}
      </div>
      <p className="tm-trace__meta" data-testid="trace-events-scope">
        {start ? t('trace.events.ofTrace', { start: start.lot ?? start.ibc ?? start.shipment }) : t('trace.events.everything')}
      </p>
      <BoundaryNotice boundary={state.boundary} />
      {state.error && <div className="p-message p-message-error" role="alert" data-testid="list-error">{state.error}</div>}
      <ServerTable table={table} loading={state.loading} total={state.answer?.total ?? 0} pageIndex={pageIndex} />
    </section>
  );
}
