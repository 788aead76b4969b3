import type { Registry } from '../registry/registry';
import { parseReportQuery, type ReportQuery } from '../reports/query';
import { reportPlan, type ReportPlan } from '../reports/plan';
import { sourcePathOf } from '../reports/flow';
import type { LocalText } from '../text';
import type { ReportDef, Scalar } from '../types';
import { mondayOf, resolveRange } from './days';
import type { DashboardFilterValues } from './request';
import type { DashboardWidgetDef, DayRange, FixedFilterValue, LocatedEntity } from './types';

type Stage = Record<string, unknown>;
type Doc = Record<string, unknown>;

/** A label as the data carries it: a plain text, or a text in every language the screen picks from. */
export type Label = string | LocalText;

/** One group a widget's rows fold into: its category key, label, series, and measured value. */
export interface Group {
  key: Scalar | null;
  label?: Label;
  series?: Scalar | null;
  seriesLabel?: Label;
  value: number;
}

export interface KpiData { kind: 'kpi'; value: number; state?: 'good' | 'bad' }
export interface ChartData {
  kind: 'chart';
  /** `color`: a workflow state's own colour, when the category or series is a state. */
  categories: { key: string; label: Label; color?: string }[];
  series: { key: string; label: Label; values: number[]; color?: string }[];
  /** Categories left out past the widget's limit. */
  more: number;
}
export interface MapPoint { key: string; label: Label; lat: number; lng: number; value: number; series: { key: string; label: Label; value: number }[] }
export interface MapData { kind: 'map'; points: MapPoint[]; /** What was measured at records with no place. */ unplaced: number }
export interface TableData { kind: 'table'; rows: Doc[]; hasMore: boolean }
export type WidgetData = KpiData | ChartData | MapData | TableData;

/** A missing category or series value (a shipment with no customer…). */
export const NO_VALUE: LocalText = { en: 'None', es: 'Ninguno', fr: 'Aucun' };

/** Fixed filter values and fed dashboard filters as the report's query parameters (what its rows route would be sent). */
export function widgetReportParams(widget: DashboardWidgetDef, filters: DashboardFilterValues, today: string): Record<string, string> {
  const out: Record<string, string> = {};
  const range = (id: string, r: { from?: string; to?: string } | { min?: number; max?: number }) => {
    for (const [end, v] of Object.entries(r)) if (v !== undefined && v !== '') out[`${id}.${end}`] = String(v);
  };
  for (const [id, v] of Object.entries(widget.source.filters)) {
    if (Array.isArray(v)) out[id] = v.join(',');
    else if (typeof v === 'object' && v !== null) range(id, 'min' in v || 'max' in v ? v : resolveRange(v as DayRange, today));
    else out[id] = String(v);
  }
  for (const [from, to] of Object.entries(widget.source.feed)) {
    const v = filters[from];
    if (v === undefined) continue;
    if (typeof v === 'string') out[to] = v;
    else range(to, v);
  }
  return out;
}

/** The report request a widget makes: its params checked as the rows route checks them (throws ReportError). */
export function widgetReportQuery(reg: Registry, report: ReportDef, widget: DashboardWidgetDef, filters: DashboardFilterValues, today: string): ReportQuery {
  const params = widgetReportParams(widget, filters, today);
  if (widget.type === 'table') params.pageSize = String(widget.rows);
  return parseReportQuery(reg, report, params);
}

/**
 * What reading a widget's data from its report takes, composed after the report's own plan
 * (so scope, filters, pipeline and de-duplication are the report's): a KPI count is the
 * report's count; a distinct count or a sum one more `$group`; a chart or a map groups its rows
 * by the category (and series) path — a distinct measure first by the value counted; a table is
 * the report's first page.
 */
export type WidgetRead =
  | { read: 'total'; plan: ReportPlan }
  | { read: 'aggregate'; collection: string; pipeline: Stage[] }
  | { read: 'page'; collection: string; pipeline: Stage[]; pagedInStore: boolean; take: number };

