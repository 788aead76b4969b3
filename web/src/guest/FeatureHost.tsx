import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter } from 'react-router-dom';
import { buildMenu, buildRouteTable, localize, routesFor, type Registry, type WarehouseGroup } from '../../../engine/src/index';
import { ServicesContext, type Services } from '../app/services';
import { isLang } from '../i18n/language';
import { ShellContext, type ShellValue } from '../shell/shellContext';
import { ToastProvider } from '../toasts/ToastProvider';
import { operationView } from '../operations/model';
import { monitoringFeature, reportFeature, traceFeature } from './featureHost';
import { useGuestFrame } from './useGuestFrame';
import { lazyWithPreload } from '../app/lazyWithPreload';
import { dashboardFeature } from '../dashboards/model';
import { dashboardsApi } from '../dashboards/api';
import { hashSearch, prefetchWidgets } from '../dashboards/prefetch';

const OperationScreen = lazyWithPreload(() => import('../operations/OperationScreen'));
const ReportsScreen = lazyWithPreload(() => import('../reports/ReportsScreen'));
const CacheManager = lazyWithPreload(() => import('../monitoring/CacheManager'));
const DashboardScreen = lazyWithPreload(() => import('../dashboards/DashboardScreen'));
const TraceScreen = lazyWithPreload(() => import('../trace/TraceScreen'));

/** The screen module a feature is drawn by, loaded with the definitions so it renders without suspending. */
function preloadScreen(registry: Registry, featureId: string): Promise<unknown> {
  if (operationView(registry, featureId)) return OperationScreen.preload();
  if (reportFeature(registry, featureId)) return ReportsScreen.preload();
  if (dashboardFeature(registry, featureId)) return DashboardScreen.preload();
  if (traceFeature(registry, featureId)) return TraceScreen.preload();
  if (monitoringFeature(registry, featureId)) return CacheManager.preload();
  return Promise.resolve();
}

interface Access { access: string[]; groups: { name: string; access: string[] }[] }

declare global {
  interface Window {
    /** Started by public/prefetch.js in the frame while the modules load: the definitions and the access check, with the token it read. */
    __tmFrameBoot?: { token: string; config: Promise<Registry | null>; validate: Promise<{ detail?: Partial<Access> } | null> };
  }
}

/** The frame's first two answers as prefetch.js started them (taken once), when it used this session's token; else nothing. */
function earlyBoot(token: string): { config: Promise<Registry | null>; validate: Promise<{ detail?: Partial<Access> } | null> } {
  const boot = window.__tmFrameBoot;
  window.__tmFrameBoot = undefined;
  const none = Promise.resolve(null);
  if (!boot || boot.token !== token) return { config: none, validate: none };
  return { config: boot.config.catch(() => null), validate: boot.validate.catch(() => null) };
}

/** The stand-in for a feature nothing draws here: it says the screen is not available yet. */
function StandIn({ featureId, warehouse }: { featureId: string; warehouse: WarehouseGroup | null | undefined }) {
  const { t } = useTranslation();
  return (
    <main className="tm-guest">
      <div className="tm-empty tm-empty--inline">
        <div className="tm-empty__icon" aria-hidden="true"><i className="pi pi-objects-column" /></div>
        <h1 className="tm-empty__title">{t('screen.placeholder.title')}</h1>
        <p className="tm-empty__text">{t('screen.placeholder.message')}</p>
        <p className="tm-guest__meta">
          <code>{featureId.replace(/\./g, '/')}</code>
          {warehouse && <span><i className="pi pi-warehouse" aria-hidden="true" /> {warehouse.name}</span>}
        </p>
      </div>
    </main>
  );
}

/**
 * The app inside the feature frame: it speaks the guest side of the frame protocol (SPEC 7),
 * reads the definitions as the signed-in user (the session the shell stored on this origin,
 * sent as a bearer header) and draws a feature with an `operation` from its workflow, one
 * with a `report` from the report definitions, one with `monitoring` from the operations
 * routes, one with a `dashboard` from its dashboard definition; any other feature gets the stand-in.
 */
