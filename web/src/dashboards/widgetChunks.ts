import { lazyWithPreload } from '../app/lazyWithPreload';

/**
 * The chart and map widgets' code, each a chunk of its own (ECharts, Leaflet). Apart from the
 * grid so the feature frame can start loading them with the widgets' data (prefetch.ts), before
 * the dashboard's own chunk has arrived and mounted.
 */
export const ChartWidget = lazyWithPreload(() => import('./ChartWidget'));
export const MapWidget = lazyWithPreload(() => import('./MapWidget'));

/**
 * Starts loading the chart and map code of a dashboard's widgets while their data is on its way:
 * once loaded, a chart renders as soon as its data comes, without suspending (React would hold
 * the revealed card back for up to 300 ms).
 */
export function preloadWidgets(types: Iterable<string>): void {
  const has = new Set(types);
  if (has.has('chart')) void ChartWidget.preload();
  if (has.has('map')) void MapWidget.preload();
}
