import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { errorText } from '../api/errorText';
import { useDebounced } from '../masterdata/useDebounced';
import { useTrace } from './context';
import type { SearchHit } from './model';

/**
 * The box a trace starts from: typing part of a lot, IBC serial or remito number lists what it
 * names among what the user may see (the search route); picking one starts from it. `kinds`
 * limits the list (the history takes lots only).
 */
export function TraceSearch({ onPick, kinds, initial = '' }: { onPick: (hit: SearchHit) => void; kinds?: readonly SearchHit['kind'][]; initial?: string }) {
  const { t } = useTranslation();
  const { trace, warehouseName } = useTrace();
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [error, setError] = useState<string | null>(null);
  const q = useDebounced(text.trim(), 250);
  const only = kinds?.join(',');

  useEffect(() => {
    // Only what the user typed: the start shown on arrival is not searched for.
    if (!open || q.length < 2) { setHits([]); return; }
    let live = true;
    trace.search(q).then(
      (found) => { if (live) { setHits(found.filter((h) => !only || only.split(',').includes(h.kind))); setError(null); } },
      (e: unknown) => { if (live) setError(errorText(e, t)); },
    );
    return () => { live = false; };
  }, [q, open, trace, warehouseName, only, t]);

  const pick = (h: SearchHit) => { setOpen(false); setText(h.label); onPick(h); };
  return (
    <div className="tm-trace-search" data-testid="trace-search">
      <InputText value={text} placeholder={t(kinds?.length === 1 && kinds[0] === 'lot' ? 'trace.search.lotPlaceholder' : 'trace.search.placeholder')}
          aria-label={t('trace.search.label')} data-testid="trace-search-input"
          onChange={(e) => { setText(e.target.value); setOpen(true); }}
          onKeyDown={(e) => { if (e.key === 'Enter' && hits.length > 0) pick(hits[0]); if (e.key === 'Escape') setOpen(false); }} />
      {open && q.length >= 2 && (
        <ul className="tm-trace-search__hits" role="listbox" aria-label={t('trace.search.label')}>
          {hits.map((h) => (
            <li key={`${h.kind}:${h.lot ?? h.ibc ?? h.shipment}:${h.material ?? ''}`} role="option" aria-selected="false">
              <button type="button" className="tm-trace-search__hit" data-testid="trace-hit" data-kind={h.kind} onClick={() => pick(h)}>
                <span className={`tm-trace-kind tm-trace-kind--${h.kind}`}>{t(`trace.kind.${h.kind}`)}</span>
                <strong>{h.label}</strong> <small>{h.detail}</small>
              </button>
            </li>
          ))}
          {hits.length === 0 && !error && <li className="tm-trace-search__none" data-testid="trace-no-hits">{t('trace.search.none')}</li>}
          {error && <li className="tm-trace-search__none" role="alert">{error}</li>}
        </ul>
      )}
    </div>
  );
}
