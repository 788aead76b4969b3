/**
 * The dashboard screens without React: which feature shows which dashboard, the filter bar's
 * values and their query parameters, a widget's link, labels in the reader's language.
 */
import {
  dashboardFilterParams, localize, resolveGoTo, resolveRange, widgetReportParams,
  type DashboardDef, type DashboardFeatureDef, type DashboardFilterDef, type DashboardFilterValues, type DashboardWidgetDef, type FeatureDef, type Label, type Lang, type Registry, type RouteEntry,
} from '../../../engine/src/index';
import type { GoToPayload } from '../frame/messages';

/** The framed feature drawn from a dashboard definition (features.json `dashboard`), or null. */
export function dashboardFeature(registry: Pick<Registry, 'features'>, featureId: string): (FeatureDef & { dashboard: DashboardFeatureDef }) | null {
  const f = registry.features.features.find((x) => x.id === featureId);
  return f?.dashboard ? (f as FeatureDef & { dashboard: DashboardFeatureDef }) : null;
}

/** Today in the reader's own calendar (YYYY-MM-DD): "this month" is the reader's month. */
export function localToday(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** What the filter bar holds: a period's ends as typed (YYYY-MM-DD, '' open), a record id ('' none). */
export type BarValue = { from: string; to: string } | string;
export type BarValues = Record<string, BarValue>;

/** Every filter at its default: a period its declared one (relative to `today`), a record none. */
export function defaultBar(filters: readonly DashboardFilterDef[], today: string): BarValues {
  return Object.fromEntries(filters.map((f) => {
    if (f.type !== 'date_range') return [f.id, ''];
    const r = f.default ? resolveRange(f.default, today) : {};
    return [f.id, { from: r.from ?? '', to: r.to ?? '' }];
  }));
}

/** The bar read from an address's query; a filter it does not name keeps its default. */
export function barOfSearch(filters: readonly DashboardFilterDef[], search: URLSearchParams, today: string): BarValues {
  const out = defaultBar(filters, today);
  for (const f of filters) {
    const [a, b] = dashboardFilterParams(f);
    if (f.type === 'date_range') {
      if (search.has(a) || search.has(b)) out[f.id] = { from: search.get(a) ?? '', to: search.get(b) ?? '' };
    } else if (search.has(a)) out[f.id] = search.get(a) ?? '';
  }
  return out;
}

/** The bar as the routes' query parameters: a period's both ends always sent (empty: open), a record only when chosen. */
export function barParams(filters: readonly DashboardFilterDef[], bar: BarValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filters) {
    const v = bar[f.id];
    if (f.type === 'date_range') {
      const r = (typeof v === 'object' ? v : { from: '', to: '' });
      out[`${f.id}.from`] = r.from;
      out[`${f.id}.to`] = r.to;
    } else if (typeof v === 'string' && v !== '') out[f.id] = v;
  }
  return out;
}

/** The bar as the engine reads filter values (what a widget's report is fed). */
export function barFilterValues(filters: readonly DashboardFilterDef[], bar: BarValues): DashboardFilterValues {
  const out: DashboardFilterValues = {};
  for (const f of filters) {
    const v = bar[f.id];
    if (typeof v === 'object') {
      if (v.from || v.to) out[f.id] = { ...(v.from ? { from: v.from } : {}), ...(v.to ? { to: v.to } : {}) };
    } else if (v) out[f.id] = v;
  }
  return out;
}

/** Periods the bar refuses to apply: one ending before it starts. */
export function invertedPeriods(filters: readonly DashboardFilterDef[], bar: BarValues): string[] {
  return filters.filter((f) => {
    const v = bar[f.id];
    return typeof v === 'object' && v.from !== '' && v.to !== '' && v.to < v.from;
  }).map((f) => f.id);
}

/**
 * Where a widget's link goes, if this user may open it: the feature it names, with its query; a
 * report catalogue opens the widget's own report with the filters it was read with.
 */
export function widgetLink(
  ctx: { registry: Registry; allowed: RouteEntry[] }, def: DashboardDef, widget: DashboardWidgetDef, bar: BarValues, today: string,
): GoToPayload | null {
  const link = widget.link;
  if (!link || !resolveGoTo(ctx.allowed, link.feature)) return null;
  const feature = ctx.registry.features.features.find((f) => f.id === link.feature);
  const query: Record<string, string> = { ...link.query };
  if (feature?.report?.view === 'catalogue' && widget.source.report !== undefined) {
    Object.assign(query, { report: widget.source.report }, widgetReportParams(widget, barFilterValues(def.filters, bar), today));
  }
  return { type: link.feature, ...(Object.keys(query).length ? { query } : {}) };
}

/** A label as data carries it, in the reader's language. */
export function labelText(label: Label, lang: Lang): string {
  return typeof label === 'string' ? label : localize(label, lang);
}

/** A figure as the reader writes numbers (thousands separators, at most two decimals). */
export function figure(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(value);
}