export function widgetRead(reg: Registry, report: ReportDef, widget: DashboardWidgetDef, q: ReportQuery, scope?: Record<string, unknown>): WidgetRead {
  const plan = reportPlan(reg, report, q, scope);
  const m = widget.measure;
  if (widget.type === 'table') return { read: 'page', collection: plan.collection, pipeline: plan.rows, pagedInStore: plan.pagedInStore, take: q.pageSize };
  if (widget.type === 'kpi' && m.op === 'count') return { read: 'total', plan };
  const keyPath = widget.type === 'kpi' ? undefined : widget.type === 'map' ? widget.locate!.by : widget.groupBy!;
  const paths = [keyPath, widget.seriesBy, m.field, widget.labelBy, widget.seriesLabelBy].filter((p): p is string => p !== undefined);
  // The fold reads its paths from the source records when the report's rows are those records,
  // one each, and the paths still hold their source values: the joins it would skip add none of them.
  const sources = plan.direct ? new Map(paths.map((p) => [p, sourcePathOf(plan.direct!.flow, p)])) : undefined;
  const direct = sources && [...sources.values()].every((s) => s !== undefined) ? sources as Map<string, string> : undefined;
  const head = direct ? [plan.direct!.lead] : plan.unordered;
  const ref = (path: string) => `$${direct?.get(path) ?? path}`;
  const firstOf = (path: string | undefined) => (path ? { $first: ref(path) } : { $first: null });
  const value = m.op === 'sum' ? { $sum: ref(m.field!) } : { $sum: 1 };
  if (widget.type === 'kpi') {
    const fold: Stage[] = m.op === 'distinct'
      ? [{ $group: { _id: ref(m.field!) } }, { $group: { _id: null, v: { $sum: 1 } } }]
      : [{ $group: { _id: null, v: value } }];
    return { read: 'aggregate', collection: plan.collection, pipeline: [...head, ...fold] };
  }
  const id: Record<string, string> = { k: ref(keyPath!), ...(widget.seriesBy ? { s: ref(widget.seriesBy) } : {}) };
  const fold: Stage[] = m.op === 'distinct'
    ? [
      { $group: { _id: { ...id, d: ref(m.field!) }, l: firstOf(widget.labelBy), sl: firstOf(widget.seriesLabelBy) } },
      { $group: { _id: { k: '$_id.k', ...(widget.seriesBy ? { s: '$_id.s' } : {}) }, v: { $sum: 1 }, l: { $first: '$l' }, sl: { $first: '$sl' } } },
    ]
    : [{ $group: { _id: id, v: value, l: firstOf(widget.labelBy), sl: firstOf(widget.seriesLabelBy) } }];
  return { read: 'aggregate', collection: plan.collection, pipeline: [...head, ...fold] };
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const scalar = (v: unknown): Scalar | null => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : v instanceof Date ? v.toISOString() : null);
const label = (v: unknown): Label | undefined => {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object' && typeof (v as LocalText).en === 'string') return v as LocalText;
  return undefined;
};

/** The grouped documents of widgetRead's `$group` as groups (MongoDB leaves a missing key out of `_id`, mingo sets it null). */
export function groupsOf(docs: readonly Doc[]): Group[] {
  return docs.map((d) => {
    const id = (d._id ?? {}) as Doc;
    return { key: scalar(id.k), series: scalar(id.s), value: num(d.v), label: label(d.l), seriesLabel: label(d.sl) };
  });
}

/** A KPI's value from its read: the total, or the one document of the fold (none: no rows, 0). */
export function kpiValue(docs: readonly Doc[]): number {
  return num(docs[0]?.v);
}

/** Whether a KPI meets its goal: red ("bad") above `max` or below `min`. */
export function goalState(goal: DashboardWidgetDef['goal'], value: number): 'good' | 'bad' | undefined {
  if (!goal) return undefined;
  return (goal.max !== undefined && value > goal.max) || (goal.min !== undefined && value < goal.min) ? 'bad' : 'good';
}

export function kpiData(widget: DashboardWidgetDef, value: number): KpiData {
  const state = goalState(widget.goal, value);
  return { kind: 'kpi', value, ...(state ? { state } : {}) };
}

/** The period a date falls in: its day, the Monday of its week, or its month (YYYY-MM). */
export function periodOf(interval: NonNullable<DashboardWidgetDef['interval']>, value: string): string {
  const day = value.slice(0, 10);
  if (interval === 'day') return day;
  if (interval === 'week') return mondayOf(day);
  return day.slice(0, 7);
}

