import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { localize, resolveGoTo, type EntityDef } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { Page } from '../components/Page';
import { recordTitle } from '../../../engine/src/list/index';
import { recordPath } from '../masterdata/recordLink';
import { useAppNavigate } from '../frame/navigation';
import { useShell } from '../shell/shellContext';
import type { ScreenProps } from './types';

interface ListAnswer {
  data: Record<string, unknown>[];
  total: number;
}

type Results = Record<string, { rows: Record<string, unknown>[]; total: number } | { error: string }>;

const PAGE_SIZE = 10;

/** SPEC 2.3: searches every entity type the global-search setting lists, with the master-data list API. */
export default function GlobalSearch({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { registry, lang, allowed } = useShell();
  const navigate = useAppNavigate();
  const settings = registry.deployment.settings;
  const entities = useMemo(
    () => (settings.globalSearch ?? []).map((n) => registry.entities[n]).filter((e): e is EntityDef => e !== undefined),
    [settings.globalSearch, registry.entities],
  );
  const [q, setQ] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const min = settings.autocompleteMinChars;
  const term = q.trim();

  useEffect(() => {
    if (term.length < min) {
      setResults(null);
      return;
    }
    let live = true;
    const timer = setTimeout(async () => {
      setBusy(true);
      const params = `q=${encodeURIComponent(term)}&page=1&pageSize=${PAGE_SIZE}`;
      const settled = await Promise.all(entities.map(async (e) => {
        try {
          const a = await api.get<ListAnswer>(`/api/v3/masterdata/${e.name}?${params}`, { noCache: true });
          return [e.name, { rows: a.data ?? [], total: a.total ?? 0 }] as const;
        } catch (err) {
          return [e.name, { error: (err as Error).message }] as const;
        }
      }));
      if (!live) return;
      setResults(Object.fromEntries(settled));
      setBusy(false);
    }, settings.picker.debounceMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [term, min, entities, api, settings.picker.debounceMs]);

  const open = (entity: string, rowId: unknown) => {
    const target = resolveGoTo(allowed, entity);
    if (target) navigate(recordPath(target, entity, String(rowId)));
  };

  const found = results ? entities.filter((e) => { const r = results[e.name]; return r && 'rows' in r && r.rows.length > 0; }) : [];

  return (
    <Page title={route?.name ?? t('globalSearch.title')} icon="pi pi-search">
      <div className="tm-search">
        <span className="tm-search__box">
          <i className={busy ? 'pi pi-spin pi-spinner' : 'pi pi-search'} aria-hidden="true" />
          <label htmlFor={`${id}-q`} className="tm-visually-hidden">{t('common.search')}</label>
          <InputText id={`${id}-q`} value={q} autoFocus placeholder={t('globalSearch.placeholder')} onChange={(e) => setQ(e.target.value)} />
        </span>
        {term.length > 0 && term.length < min && <small className="tm-search__hint">{t('form.picker.minChars', { count: min })}</small>}
      </div>
      {results && found.length === 0 && !busy && <p className="tm-search__empty" data-testid="search-empty">{t('globalSearch.noResults')}</p>}
      <div className="tm-search__results" aria-live="polite">
        {found.map((e) => {
          const r = results![e.name] as { rows: Record<string, unknown>[]; total: number };
          const linked = resolveGoTo(allowed, e.name) !== null;
          return (
            <section key={e.name} className="tm-card tm-search__group" data-entity={e.name}>
              <h2 className="tm-search__group-title">
                {t('globalSearch.in', { entity: localize(e.pluralLabel, lang) })}
                <span className="tm-badge">{r.total}</span>
              </h2>
              <ul className="tm-search__list">
                {r.rows.map((row) => (
                  <li key={String(row.id)}>
                    {linked ? (
                      <button type="button" className="tm-search__item" onClick={() => open(e.name, row.id)}>
                        <span>{recordTitle(e, row, lang)}</span><small>{String(row.id)}</small>
                      </button>
                    ) : (
                      <span className="tm-search__item"><span>{recordTitle(e, row, lang)}</span><small>{String(row.id)}</small></span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </Page>
  );
}