export default function FeatureHost({ featureId, services }: { featureId: string; services: Services }) {
  const { i18n } = useTranslation();
  const frame = useGuestFrame(i18n);
  const [loaded, setLoaded] = useState<{ registry: Registry; access: Access } | null | 'none'>(null);
  const { api, session } = services;

  useEffect(() => {
    if (!session.current) { setLoaded('none'); return; }
    let live = true;
    const early = earlyBoot(session.current.token);
    const registry = early.config.then((r) => r ?? api.get<Registry>('/api/config'));
    // A dashboard's widgets are asked for now, beside the access check and the screen's code.
    const group = services.warehouse;
    registry.then((r) => prefetchWidgets(r, featureId, dashboardsApi(api), hashSearch(window.location.hash), group.current)).catch(() => undefined);
    // The feature's screen loads beside the access check (a screen that fails to load still renders, by suspending).
    const screen = registry.then((r) => preloadScreen(r, featureId)).catch(() => undefined);
    const validate = early.validate.then((v) => v ?? api.get<{ detail?: Partial<Access> }>('/api/auth/validate', { noCache: true }));
    Promise.all([registry, validate, screen])
      .then(([registry, v]) => live && setLoaded({ registry, access: { access: v.detail?.access ?? [], groups: v.detail?.groups ?? [] } }))
      .catch((e: unknown) => { console.error('feature definitions failed', e); if (live) setLoaded('none'); });
    return () => { live = false; };
  }, [api, session, featureId]);

  // The selection the shell saves while this frame starts (its first group, when none was chosen
  // yet). Only then: a frame that started with a saved choice keeps it when another tab changes it,
  // as its shell does until it reloads.
  const [saved, setSaved] = useState<{ name: string | null } | null>(null);
  const [startedWithout] = useState(() => services.warehouse.current === null);
  useEffect(() => {
    if (!startedWithout) return undefined;
    const key = services.keys.selectedWarehouse;
    const onStorage = (e: StorageEvent) => { if (e.key === key) setSaved({ name: e.newValue }); };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [services, startedWithout]);

  // The shell's selection wins over the stored one as soon as it is told; every API call carries it.
  const warehouseName = frame.warehouse !== undefined ? frame.warehouse?.name ?? null : saved ? saved.name : services.warehouse.current;
  services.warehouse.current = warehouseName;

  const lang = isLang(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const ready = loaded !== null && loaded !== 'none' ? loaded : null;
  const view = useMemo(() => (ready ? operationView(ready.registry, featureId) : null), [ready, featureId]);
  const report = useMemo(() => (ready ? reportFeature(ready.registry, featureId) : null), [ready, featureId]);
  const monitoring = useMemo(() => (ready ? monitoringFeature(ready.registry, featureId) : null), [ready, featureId]);
  const dashboard = useMemo(() => (ready ? dashboardFeature(ready.registry, featureId) : null), [ready, featureId]);
  const trace = useMemo(() => (ready ? traceFeature(ready.registry, featureId) : null), [ready, featureId]);
  const shell = useMemo<ShellValue | null>(() => {
    if (!ready) return null;
    const principal = { access: ready.access.access, groups: ready.access.groups, selectedWarehouse: warehouseName };
    const routes = buildRouteTable(ready.registry, lang);
    return { registry: ready.registry, lang, routes, principal, allowed: routesFor(routes, principal, ready.registry.access.superadmin), menu: buildMenu(ready.registry, routes, principal, lang) };
  }, [ready, lang, warehouseName]);

  if (loaded === null) return <main className="tm-guest" aria-busy="true" />;
  if ((!view && !report && !monitoring && !dashboard && !trace) || !shell) return <StandIn featureId={featureId} warehouse={frame.warehouse} />;
  const group = frame.warehouse ?? frame.warehouseList.find((g) => g.name === warehouseName) ?? null;
  const { toast } = services.config.deployment.settings;
  return (
    <ServicesContext.Provider value={services}>
      <ShellContext.Provider value={shell}>
        <ToastProvider life={toast.lifeMs} baseZIndex={toast.baseZIndex}>
          <HashRouter>
            <Suspense fallback={<main className="tm-guest" aria-busy="true" />}>
              {view
                ? <OperationScreen view={view} warehouse={group} warehouseName={warehouseName} goTo={frame.goTo} />
                : report
                  ? <ReportsScreen feature={report} warehouseName={warehouseName} goTo={frame.goTo} />
                  : dashboard
                    ? <DashboardScreen feature={dashboard} warehouse={group} warehouseName={warehouseName} goTo={frame.goTo} />
                    : trace
                      ? <TraceScreen feature={trace} warehouseName={warehouseName} goTo={frame.goTo} />
                    : monitoring && <CacheManager title={localize(monitoring.name, lang)} />}
            </Suspense>
          </HashRouter>
        </ToastProvider>
      </ShellContext.Provider>
    </ServicesContext.Provider>
  );
}
