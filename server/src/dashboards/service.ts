import {
  canAccess, chartData, DashboardError, escapeRegExp, dashboardFilterQuery, dayOf, figuresChart, groupsOf, isDayRange, keysGranting, kpiData, kpiValue, localize, mapData, namedQuery, parseDashboardFilters,
  resolveRange, valueColors, valueLabels, widgetRead, widgetReportQuery,
  type DashboardDef, type DashboardFilterValues, type DashboardWidgetDef, type Group, type Label, type Lang, type LocatedEntity, type NamedQueryDef, type Registry, type ReportDef, type WidgetData,
} from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import type { ReportReader } from '../reports/reader';
import { asApiError, ReportService } from '../reports/service';
import { planTotal } from '../reports/total';
import type { Doc, Store } from '../store/types';
import { pickerReaders, readersOf } from '../workflows/readers';
import { ENGINE, OperationService } from '../workflows/service';
import { locate } from './places';
import { NamedQueries, type Reads } from './queries';

type Rec = Record<string, unknown>;

/** The SPEC 7 operations the dashboard routes serve: a key listing one opens them as its own name does. */
export const DASHBOARD_OPERATIONS = ['getDashboardConfig', 'fetchDashboardData'];

/**
 * How long a named query's groups are kept (stock and IBCs per deposit): they fold every balance
 * or IBC of the scope, the one read of a dashboard that grows with the whole store, and a
 * dashboard's figures a minute old are still today's. Counts (figures) are indexed and not kept.
 */
export const GROUPS_TTL_MS = 60_000;

/** One widget's answer within a whole dashboard's: its data, or the error it alone met (403 when its report is not the user's). */
export interface WidgetAnswer { id: string; status: number; data?: WidgetData; error?: { code: string; message: string; params?: Record<string, unknown> } }

/**
 * The dashboards a user may see and their widgets' data: a widget fed by a report reads it as the
 * report's own routes do (its access key, the selected warehouse group's narrowing, its filters,
 * the reader thread), reduced by the engine's plan; one fed by a named query runs it within the
 * same group.
 */
export class DashboardService {
  private readonly reports: ReportService;
  private readonly operations: OperationService;
  private readonly queries: NamedQueries;
  private readonly customerKeys: ReadonlySet<string>;
  /** Named queries being computed, by query and scope: widgets asking the same at once (the stock's chart and map) share one run. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Named queries' groups by query and scope, kept GROUPS_TTL_MS (the cache manager lists and clears them). */
  readonly groups = new Map<string, { at: number; docs: Doc[] }>();

  constructor(private readonly reg: Registry, private readonly store: Store, private readonly reader: ReportReader | undefined, private readonly clock: () => Date = () => new Date()) {
    this.reports = new ReportService(reg, store, reader);
    this.operations = new OperationService(reg, store, ENGINE);
    this.queries = new NamedQueries(reg, store);
    this.customerKeys = new Set(reg.access.keys.filter((k) => k.customerModule).map((k) => k.key));
  }

  /** Every key some dashboard needs, and the keys granting the dashboard operations: the routes' own check; the dashboard's comes in the handler. */
  accessKeys(): string[] {
    const keys = [...new Set([...Object.values(this.reg.dashboards).map((d) => d.access), ...keysGranting(this.reg.access, DASHBOARD_OPERATIONS)])];
    return keys.length ? keys : ['Dashboards'];
  }

  private can(p: AuthPrincipal, key: string): boolean {
    return canAccess(p, { key, customerModule: this.customerKeys.has(key) }, this.reg.access.superadmin);
  }

  /** The dashboard, if the user may see it: 404 for an unknown key, 403 naming its key otherwise. */
  visible(p: AuthPrincipal, key: string): DashboardDef {
    const def = Object.hasOwn(this.reg.dashboards, key) ? this.reg.dashboards[key] : undefined;
    if (!def) throw new ApiError('UNKNOWN_DASHBOARD', { dashboard: key.slice(0, 80) });
    if (!this.can(p, def.access)) throw new ApiError('FORBIDDEN', { key: def.access });
    return def;
  }

