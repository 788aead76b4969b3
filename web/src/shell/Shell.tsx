import { Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from 'primereact/progressbar';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { useHelpNoticeOnHistory } from '../frame/navigation';
import ErrorPage from '../screens/ErrorPage';
import { BusyFallback, useBusy } from './busy';
import { currentRoute } from './currentRoute';
import { Header } from './Header';
import { ShellRoutes } from './ShellRoutes';
import { SideMenu } from './SideMenu';
import { useShell } from './shellContext';

const SMALL = '(max-width: 991px)';

/** SPEC 2.1: header, progress bar, side menu and the routed screen. */
export function Shell() {
  const { t } = useTranslation();
  const { allowed } = useShell();
  const { pathname } = useLocation();
  const busy = useBusy();
  const route = currentRoute(allowed, pathname);
  const hideNavbar = route?.hideNavbar === true;
  const [small, setSmall] = useState(() => window.matchMedia(SMALL).matches);
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  useHelpNoticeOnHistory();

  useEffect(() => {
    const mq = window.matchMedia(SMALL);
    const onChange = () => setSmall(mq.matches);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    document.title = route && route.path !== '/' ? `${route.name} · ${t('app.name')}` : t('app.name');
  }, [route, t]);

  const menuOpen = small ? mobileOpen : !collapsed;
  const toggle = useCallback(() => (small ? setMobileOpen((v) => !v) : setCollapsed((v) => !v)), [small]);
  const closeOnSmall = useCallback(() => setMobileOpen(false), []);

  return (
    <div className={`tm-shell${hideNavbar ? ' tm-shell--bare' : ''}${menuOpen ? ' tm-shell--menu-open' : ' tm-shell--menu-closed'}`}>
      <a className="tm-skip" href="#tm-main">{t('shell.skipToContent')}</a>
      {!hideNavbar && (
        <>
          <Header route={route} menuOpen={menuOpen} onToggleMenu={toggle} />
          <ProgressBar
            className="tm-progress" mode={busy ? 'indeterminate' : 'determinate'} value={busy ? undefined : 100}
            showValue={false} aria-label={t('shell.loading')} data-state={busy ? 'loading' : 'idle'} data-testid="progress"
          />
        </>
      )}
      <div className="tm-shell__body">
        {!hideNavbar && <SideMenu open={menuOpen} onNavigate={closeOnSmall} />}
        {!hideNavbar && small && mobileOpen && (
          <div className="tm-mask" data-testid="menu-mask" onClick={() => setMobileOpen(false)} aria-hidden="true" />
        )}
        <main id="tm-main" className="tm-main" tabIndex={-1}>
          <ErrorBoundary resetKey={pathname} fallback={(retry) => <ErrorPage onRetry={retry} />}>
            <Suspense fallback={<BusyFallback />}>
              <ShellRoutes />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
