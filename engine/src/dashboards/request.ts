import { formatError, type ErrorCode } from '../errors';
import { isIsoDay, resolveRange } from './days';
import type { DashboardDef, DashboardFilterDef } from './types';

/** A request's mistake in a dashboard's filters: the server answers it with a 400 naming the filter. */
export class DashboardError extends Error {
  readonly code: Extract<ErrorCode, 'DASHBOARD_FILTER_UNKNOWN' | 'DASHBOARD_FILTER_INVALID' | 'REPORT_RANGE_INVERTED'>;
  readonly params: Record<string, unknown>;
  constructor(code: DashboardError['code'], params: Record<string, unknown>) {
    super(formatError(code, params));
    this.code = code;
    this.params = params;
    this.name = 'DashboardError';
  }
}

/** A dashboard filter's value once read: a period (either end open) or a record id. */
export type DashboardFilterValue = { from?: string; to?: string } | string;
export type DashboardFilterValues = Record<string, DashboardFilterValue>;

/** Query parameters that are not filters. */
export const RESERVED_DASHBOARD_PARAMS = ['lang'] as const;
const MAX_ID = 200;

/** The parameters a filter reads: `<id>.from` and `<id>.to` for a period, `<id>` for a record. */
export function dashboardFilterParams(f: Pick<DashboardFilterDef, 'id' | 'type'>): string[] {
  return f.type === 'date_range' ? [`${f.id}.from`, `${f.id}.to`] : [f.id];
}

/**
 * A dashboard request's filter values from its query parameters: a period's ends (YYYY-MM-DD;
 * both absent: the filter's default, relative to `today`; present but empty: open), a record's
 * id. Throws DashboardError naming the parameter at fault; an unknown parameter is one.
 */
export function parseDashboardFilters(def: Pick<DashboardDef, 'key' | 'filters'>, query: Record<string, unknown>, today: string): DashboardFilterValues {
  const known = def.filters.flatMap(dashboardFilterParams);
  for (const name of Object.keys(query)) {
    if (!known.includes(name) && !(RESERVED_DASHBOARD_PARAMS as readonly string[]).includes(name)) {
      throw new DashboardError('DASHBOARD_FILTER_UNKNOWN', { filter: name.slice(0, 80), dashboard: def.key, filters: known.join(', ') || '—' });
    }
  }
  const text = (param: string, type: string): string | undefined => {
    const v = query[param];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') throw new DashboardError('DASHBOARD_FILTER_INVALID', { filter: param, value: JSON.stringify(v).slice(0, 80), type });
    return String(v).trim();
  };
  const out: DashboardFilterValues = {};
  for (const f of def.filters) {
    if (f.type === 'date_range') {
      const type = 'date (YYYY-MM-DD)';
      const [fromP, toP] = dashboardFilterParams(f);
      const from = text(fromP, type);
      const to = text(toP, type);
      if (from === undefined && to === undefined) {
        if (f.default) out[f.id] = resolveRange(f.default, today);
        continue;
      }
      for (const [p, v] of [[fromP, from], [toP, to]] as const) {
        if (v && !isIsoDay(v)) throw new DashboardError('DASHBOARD_FILTER_INVALID', { filter: p, value: v.slice(0, 80), type });
      }
      if (from && to && to < from) throw new DashboardError('REPORT_RANGE_INVERTED', { filter: f.id, from, to });
      if (from || to) out[f.id] = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    } else {
      const v = text(f.id, 'record id');
      if (v === undefined || v === '') continue;
      if (v.length > MAX_ID) throw new DashboardError('DASHBOARD_FILTER_INVALID', { filter: f.id, value: `${v.slice(0, 40)}…`, type: 'record id' });
      out[f.id] = v;
    }
  }
  return out;
}

/** Filter values back as query parameters (the request a widget's data was read with, a link's filters). */
export function dashboardFilterQuery(filters: readonly Pick<DashboardFilterDef, 'id' | 'type'>[], values: DashboardFilterValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filters) {
    const v = values[f.id];
    if (v === undefined) continue;
    if (typeof v === 'string') out[f.id] = v;
    else {
      out[`${f.id}.from`] = v.from ?? '';
      out[`${f.id}.to`] = v.to ?? '';
    }
  }
  return out;
}