  widget(def: DashboardDef, id: string): DashboardWidgetDef {
    const w = def.widgets.find((x) => x.id === id);
    if (!w) throw new ApiError('UNKNOWN_WIDGET', { dashboard: def.key, widget: id.slice(0, 80) });
    return w;
  }

  private report(w: DashboardWidgetDef): ReportDef {
    return this.reports.report(w.source.report!);
  }

  private named(w: DashboardWidgetDef): NamedQueryDef {
    const q = namedQuery(w.source.query ?? '');
    if (!q) throw new ApiError('INTERNAL');
    return q;
  }

  /** Whether the user may read a widget: its report's key, or one of its named query's. */
  mayRead(p: AuthPrincipal, w: DashboardWidgetDef): boolean {
    return w.source.report !== undefined ? this.reports.mayRun(p, this.report(w)) : this.named(w).access.some((k) => this.can(p, k));
  }

  private refuse(w: DashboardWidgetDef): ApiError {
    if (w.source.report !== undefined) return new ApiError('FORBIDDEN', { key: this.report(w).access });
    const keys = this.named(w).access;
    return keys.length === 1 ? new ApiError('FORBIDDEN', { key: keys[0] }) : new ApiError('FORBIDDEN_ANY', { keys: keys.join(', ') });
  }

  today(): string {
    return dayOf(this.clock());
  }

  /** The request's filter values (400 naming a wrong one), defaults from today. */
  filters(def: DashboardDef, query: Rec): DashboardFilterValues {
    try {
      return parseDashboardFilters(def, query, this.today());
    } catch (e) {
      if (e instanceof DashboardError) throw new ApiError(e.code, e.params);
      throw e;
    }
  }

  /** getDashboardConfig: the dashboards the user may see, in the caller's language, each widget saying whether the user may read it. */
  config(p: AuthPrincipal, lang: Lang, only?: string): { data: Rec[] } {
    const defs = only !== undefined ? [this.visible(p, only)] : Object.values(this.reg.dashboards).filter((d) => this.can(p, d.access));
    const today = this.today();
    return {
      data: defs.map((d) => ({
        key: d.key, label: localize(d.label, lang), ...(d.description ? { description: localize(d.description, lang) } : {}), access: d.access, columns: d.columns,
        filters: d.filters.map((f) => ({
          id: f.id, label: localize(f.label, lang), type: f.type, ...(f.ref ? { ref: f.ref } : {}), ...(f.default ? { default: resolveRange(f.default, today) } : {}),
        })),
        widgets: d.widgets.map((w) => ({
          id: w.id, type: w.type, title: localize(w.title, lang), ...(w.description ? { description: localize(w.description, lang) } : {}), size: w.size,
          source: w.source.report !== undefined ? { report: w.source.report } : { query: w.source.query },
          ...(w.chart ? { chart: w.chart } : {}), ...(w.unit ? { unit: localize(w.unit, lang) } : {}), ...(w.goal ? { goal: w.goal } : {}), ...(w.link ? { link: w.link } : {}),
          allowed: this.mayRead(p, w),
        })),
      })),
    };
  }

