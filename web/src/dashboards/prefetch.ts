/**
 * A dashboard's widget answers, asked for as soon as the feature frame has the definitions:
 * before the access check and the screen's code arrive, which is most of a home page's first
 * paint; the chart and map code starts loading with them. Each widget card takes its own answer
 * once, when it mounts with the same dashboard, filters and warehouse group the answer was asked
 * with; any other card asks again. Nothing is kept beyond the next navigation.
 */
import type { Registry, WidgetData } from '../../../engine/src/index';
import type { DashboardsApi } from './api';
import { barOfSearch, barParams, dashboardFeature, localToday } from './model';
import { preloadWidgets } from './widgetChunks';

type Answer = Promise<WidgetData & { id: string }>;

const early = new Map<string, Answer>();
const slot = (dashboard: string, widget: string, reload: string) => JSON.stringify([dashboard, widget, reload]);

/** What a widget's data depends on beside its dashboard: the bar's query and the selected group. */
export function widgetReload(query: string, warehouseName: string | null): string {
  return `${query}|${warehouseName ?? ''}`;
}

/** The query of a frame address's hash (`#/?period.from=…`), as the hash router reads it. */
export function hashSearch(hash: string): URLSearchParams {
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}

/**
 * Asks for every widget of the dashboard `featureId` draws, with the filters the screen will
 * start from (the address's, else each filter's default); a feature with no dashboard asks nothing.
 */
export function prefetchWidgets(
  registry: Pick<Registry, 'features' | 'dashboards'>, featureId: string, api: DashboardsApi,
  search: URLSearchParams, warehouseName: string | null, today: string = localToday(),
): void {
  early.clear();
  const feature = dashboardFeature(registry, featureId);
  if (!feature || !Object.hasOwn(registry.dashboards, feature.dashboard.key)) return;
  const def = registry.dashboards[feature.dashboard.key];
  const params = barParams(def.filters, barOfSearch(def.filters, search, today));
  const reload = widgetReload(new URLSearchParams(params).toString(), warehouseName);
  // Their chart and map code too: otherwise it starts only once the dashboard's chunk has mounted.
  preloadWidgets(def.widgets.map((w) => w.type));
  for (const w of def.widgets) {
    const answer = api.widget(def.key, w.id, params);
    answer.catch(() => undefined); // the card that takes it reports the failure
    early.set(slot(def.key, w.id, reload), answer);
  }
}

/** The answer asked for early for this widget, filters and group, taken once; else undefined. */
export function takePrefetched(dashboard: string, widget: string, reload: string): Answer | undefined {
  const key = slot(dashboard, widget, reload);
  const answer = early.get(key);
  early.delete(key);
  return answer;
}
