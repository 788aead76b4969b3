import '../operations/operations.css';
import './monitoring.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { errorText } from '../api/errorText';
import type { CachedAnswer } from '../api/cache';
import { useServices } from '../app/services';

export interface ServerCacheRow {
  name: string;
  description: string;
  entries: number;
}

/**
 * /cache-manager (features.json `monitoring.view: caches`): the server's caches (/api/v3/caches)
 * and this browser's cached GET answers (SPEC 7), each listed and cleared one or all at once.
 */
export default function CacheManager({ title }: { title: string }) {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [server, setServer] = useState<ServerCacheRow[] | null>(null);
  const [answers, setAnswers] = useState<CachedAnswer[]>(() => api.cache.list());
  const [error, setError] = useState<string | null>(null);

  const fail = useCallback((e: unknown) => setError(errorText(e, t)), [t]);
  // Only the latest request's answer (or failure) is shown: a refresh sent before a clear may answer after it, with the old counts.
  const latest = useRef(0);
  const show = useCallback((request: Promise<{ data: ServerCacheRow[] }>) => {
    const n = ++latest.current;
    request.then((r) => { if (n === latest.current) setServer(r.data); }, (e: unknown) => { if (n === latest.current) fail(e); });
  }, [fail]);
  const load = useCallback(() => {
    setAnswers(api.cache.list());
    show(api.get<{ data: ServerCacheRow[] }>('/api/v3/caches', { noCache: true }));
  }, [api, show]);
  useEffect(load, [load]);

  const clearServer = (name?: string) => {
    setError(null);
    show(api.post<{ data: ServerCacheRow[] }>(name ? `/api/v3/caches/${encodeURIComponent(name)}/clear` : '/api/v3/caches/clear'));
  };
  const clearAnswer = (id?: string) => {
    if (id === undefined) api.cache.clear();
    else api.invalidate(id);
    setAnswers(api.cache.list());
  };
  const when = (ms: number) => new Date(ms).toLocaleTimeString(i18n.resolvedLanguage);

  return (
    <main className="tm-guest tm-op tm-cm" data-testid="cache-manager">
      <div className="tm-cm__head">
        <h1 className="tm-op__title">{title}</h1>
        <Button text size="small" icon="pi pi-refresh" label={t('monitoring.caches.refresh')} onClick={load} data-testid="cache-refresh" />
      </div>
      {error && <p className="tm-empty__text" role="alert" data-testid="cache-error">{error}</p>}
      <section aria-labelledby="cm-server">
        <h2 id="cm-server">{t('monitoring.caches.server')}</h2>
        <table className="tm-op-table" data-testid="server-caches">
          <thead><tr><th>{t('monitoring.caches.name')}</th><th>{t('monitoring.caches.entries')}</th><th /></tr></thead>
          <tbody>
            {(server ?? []).map((c) => (
              <tr key={c.name} data-cache={c.name}>
                <td><code>{c.name}</code><br /><small>{c.description}</small></td>
                <td data-testid="entries">{c.entries}</td>
                <td><Button text size="small" icon="pi pi-trash" label={t('monitoring.caches.clear')} onClick={() => clearServer(c.name)} data-testid="clear-server-cache" /></td>
              </tr>
            ))}
          </tbody>
        </table>
        <Button size="small" severity="secondary" icon="pi pi-trash" label={t('monitoring.caches.clearServer')} onClick={() => clearServer()} disabled={!server?.length} data-testid="clear-server-caches" />
      </section>
      <section aria-labelledby="cm-browser">
        <h2 id="cm-browser">{t('monitoring.caches.browser')}</h2>
        {!api.cache.enabled && <p data-testid="browser-off">{t('monitoring.caches.browserOff')}</p>}
        {answers.length === 0
          ? <p data-testid="browser-empty">{t('monitoring.caches.browserEmpty')}</p>
          : (
            <table className="tm-op-table" data-testid="browser-answers">
              <thead><tr><th>{t('monitoring.caches.request')}</th><th>{t('monitoring.caches.expires')}</th><th>{t('monitoring.caches.size')}</th><th /></tr></thead>
              <tbody>
                {answers.map((a) => (
                  <tr key={a.id} data-answer={a.id}>
                    <td><code>{a.id}</code></td>
                    <td>{a.expired ? t('monitoring.caches.expired') : when(a.expiresAt)}</td>
                    <td>{a.size}</td>
                    <td><Button text size="small" icon="pi pi-trash" label={t('monitoring.caches.clear')} onClick={() => clearAnswer(a.id)} data-testid="clear-answer" /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        <Button size="small" severity="secondary" icon="pi pi-trash" label={t('monitoring.caches.clearBrowser')} onClick={() => clearAnswer()} disabled={answers.length === 0} data-testid="clear-browser" />
      </section>
    </main>
  );
}
