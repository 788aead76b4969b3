import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { lazyWithPreload } from '../app/lazyWithPreload';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { SelectButton } from 'primereact/selectbutton';
import { errorText } from '../api/errorText';
import { useMasterData } from '../masterdata/useMasterData';
import { mapSettings } from '../masterdata/widgets/mapLogic';
import { useShell } from '../shell/shellContext';
import { useToast } from '../toasts/toast';
import { useTrace } from './context';
import { DIRECTIONS, goToQuery, names, nodeGoTo, paramsOf, paramsOfHit, queryOf, traceFeature, type Direction, type NodeKind, type TraceAnswer, type TraceNode, type TraceParams } from './model';
import { BoundaryNotice } from './BoundaryNotice';
import { TraceSearch } from './TraceSearch';

// Each loads with its library only on this screen, while the trace is asked for, so the answer
// renders without suspending (React would hold a revealed boundary back for up to 300 ms).
const TraceGraph = lazyWithPreload(() => import('./TraceGraph'));
const TraceMap = lazyWithPreload(() => import('./TraceMap'));

const KINDS: readonly NodeKind[] = ['lot', 'operation', 'ibc', 'deposit'];

/** The trace of the start in the address: fetched again when the start or the selected group changes. */
function useTraceAnswer(start: TraceParams | null) {
  const { t } = useTranslation();
  const { trace, warehouseName } = useTrace();
  const [state, setState] = useState<{ answer: TraceAnswer | null; error: string | null; loading: boolean }>({ answer: null, error: null, loading: false });
  const key = start ? queryOf(start) : '';
  useEffect(() => {
    if (!start) { setState({ answer: null, error: null, loading: false }); return; }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    void TraceGraph.preload();
    void TraceMap.preload();
    trace.trace(start).then(
      (answer) => live && setState({ answer, error: null, loading: false }),
      (e: unknown) => live && setState({ answer: null, error: errorText(e, t), loading: false }),
    );
    return () => { live = false; };
  }, [key, warehouseName, trace, t]); // eslint-disable-line react-hooks/exhaustive-deps -- the start is its query
  return state;
}

/**
 * /traceability-map: a lot, IBC or shipment picked by typing, traced backward, forward or both;
 * the graph, the map, what it reached in words, where it stops at the user's access, and the
 * CSV and EPCIS downloads. The start lives in the address (`#/?lot=…`), so a link or a reload keeps it.
 */
export function MapView() {
  const { t } = useTranslation();
  const { lang, settings } = useMasterData();
  const shell = useShell();
  const { trace, goTo } = useTrace();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const start = useMemo(() => paramsOf(params), [params]);
  const direction: Direction = start?.direction ?? 'both';
  const { answer, error, loading } = useTraceAnswer(start);
  const map = useMemo(() => mapSettings(settings), [settings]);
  const [downloading, setDownloading] = useState<'csv' | 'epcis' | null>(null);

  const go = (p: TraceParams) => setParams(queryOf(p));
  const open = useCallback((n: TraceNode) => {
    const target = nodeGoTo(shell, n);
    if (target) goTo(target);
  }, [shell, goTo]);
  const kindLabel = useCallback((k: NodeKind) => t(`trace.kind.${k}`), [t]);
  const beyondLabel = useCallback((count: number) => t('trace.graph.beyond', { links: count }), [t]);
  const download = async (kind: 'csv' | 'epcis') => {
    if (!start) return;
    setDownloading(kind);
    try {
      await trace.download(kind, start);
    } catch (e) {
      toast({ severity: 'error', summary: t('trace.download.failed'), detail: errorText(e, t) });
    } finally {
      setDownloading(null);
    }
  };
  const events = traceFeature(shell, 'events');

  return (
    <section className="tm-trace" data-testid="trace-map-view" data-state={loading ? 'loading' : answer ? 'ready' : error ? 'error' : 'idle'}>
      <div className="tm-trace__bar">
        <TraceSearch onPick={(h) => go(paramsOfHit(h, direction))} initial={start?.lot ?? start?.ibc ?? start?.shipment ?? ''} />
        <SelectButton value={direction} allowEmpty={false} data-testid="trace-direction" aria-label={t('trace.direction.label')}
          options={DIRECTIONS.map((d) => ({ value: d, label: t(`trace.direction.${d}`) }))}
          onChange={(e) => { if (start && e.value) go({ ...start, direction: e.value as Direction }); }} />
      </div>
      {!start && <p className="tm-empty__text" data-testid="trace-idle">{t('trace.idle')}</p>}
      {error && <div className="p-message p-message-error" role="alert" data-testid="trace-error">{error}</div>}
      {start && answer && (
        <>
          <div className="tm-md-toolbar tm-trace__actions">
            <Button label={t('trace.download.csv')} icon="pi pi-file" outlined loading={downloading === 'csv'} onClick={() => void download('csv')} data-testid="trace-csv" />
            <Button label={t('trace.download.epcis')} icon="pi pi-download" outlined loading={downloading === 'epcis'} onClick={() => void download('epcis')} data-testid="trace-epcis" />
            {events && <Button label={t('trace.openEvents')} icon="pi pi-list" text onClick={() => goTo({ type: events, query: goToQuery(start) })} data-testid="trace-open-events" />}
          </div>
          <Notices answer={answer} />
          <Summary answer={answer} />
          <div className="tm-trace__panes">
            <Suspense fallback={<div className="tm-trace-graph" aria-busy="true" />}>
              <TraceGraph answer={answer} lang={lang} label={t('trace.graph.label')} kindLabel={kindLabel} beyondLabel={beyondLabel} onOpen={open} />
            </Suspense>
            <Suspense fallback={<div className="tm-trace-map" aria-busy="true" />}>
              <TraceMap answer={answer} settings={map} lang={lang} label={t('trace.map.label')} onOpen={open} />
            </Suspense>
          </div>
          <NodeList answer={answer} onOpen={open} canOpen={(n) => nodeGoTo(shell, n) !== null} />
        </>
      )}
    </section>
  );
}

