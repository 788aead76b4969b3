import { canAccess, localize, parseReportQuery, ReportError, reportColumns, reportPlan, type Lang, type Registry, type ReportDef, type ReportPlan, type ReportQuery } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import type { Doc, Filter, Pipeline, Store } from '../store/types';
import { ENGINE, OperationService } from '../workflows/service';
import type { ReportReader } from './reader';
import { planTotal } from './total';

type Rec = Record<string, unknown>;

/** Query parameters that are not filters (parseReportQuery reads them itself). */
export const RESERVED_PARAMS = ['page', 'pageSize', 'sort', 'lang'];

/** What the engine throws for a bad filter or sort, as the API's 400 naming it. */
export function asApiError(e: unknown): unknown {
  if (e instanceof Error && e.name === 'ReportError') return new ApiError((e as ReportError).code, (e as ReportError).params);
  return e;
}

/**
 * The reports a user may run and what running one reads: the report's own access key (narrowed
 * by the selected warehouse group when the key is a customer-module one, SPEC 6), and rows
 * limited to the group's deposits.
 */
export class ReportService {
  private readonly operations: OperationService;
  private readonly customerKeys: ReadonlySet<string>;

  /** `reader`: the embedded store's report reader thread (none on MongoDB, where the database runs the pipelines). */
  constructor(private readonly reg: Registry, private readonly store: Store, private readonly reader?: ReportReader) {
    this.operations = new OperationService(reg, store, ENGINE);
    this.customerKeys = new Set(reg.access.keys.filter((k) => k.customerModule).map((k) => k.key));
  }

  /** Every access key some report needs: the routes' own check (any one of them), the report's comes in the handler. */
  accessKeys(): string[] {
    const keys = [...new Set(Object.values(this.reg.reports).map((d) => d.access))];
    return keys.length ? keys : ['Reports'];
  }

  report(key: string): ReportDef {
    const def = Object.hasOwn(this.reg.reports, key) ? this.reg.reports[key] : undefined;
    if (!def) throw new ApiError('UNKNOWN_REPORT', { report: key.slice(0, 80) });
    return def;
  }

  mayRun(p: AuthPrincipal, def: ReportDef): boolean {
    return canAccess(p, { key: def.access, customerModule: this.customerKeys.has(def.access) }, this.reg.access.superadmin);
  }

  /** The report, if the user may run it: 404 for an unknown key, 403 naming the key otherwise. */
  runnable(p: AuthPrincipal, key: string): ReportDef {
    const def = this.report(key);
    if (!this.mayRun(p, def)) throw new ApiError('FORBIDDEN', { key: def.access });
    return def;
  }

  /** The selected warehouse group's condition on the report's source (undefined: not narrowed). */
  async scope(p: AuthPrincipal, def: ReportDef): Promise<Filter | undefined> {
    return this.operations.warehouseFilter(def, await this.operations.warehouse(p));
  }

  query(def: ReportDef, params: Rec): ReportQuery {
    try {
      return parseReportQuery(this.reg, def, params);
    } catch (e) {
      throw asApiError(e);
    }
  }

  /** Filters as saved or posted (query-parameter form), checked as the rows route would. */
  checkedFilters(def: ReportDef, filters: Record<string, string> = {}, sort?: string): ReportQuery {
    const reserved = Object.keys(filters).find((k) => RESERVED_PARAMS.includes(k));
    if (reserved) throw new ApiError('REPORT_FILTER_UNKNOWN', { filter: reserved, report: def.key, filters: def.filters.map((f) => f.id).join(', ') });
    return this.query(def, { ...filters, ...(sort ? { sort } : {}) });
  }

  async plan(p: AuthPrincipal, def: ReportDef, q: ReportQuery): Promise<ReportPlan> {
    return reportPlan(this.reg, def, q, await this.scope(p, def));
  }

  /**
   * Where a plan's pipelines run: on the reader thread when there is one, so a pipeline reading
   * a whole source neither blocks the server nor takes its heap; plain counts stay in SQL.
   */
  private reads(def: ReportDef): Pick<Store, 'count' | 'aggregate'> {
    const reader = this.reader;
    if (!reader) return this.store;
    return { count: (c, f) => this.store.count(c, f), aggregate: (c, pipeline) => reader.aggregate(c, pipeline, def.key) };
  }

  async rows(p: AuthPrincipal, key: string, params: Rec): Promise<Rec> {
    const def = this.runnable(p, key);
    const q = this.query(def, params);
    const plan = await this.plan(p, def, q);
    // A page the store cuts in SQL reads a page of records: quicker here than a trip to the thread.
    const rows: Doc[] = await (plan.pagedInStore ? this.store : this.reads(def)).aggregate(plan.collection, plan.rows);
    return { [def.source.responseField]: rows.slice(0, q.pageSize), page: q.page, pageSize: q.pageSize, hasMore: rows.length > q.pageSize };
  }

  async count(p: AuthPrincipal, key: string, params: Rec): Promise<{ total: number }> {
    const def = this.runnable(p, key);
    return { total: await planTotal(this.reads(def), await this.plan(p, def, this.query(def, params))) };
  }

  /** The catalogue entry of a report in the caller's language; `sort` in the form of the `sort` parameter (column ids). */
  entry(def: ReportDef, lang: Lang): Rec {
    const columns = reportColumns(this.reg, def, lang);
    const sort = Object.entries(def.sort).map(([path, dir]) => {
      const id = def.columns.find((c) => c.field === path)?.id ?? path;
      return dir < 0 ? `-${id}` : id;
    }).join(',');
    const filters = def.filters.map((f) => {
      const states = f.type === 'status' ? this.reg.workflows[f.workflow ?? def.statusOf ?? '']?.states ?? [] : [];
      const options = f.type === 'select' ? (f.options ?? []).map((o) => ({ value: o.value, label: localize(o.label, lang) }))
        : f.type === 'status' ? states.map((s) => ({ value: s.id, label: localize(s.label, lang) })) : undefined;
      return { id: f.id, label: localize(f.label, lang), type: f.type, ...(options ? { options } : {}), ...(f.ref ? { ref: f.ref } : {}) };
    });
    return {
      key: def.key, label: localize(def.label, lang), description: def.description ? localize(def.description, lang) : undefined, category: def.category,
      responseField: def.source.responseField, filters, columns, sort, export: def.export, ...(def.limit ? { limit: def.limit } : {}),
    };
  }

  catalogue(p: AuthPrincipal, lang: Lang): { data: Rec[] } {
    return { data: Object.values(this.reg.reports).filter((d) => this.mayRun(p, d)).map((d) => this.entry(d, lang)) };
  }
}

/** Filters in query-parameter form as the store keeps them: names like `sendDate.from` cannot be document keys. */
export function filterPairs(filters: Record<string, string> = {}): { name: string; value: string }[] {
  return Object.entries(filters).map(([name, value]) => ({ name, value }));
}

export function filtersOf(pairs: unknown): Record<string, string> {
  return Object.fromEntries((Array.isArray(pairs) ? pairs : []).map((p: { name: string; value: string }) => [p.name, p.value]));
}