/** Every period from the one holding `from` to the one holding `to`, in order (at most `cap`). */
export function periodsBetween(interval: NonNullable<DashboardWidgetDef['interval']>, from: string, to: string, cap = 400): string[] {
  const out: string[] = [];
  let at = periodOf(interval, from);
  const last = periodOf(interval, to);
  while (at <= last && out.length < cap) {
    out.push(at);
    const d = new Date(`${interval === 'month' ? `${at}-01` : at}T00:00:00Z`);
    if (interval === 'day') d.setUTCDate(d.getUTCDate() + 1);
    else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7);
    else d.setUTCMonth(d.getUTCMonth() + 1);
    at = periodOf(interval, d.toISOString().slice(0, 10));
  }
  return out;
}

const keyText = (k: Scalar | null) => (k === null ? '' : String(k));

/** Labels of category and series values a group does not carry itself (state labels, option labels). */
export interface ChartLabels {
  categories?: Readonly<Record<string, Label>>;
  series?: Readonly<Record<string, Label>>;
  /** Colours of category and series values (a state's colour). */
  colors?: { categories?: Readonly<Record<string, string>>; series?: Readonly<Record<string, string>> };
}

/**
 * A chart's categories and series from its groups. An interval chart puts dates in periods, in
 * order, every period of `span` (the period filter feeding it) shown, empty ones at 0; another
 * chart shows its largest categories first, at most `limit`. Labels: the group's own (labelBy),
 * else `labels` (a status's state labels), else the value; a missing value reads "None".
 */
export function chartData(widget: DashboardWidgetDef, groups: readonly Group[], labels: ChartLabels = {}, span?: { from?: string; to?: string }): ChartData {
  const interval = widget.interval;
  const cats = new Map<string, { label: Label; total: number }>();
  const series = new Map<string, { label: Label; total: number; byCat: Map<string, number> }>();
  for (const g of groups) {
    const raw = keyText(g.key);
    if (interval && raw === '') continue;
    const cat = interval ? periodOf(interval, raw) : raw;
    const c = cats.get(cat) ?? { label: interval ? cat : g.label ?? labels.categories?.[cat] ?? (raw === '' ? NO_VALUE : raw), total: 0 };
    c.total += g.value;
    cats.set(cat, c);
    const sk = keyText(g.series ?? null);
    // Without a series path and key, one series named after the widget; a named query's groups come in series of their own (units).
    const unnamed = sk === '' && !widget.seriesBy;
    const s = series.get(sk) ?? { label: unnamed ? widget.title : g.seriesLabel ?? labels.series?.[sk] ?? (sk === '' ? NO_VALUE : sk), total: 0, byCat: new Map<string, number>() };
    s.total += g.value;
    s.byCat.set(cat, (s.byCat.get(cat) ?? 0) + g.value);
    series.set(sk, s);
  }
  let keys: string[];
  let more = 0;
  if (interval) {
    const present = [...cats.keys()].sort();
    const from = span?.from ?? present[0];
    const to = span?.to ?? present[present.length - 1];
    const all = new Set(from !== undefined && to !== undefined && from <= to ? periodsBetween(interval, from, to) : []);
    for (const k of present) all.add(k);
    keys = [...all].sort();
  } else {
    keys = [...cats.entries()].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
    const limit = widget.limit ?? keys.length;
    more = Math.max(0, keys.length - limit);
    keys = keys.slice(0, limit);
  }
  return {
    kind: 'chart',
    categories: keys.map((k) => ({ key: k, label: cats.get(k)?.label ?? k, ...(labels.colors?.categories?.[k] ? { color: labels.colors.categories[k] } : {}) })),
    series: [...series.entries()].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1))
      .map(([key, s]) => ({ key, label: s.label, values: keys.map((k) => s.byCat.get(k) ?? 0), ...(labels.colors?.series?.[key] ? { color: labels.colors.series[key] } : {}) })),
    more,
  };
}