/** Where the trace stops: at the selected group's edge, or at its bound. */
function Notices({ answer }: { answer: TraceAnswer }) {
  const { t } = useTranslation();
  const { boundary, limits } = answer;
  return (
    <>
      <BoundaryNotice boundary={boundary} />
      {limits.truncated && (
        <div className="p-message p-message-warn tm-trace__notice" role="status" data-testid="trace-truncated">
          {t(limits.truncated === 'depth' ? 'trace.truncated.depth' : 'trace.truncated.size', { depth: limits.depth })}
        </div>
      )}
    </>
  );
}

/** What the trace reached, in words: the counts, the customers, the suppliers and countries behind it. */
function Summary({ answer }: { answer: TraceAnswer }) {
  const { t } = useTranslation();
  const s = answer.summary;
  const item = (key: string, value: string | number, testid: string) => (
    <div className="tm-trace-summary__item" data-testid={testid}><dt>{t(key)}</dt><dd>{value === '' ? '—' : value}</dd></div>
  );
  return (
    <dl className="tm-trace-summary" data-testid="trace-summary">
      {item('trace.summary.lots', s.lots, 'trace-sum-lots')}
      {item('trace.summary.shipments', s.shipments, 'trace-sum-shipments')}
      {item('trace.summary.ibcs', s.ibcs, 'trace-sum-ibcs')}
      {item('trace.summary.events', s.events, 'trace-sum-events')}
      {item('trace.summary.customers', names(s.customers), 'trace-sum-customers')}
      {item('trace.summary.suppliers', names(s.suppliers), 'trace-sum-suppliers')}
      {item('trace.summary.countries', names(s.countries), 'trace-sum-countries')}
    </dl>
  );
}

/** The nodes by kind, as text a screen reader reads and a link each where a feature shows it. */
function NodeList({ answer, onOpen, canOpen }: { answer: TraceAnswer; onOpen: (n: TraceNode) => void; canOpen: (n: TraceNode) => boolean }) {
  const { t } = useTranslation();
  return (
    <div className="tm-trace-nodes" data-testid="trace-nodes">
      {KINDS.map((k) => {
        const list = answer.nodes.filter((n) => n.kind === k);
        if (list.length === 0) return null;
        return (
          <section key={k} data-kind={k}>
            <h2>{t(`trace.kinds.${k}`)} ({list.length})</h2>
            <ul>
              {list.map((n) => (
                <li key={n.id} data-testid="trace-node" data-kind={n.kind} data-start={n.start ? 'true' : undefined}>
                  {canOpen(n)
                    ? <a href="#" className="tm-op-link" onClick={(e) => { e.preventDefault(); onOpen(n); }}>{n.label}</a>
                    : <span>{n.label}</span>}
                  {n.kind === 'operation' && n.date && <small> · {n.date}{n.state ? ` · ${n.state}` : ''}</small>}
                  {n.beyond ? <small className="tm-trace-nodes__beyond"> · {t('trace.graph.beyond', { links: n.beyond })}</small> : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