  /**
   * The records a reference filter offers (a deposit): up to 20 whose title holds `q` (or the one
   * named `id`, to show a chosen record's title), active ones, within the selected group. Anyone
   * who may see the dashboard may pick a deposit of their group, without the master-data key; any
   * other record only who may read it (its list's keys, 403 otherwise), within the selected group
   * as its list is (a workflow's records): a filter added by a JSON edit opens no records wider.
   */
  async options(p: AuthPrincipal, def: DashboardDef, filterId: string, q: { q?: string; id?: string }): Promise<{ data: { id: string; title: string }[] }> {
    const f = def.filters.find((x) => x.id === filterId && x.type === 'reference');
    if (!f?.ref) throw new ApiError('DASHBOARD_FILTER_UNKNOWN', { filter: filterId.slice(0, 80), dashboard: def.key, filters: def.filters.filter((x) => x.type === 'reference').map((x) => x.id).join(', ') || '—' });
    const title = this.reg.entities[f.ref]?.titleField ?? 'id';
    const deposits = f.ref === 'company_division';
    const wf = Object.values(this.reg.workflows).find((x) => x.entity === f.ref);
    if (!deposits) {
      const access = this.reg.entities[f.ref]?.access;
      const readers = wf ? readersOf(this.reg, wf) : [...new Set([...(access ? [access] : []), ...pickerReaders(this.reg, f.ref)])];
      if (!readers.some((k) => this.can(p, k))) {
        throw readers.length === 1 ? new ApiError('FORBIDDEN', { key: readers[0] }) : new ApiError('FORBIDDEN_ANY', { keys: readers.join(', ') || '—' });
      }
    }
    const warehouse = deposits || wf ? await this.operations.warehouse(p) : null;
    const conds: Record<string, unknown>[] = [{ state: { $ne: 3 } }];
    const narrowed = !warehouse ? undefined : deposits ? { id: { $in: [...warehouse.divisions] } } : this.operations.warehouseFilter(wf!, warehouse);
    if (narrowed) conds.push(narrowed);
    if (q.id !== undefined) conds.push({ id: q.id });
    else if (q.q) conds.push({ [title]: { $regex: escapeRegExp(q.q), $options: 'i' } });
    const docs = await this.store.find(f.ref, { filter: { $and: conds }, sort: { [title]: 1 }, limit: 20, projection: { [title]: 1 } });
    return { data: docs.map((d) => ({ id: d.id, title: typeof d[title] === 'string' ? (d[title] as string) : d.id })) };
  }

  /** Pipelines run where the reports' do: on the reader thread when there is one, counts in SQL. */
  private reads(label: string): Reads {
    const reader = this.reader;
    if (!reader) return this.store;
    return { count: (c, f) => this.store.count(c, f), aggregate: (c, pipeline) => reader.aggregate(c, pipeline, label) };
  }

  /** fetchDashboardData for one widget: 403 when the user may not read it. */
  async data(p: AuthPrincipal, def: DashboardDef, w: DashboardWidgetDef, filters: DashboardFilterValues): Promise<WidgetData> {
    if (!this.mayRead(p, w)) throw this.refuse(w);
    return w.source.report !== undefined ? this.fromReport(p, def, w, filters) : this.fromQuery(p, w, filters);
  }

  /** fetchDashboardData for all the widgets at once: each answers in its own slot (403, 422…), the others are not held back. */
  async all(p: AuthPrincipal, def: DashboardDef, filters: DashboardFilterValues, onError: (widget: string, e: unknown) => void): Promise<{ key: string; filters: Record<string, string>; widgets: WidgetAnswer[] }> {
    const widgets = await Promise.all(def.widgets.map(async (w): Promise<WidgetAnswer> => {
      try {
        return { id: w.id, status: 200, data: await this.data(p, def, w, filters) };
      } catch (e) {
        const err = asApiError(e);
        if (err instanceof ApiError) return { id: w.id, status: err.status, error: err.toBody().error };
        onError(w.id, e);
        const internal = new ApiError('INTERNAL');
        return { id: w.id, status: internal.status, error: { code: internal.code, message: internal.message } };
      }
    }));
    return { key: def.key, filters: dashboardFilterQuery(def.filters, filters), widgets };
  }

  /** The period an interval chart spans: the date range fed to it, else its fixed one. */
  private span(def: DashboardDef, w: DashboardWidgetDef, filters: DashboardFilterValues): { from?: string; to?: string } | undefined {
    for (const from of Object.keys(w.source.feed)) {
      const v = filters[from];
      if (def.filters.find((f) => f.id === from)?.type === 'date_range' && v !== undefined && typeof v !== 'string') return v;
    }
    const fixed = Object.values(w.source.filters).find(isDayRange);
    return fixed && isDayRange(fixed) ? resolveRange(fixed, this.today()) : undefined;
  }

