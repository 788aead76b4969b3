import '../operations/operations.css';
import '../reports/reports.css';
import './dashboards.css';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { localize, type DashboardFeatureDef, type FeatureDef, type WarehouseGroup } from '../../../engine/src/index';
import { useServices } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { useMasterData } from '../masterdata/useMasterData';
import { reportsApi } from '../reports/api';
import { ReportsContext } from '../reports/context';
import { dashboardsApi } from './api';
import { DashboardContext } from './context';
import { DashboardFilters } from './DashboardFilters';
import { barOfSearch, barParams, localToday, type BarValues } from './model';
import { widgetReload } from './prefetch';
import { WidgetCard } from './WidgetCard';
import { preloadWidgets } from './widgetChunks';

export interface DashboardScreenProps {
  feature: FeatureDef & { dashboard: DashboardFeatureDef };
  /** The selected warehouse group: its deposits fill the deposit filter. */
  warehouse: WarehouseGroup | null;
  /** The selected group's name: every widget loads again when it changes. */
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

/**
 * A dashboard feature of the frame (features.json `dashboard`): the definition's filter bar and
 * its widgets on a grid of the definition's columns, each widget loading in parallel and
 * painting as its data comes. The filters live in the frame's address (`#/?period.from=…`), so
 * a reload keeps them.
 */
export default function DashboardScreen({ feature, warehouse, warehouseName, goTo }: DashboardScreenProps) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { registry, lang } = useMasterData();
  const def = Object.hasOwn(registry.dashboards, feature.dashboard.key) ? registry.dashboards[feature.dashboard.key] : undefined;
  const filters = useMemo(() => def?.filters ?? [], [def]);
  const [search, setSearch] = useSearchParams();
  const today = useMemo(() => localToday(), []);
  const [bar, setBar] = useState<BarValues>(() => barOfSearch(filters, search, today));
  const params = barParams(filters, bar);
  const query = new URLSearchParams(params).toString();
  useEffect(() => { if (query !== search.toString()) setSearch(query, { replace: true }); }, [query]); // eslint-disable-line react-hooks/exhaustive-deps -- the address follows the bar

  const deposits = useMemo(() => [...(warehouse?.warehouseList ?? [])].sort((a, b) => a.label.localeCompare(b.label)), [warehouse]);
  // A deposit left over from another group is no filter of this one.
  useEffect(() => {
    const ids = new Set(deposits.map((d) => String(d.id)));
    const stale = warehouse ? filters.filter((f) => f.ref === 'company_division' && typeof bar[f.id] === 'string' && bar[f.id] !== '' && !ids.has(bar[f.id] as string)) : [];
    if (stale.length) setBar((b) => ({ ...b, ...Object.fromEntries(stale.map((f) => [f.id, ''])) }));
  }, [deposits]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => { if (def) preloadWidgets(def.widgets.map((w) => w.type)); }, [def]);
  const context = useMemo(() => ({ api: dashboardsApi(api), goTo }), [api, goTo]);
  const reports = useMemo(() => ({ reports: reportsApi(api), warehouseName, goTo }), [api, warehouseName, goTo]);
  const reload = widgetReload(query, warehouseName);

  if (!def) return <main className="tm-guest"><p className="tm-empty__text" role="alert" data-testid="dashboard-unknown">{t('dashboards.unknown', { key: feature.dashboard.key })}</p></main>;
  return (
    <DashboardContext.Provider value={context}>
      <ReportsContext.Provider value={reports}>
        <main className="tm-guest tm-dash" data-testid="dashboard-screen" data-dashboard={def.key} data-feature={feature.id}>
          <header className="tm-dash__head">
            <h1 className="tm-op__title">{localize(feature.name, lang)}</h1>
            {def.description && <p className="tm-dash__description">{localize(def.description, lang)}</p>}
          </header>
          <DashboardFilters filters={filters} values={bar} onApply={setBar} today={today} deposits={deposits} dashboard={def.key} api={context.api} />
          <div className="tm-dash-grid" style={{ gridTemplateColumns: `repeat(${def.columns}, minmax(0, 1fr))` }} data-testid="dashboard-grid">
            {def.widgets.map((w) => <WidgetCard key={w.id} dashboard={def} widget={w} params={params} reload={reload} bar={bar} today={today} />)}
          </div>
        </main>
      </ReportsContext.Provider>
    </DashboardContext.Provider>
  );
}
