import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { errorText } from '../api/errorText';
import { useShell } from '../shell/shellContext';
import { featureOfWorkflow } from '../reports/links';
import { useTrace } from './context';
import { goToQuery, paramsOf, paramsOfHit, queryOf, traceFeature, type LotHistory } from './model';
import { TraceSearch } from './TraceSearch';

const LOTS = ['lot'] as const;

/**
 * /product-history: one lot's story in time order, from the ledger — where it was made, each
 * movement in and out at each deposit, with the stock after each step — and the way to trace it.
 * Deposits beyond the user's access are counted, never shown.
 */
export function HistoryView() {
  const { t, i18n } = useTranslation();
  const shell = useShell();
  const { trace, warehouseName, goTo } = useTrace();
  const [params, setParams] = useSearchParams();
  const start = useMemo(() => paramsOf(params), [params]);
  const [state, setState] = useState<{ history: LotHistory | null; error: string | null; loading: boolean }>({ history: null, error: null, loading: false });
  const lot = start?.lot;
  const material = start?.material;

  useEffect(() => {
    if (!lot) { setState({ history: null, error: null, loading: false }); return; }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    trace.history(lot, material).then(
      (history) => live && setState({ history, error: null, loading: false }),
      (e: unknown) => live && setState({ history: null, error: errorText(e, t), loading: false }),
    );
    return () => { live = false; };
  }, [lot, material, warehouseName, trace, t]);

  const map = traceFeature(shell, 'map');
  const h = state.history;
  const num = (n: number) => n.toLocaleString(i18n.resolvedLanguage ?? 'en');
  return (
    <section className="tm-trace tm-trace-history" data-testid="trace-history-view" data-state={state.loading ? 'loading' : h ? 'ready' : 'idle'}>
      <div className="tm-trace__bar">
        <TraceSearch kinds={LOTS} onPick={(hit) => setParams(queryOf(paramsOfHit(hit, 'both')))} initial={lot ?? ''} />
      </div>
      {!lot && <p className="tm-empty__text" data-testid="trace-idle">{t('trace.history.idle')}</p>}
      {state.error && <div className="p-message p-message-error" role="alert" data-testid="trace-error">{state.error}</div>}
      {h && (
        <>
          <header className="tm-trace-history__head">
            <h2 data-testid="trace-history-lot">{h.lot.materialName} · {h.lot.lot}</h2>
            <p className="tm-trace__meta">
              {h.lot.gtin && <span>GTIN {h.lot.gtin} · </span>}
              {h.lot.elaborationDate && <span>{t('trace.history.made', { date: h.lot.elaborationDate })} · </span>}
              {h.lot.expirationDate && <span>{t('trace.history.expires', { date: h.lot.expirationDate })}</span>}
            </p>
            {map && start && <Button label={t('trace.history.trace')} icon="pi pi-sitemap" outlined onClick={() => goTo({ type: map, query: goToQuery(start) })} data-testid="trace-history-trace" />}
          </header>
          {h.beyond > 0 && (
            <div className="p-message p-message-warn tm-trace__notice" role="status" data-testid="trace-boundary">
              <i className="pi pi-lock" aria-hidden="true" /> {t('trace.history.beyond', { deposits: h.beyond, warehouse: h.warehouse ?? '' })}
            </div>
          )}
          <table className="tm-trace-steps" data-testid="trace-history-steps">
            <thead>
              <tr>{['date', 'operation', 'document', 'transition', 'deposit', 'quantity', 'unit', 'balance'].map((c) => <th key={c}>{t(`trace.history.column.${c}`)}</th>)}</tr>
            </thead>
            <tbody>
              {h.steps.map((s, i) => {
                const feature = featureOfWorkflow(shell.registry, shell.allowed, s.workflow);
                return (
                  <tr key={`${s.record}-${i}`} data-testid="trace-history-step" className={s.quantity < 0 ? 'tm-trace-steps__out' : 'tm-trace-steps__in'}>
                    <td>{s.date}</td>
                    <td>{s.operation}</td>
                    <td>{feature && s.document
                      ? <a href="#" className="tm-op-link" onClick={(e) => { e.preventDefault(); goTo({ type: feature, query: { id: s.record } }); }}>{s.document}</a>
                      : s.document}</td>
                    <td>{s.transition}</td>
                    <td>{s.depositName}</td>
                    <td className="tm-trace-steps__num">{s.quantity > 0 ? '+' : ''}{num(s.quantity)}</td>
                    <td>{s.unit}</td>
                    <td className="tm-trace-steps__num">{num(s.balance)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