/** A chart of a named query's figures: each figure the widget lists is a category of one series. */
export function figuresChart(widget: DashboardWidgetDef, figures: Readonly<Record<string, number>>, labels: Readonly<Record<string, LocalText>>): ChartData {
  const keys = widget.figures ?? [];
  return {
    kind: 'chart',
    categories: keys.map((k) => ({ key: k, label: labels[k] ?? k })),
    series: [{ key: '', label: widget.title, values: keys.map((k) => num(figures[k])) }],
    more: 0,
  };
}

/**
 * Where records of a kind are: their own point (`point`), or the point of the record `via`
 * names (a deposit is where its company is). `title` labels the place.
 */
export interface Locator { title: string; point?: string; via?: { field: string; entity: LocatedEntity } }
export const LOCATORS: Readonly<Record<LocatedEntity, Locator>> = {
  company: { title: 'company_name', point: 'address.location' },
  plant: { title: 'name', point: 'address.location' },
  company_division: { title: 'division_name', via: { field: 'company_id', entity: 'company' } },
};

/** A place: a point on the globe and what it is called. */
export interface Place { label: Label; lat: number; lng: number }

const onGlobe = (lat: unknown, lng: unknown) => typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The place of a located record, `viaDoc` being the record its locator goes through; undefined when it has no point. */
export function placeOf(entity: LocatedEntity, doc: Doc | undefined, viaDoc?: Doc): Place | undefined {
  if (!doc) return undefined;
  const loc = LOCATORS[entity];
  const at = (d: Doc | undefined, path: string) => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Doc)[k] : undefined), d);
  const pointDoc = loc.via ? viaDoc : doc;
  const point = at(pointDoc, loc.via ? LOCATORS[loc.via.entity].point! : loc.point!) as { lat?: unknown; lng?: unknown } | undefined;
  if (!point || !onGlobe(point.lat, point.lng)) return undefined;
  return { label: label(doc[loc.title]) ?? String(doc.id ?? ''), lat: point.lat as number, lng: point.lng as number };
}

/** A map's points: the groups of one record added up, placed where `place` says; groups with no place add to `unplaced`. */
export function mapData(groups: readonly Group[], place: (key: string) => Place | undefined, labels: Readonly<Record<string, Label>> = {}): MapData {
  const points = new Map<string, MapPoint>();
  let unplaced = 0;
  for (const g of groups) {
    const key = keyText(g.key);
    const p = key === '' ? undefined : place(key);
    if (!p) { unplaced += g.value; continue; }
    const point = points.get(key) ?? { key, label: p.label, lat: p.lat, lng: p.lng, value: 0, series: [] };
    point.value += g.value;
    if (g.series !== undefined && g.series !== null) {
      const sk = String(g.series);
      const s = point.series.find((x) => x.key === sk);
      if (s) s.value += g.value;
      else point.series.push({ key: sk, label: g.seriesLabel ?? labels[sk] ?? sk, value: g.value });
    }
    points.set(key, point);
  }
  return { kind: 'map', points: [...points.values()].sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1)), unplaced };
}

/**
 * The labels of the values a row path holds, by value: a status column's state labels (a chart
 * grouped by a delivery's state names its states), else the options of a select filter on that
 * field (an alert's severity).
 */
export function valueLabels(reg: Registry, report: ReportDef, path: string | undefined): Record<string, LocalText> {
  if (path === undefined) return {};
  const col = report.columns.find((c) => c.type === 'status' && c.field === path);
  const states = col?.workflow ? reg.workflows[col.workflow]?.states : undefined;
  if (states) return Object.fromEntries(states.map((s) => [s.id, s.label]));
  const select = report.filters.find((f) => f.type === 'select' && f.field === path);
  return Object.fromEntries((select?.options ?? []).map((o) => [String(o.value), o.label]));
}

/** The colours of a status column's states (by state id): a chart of states paints each in its badge's colour. */
export function valueColors(reg: Registry, report: ReportDef, path: string | undefined): Record<string, string> {
  const col = path === undefined ? undefined : report.columns.find((c) => c.type === 'status' && c.field === path);
  const states = col?.workflow ? reg.workflows[col.workflow]?.states : undefined;
  return Object.fromEntries((states ?? []).filter((s) => s.color).map((s) => [s.id, s.color!]));
}

/** Whether a fixed filter value is a range of days (the other objects are number ranges). */
export function isDayRange(v: FixedFilterValue): v is DayRange {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !('min' in v || 'max' in v);
}