  private async fromReport(p: AuthPrincipal, def: DashboardDef, w: DashboardWidgetDef, filters: DashboardFilterValues): Promise<WidgetData> {
    const report = this.report(w);
    let q;
    try {
      q = widgetReportQuery(this.reg, report, w, filters, this.today());
    } catch (e) {
      throw asApiError(e);
    }
    const read = widgetRead(this.reg, report, w, q, await this.reports.scope(p, report));
    const reads = this.reads(report.key);
    if (read.read === 'total') return kpiData(w, await planTotal(reads, read.plan));
    if (read.read === 'page') {
      const rows = await (read.pagedInStore ? this.store : reads).aggregate(read.collection, read.pipeline);
      return { kind: 'table', rows: rows.slice(0, read.take), hasMore: rows.length > read.take };
    }
    const docs = await reads.aggregate(read.collection, read.pipeline);
    if (w.type === 'kpi') return kpiData(w, kpiValue(docs));
    const groups = groupsOf(docs);
    const series = valueLabels(this.reg, report, w.seriesBy);
    if (w.type === 'chart') {
      const colors = { categories: valueColors(this.reg, report, w.groupBy), series: valueColors(this.reg, report, w.seriesBy) };
      return chartData(w, groups, { categories: valueLabels(this.reg, report, w.groupBy), series, colors }, w.interval ? this.span(def, w, filters) : undefined);
    }
    return this.placed(w.locate!.entity, groups, series);
  }

  private async placed(entity: LocatedEntity, groups: Group[], series: Record<string, Label> = {}): Promise<WidgetData> {
    const found = await locate(this.store, entity, groups.map((g) => String(g.key ?? '')));
    return mapData(groups, (key) => found.get(key)?.place, series);
  }

  private async fromQuery(p: AuthPrincipal, w: DashboardWidgetDef, filters: DashboardFilterValues): Promise<WidgetData> {
    const name = w.source.query!;
    const q = this.named(w);
    const fed = Object.entries(w.source.feed).find(([, to]) => to === 'deposit');
    const deposit = fed ? filters[fed[0]] : undefined;
    const scope = { warehouse: await this.operations.warehouse(p), ...(typeof deposit === 'string' ? { deposit } : {}) };
    const reads = this.reads(name);
    const now = this.clock();
    // Joined as JSON: a deposit filter holding "|" must not make the key of another group's scope.
    const key = JSON.stringify([name, scope.deposit ?? null, scope.warehouse?.name ?? null]);
    const shared = <T>(run: () => Promise<T>): Promise<T> => {
      let p = this.inFlight.get(key) as Promise<T> | undefined;
      if (!p) {
        p = run().finally(() => this.inFlight.delete(key));
        this.inFlight.set(key, p);
      }
      return p;
    };
    if (q.gives === 'figures') {
      const figures = await shared(() => (name === 'declarations' ? this.queries.declarations(reads, scope, now) : this.queries.ibcFleet(reads, scope, now)));
      return w.type === 'kpi' ? kpiData(w, figures[w.measure.field!] ?? 0) : figuresChart(w, figures, q.figures ?? {});
    }
    const kept = this.groups.get(key);
    let docs: Doc[];
    if (kept && now.getTime() - kept.at < GROUPS_TTL_MS) docs = kept.docs;
    else {
      docs = await shared(() => (name === 'stockByDeposit' ? this.queries.stockByDeposit(reads, scope) : this.queries.ibcsByDeposit(reads, scope)));
      for (const [k, v] of this.groups) if (now.getTime() - v.at >= GROUPS_TTL_MS) this.groups.delete(k);
      this.groups.set(key, { at: now.getTime(), docs });
    }
    const groups = groupsOf(docs);
    if (w.type === 'map') return this.placed('company_division', groups);
    const titles = await locate(this.store, 'company_division', groups.map((g) => String(g.key ?? '')));
    return chartData(w, groups.map((g) => ({ ...g, label: titles.get(String(g.key ?? ''))?.title ?? g.label })));
  }
}
