import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useView } from './router';
import { useMobile } from './services';
import type { MobileApp } from './types';
import { useUpdate } from './update';
import { SignIn } from './screens/SignIn';
import { Terms } from './screens/Terms';
import { Home } from './screens/Home';
import { Feature } from './screens/Feature';
import { Queue } from './screens/Queue';
import { Menu } from './screens/Menu';

/** The mobile app's version (SPEC 9), shown in the footer; the server's appVersion wins once read. */
export const APP_VERSION = '1.1.0';

export function App() {
  const m = useMobile();
  if (!m.session) return <Layout><SignIn /></Layout>;
  return <SignedIn key={m.user} />;
}

function SignedIn() {
  const m = useMobile();
  const { t } = useTranslation();
  const view = useView();
  const [state, setState] = useState<{ loading: boolean; app: MobileApp | null; error: string | null }>({ loading: true, app: null, error: null });
  const load = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    const r = await m.loadApp();
    setState({ loading: false, app: r.app, error: r.error });
  }, [m]);
  useEffect(() => {
    void load();
  }, [load]);
  // Came back online without definitions: read them now.
  useEffect(() => {
    if (m.online && !state.app && !state.loading) void load();
  }, [m.online, state.app, state.loading, load]);

  const app = state.app;
  let body: ReactNode;
  if (!app) {
    body = state.loading ? <p role="status">{t('app.loading')}</p> : (
      <div className="card" role="alert">
        <p>{state.error ? t('app.loadFailed', { message: state.error }) : t('app.noCopy')}</p>
        <button type="button" className="btn" onClick={() => void load()}>{t('app.retry')}</button>
      </div>
    );
  } else if (app.termsAccepted === null || app.termsAccepted < app.termsVersion) {
    body = <Terms version={app.termsVersion} onAccepted={(v) => setState((s) => ({ ...s, app: { ...app, termsAccepted: v } }))} />;
  } else if (view.name === 'feature') {
    const feature = app.features.find((f) => f.id === view.id);
    body = feature ? <Feature key={feature.id} feature={feature} tiles={app.map} /> : <p role="alert">{t('feature.notFound')}</p>;
  } else if (view.name === 'sync') {
    body = <Queue app={app} />;
  } else if (view.name === 'menu') {
    body = <Menu app={app} />;
  } else {
    body = <Home app={app} />;
  }
  return <Layout version={app?.appVersion} nav={!!app && !(app.termsAccepted === null || app.termsAccepted < app.termsVersion)}>{body}</Layout>;
}

function Layout({ children, version = APP_VERSION, nav = false }: { children: ReactNode; version?: string; nav?: boolean }) {
  const m = useMobile();
  const { t } = useTranslation();
  const view = useView();
  const reload = useUpdate();
  const pending = m.unsynced.length;
  const pressure = m.storagePressure;
  return (
    <div className="app">
      <header className="bar">
        {nav && view.name !== 'home' ? (
          <button type="button" className="icon-btn" aria-label={t('app.back')} onClick={() => history.length > 1 ? history.back() : navigate({ name: 'home' })}>←</button>
        ) : null}
        <h1 className="bar-title">{t('app.title')}</h1>
        <span className={`net ${m.online ? 'on' : 'off'}`} role="status" data-testid="connectivity">{m.online ? t('app.online') : t('app.offline')}</span>
        {nav ? (
          <>
            <button type="button" className="icon-btn badge-btn" data-testid="sync-button" aria-label={`${t('queue.heading')}: ${t('home.toSend', { count: pending })}`} onClick={() => navigate({ name: 'sync' })}>
              ⇅{pending ? <span className="badge">{pending}</span> : null}
            </button>
            <button type="button" className="icon-btn" aria-label={t('app.menu')} data-testid="menu-button" onClick={() => navigate({ name: 'menu' })}>☰</button>
          </>
        ) : null}
      </header>
      {!m.online ? <p className="banner warn" role="status" data-testid="offline-banner">{t('app.offlineBanner')}</p> : null}
      {pressure !== null ? <p className="banner danger" role="alert" data-testid="storage-warning">{t('app.storagePressure', { percent: Math.round(pressure * 100) })}</p> : null}
      {m.sync.needsSignIn ? <p className="banner danger" role="alert">{t('queue.signInAgain')}</p> : null}
      {reload ? (
        <p className="banner" role="status">{t('app.updateAvailable')} <button type="button" className="link" onClick={reload}>{t('app.reload')}</button></p>
      ) : null}
      <main className="content">{children}</main>
      <footer className="foot" data-testid="app-version">{t('app.version', { version })}</footer>
    </div>
  );
}
