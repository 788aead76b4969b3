import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../contract';
import { formatError, type ErrorCode } from '../errors';
import type { Registry } from '../registry/registry';
import type { ReportDef, ReportFilterDef, Scalar } from '../types';

/** A request's mistake in a report's filters, page or sort: the server answers it with a 400. */
export class ReportError extends Error {
  readonly code: Extract<ErrorCode, 'REPORT_FILTER_UNKNOWN' | 'REPORT_FILTER_INVALID' | 'REPORT_RANGE_INVERTED' | 'REPORT_SORT_UNKNOWN'>;
  readonly params: Record<string, unknown>;
  constructor(code: ReportError['code'], params: Record<string, unknown>) {
    super(formatError(code, params));
    this.code = code;
    this.params = params;
    this.name = 'ReportError';
  }
}

/**
 * A filter's value once checked: text (a substring), select and status (the chosen values),
 * reference (an id), boolean, date_range (YYYY-MM-DD, either end optional), number_range.
 */
export type FilterValue =
  | string
  | boolean
  | Scalar[]
  | { from?: string; to?: string }
  | { min?: number; max?: number };

export interface ReportQuery {
  /** By filter id; a filter left empty is absent. */
  filters: Record<string, FilterValue>;
  /** Row paths (column fields), in order; absent: the report's default sort. */
  sort?: Record<string, 1 | -1>;
  page: number;
  pageSize: number;
}

/** Query parameters that are not filters. `lang` is the caller's, read elsewhere. */
export const RESERVED_REPORT_PARAMS = ['page', 'pageSize', 'sort', 'lang'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDay(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A query value as one string: numbers and booleans as a parser may have typed them; undefined for a list. */
function one(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The parameters a filter reads: `<id>`, or `<id>.from`/`.to`, `<id>.min`/`.max` for ranges. */
function paramsOf(f: ReportFilterDef): string[] {
  if (f.type === 'date_range') return [`${f.id}.from`, `${f.id}.to`];
  if (f.type === 'number_range') return [`${f.id}.min`, `${f.id}.max`];
  return [f.id];
}

/** The values a select or status filter may take: its options, or the states of its workflow. */
function choicesOf(reg: Registry, f: ReportFilterDef): Scalar[] {
  if (f.type === 'status') return reg.workflows[f.workflow ?? '']?.states.map((s) => s.id) ?? [];
  return f.options?.map((o) => o.value) ?? [];
}

/**
 * Reads a report request's query parameters: each declared filter's value checked against its
 * type, the page and page size, the sort as column ids (`-sendDate,batchId`: descending with
 * `-`) turned into row paths. Throws ReportError naming the parameter at fault.
 */
export function parseReportQuery(reg: Registry, def: ReportDef, query: Record<string, unknown>): ReportQuery {
  const byParam = new Map(def.filters.flatMap((f) => paramsOf(f).map((p) => [p, f] as const)));
  const invalid = (filter: string, value: unknown, type: string) => new ReportError('REPORT_FILTER_INVALID', { filter, value: String(value), type });
  for (const name of Object.keys(query)) {
    if (!byParam.has(name) && !(RESERVED_REPORT_PARAMS as readonly string[]).includes(name)) {
      throw new ReportError('REPORT_FILTER_UNKNOWN', { filter: name, report: def.key, filters: [...byParam.keys()].join(', ') || '—' });
    }
  }
  const text = (param: string, type: string): string | undefined => {
    const v = query[param];
    if (v === undefined || v === null) return undefined;
    const s = one(v);
    if (s === undefined) throw invalid(param, Array.isArray(v) ? v.join(',') : JSON.stringify(v), type);
    return s === '' ? undefined : s;
  };

  const filters: Record<string, FilterValue> = {};
  for (const f of def.filters) {
    switch (f.type) {
      case 'text': case 'reference': {
        const v = text(f.id, f.type === 'text' ? 'text' : 'reference');
        if (v !== undefined) filters[f.id] = v;
        break;
      }
      case 'boolean': {
        const v = text(f.id, 'boolean (true or false)');
        if (v === undefined) break;
        if (v !== 'true' && v !== 'false') throw invalid(f.id, v, 'boolean (true or false)');
        filters[f.id] = v === 'true';
        break;
      }
      case 'select': case 'status': {
        const raw = query[f.id];
        const items = (Array.isArray(raw) ? raw : [raw]).filter((x) => x !== undefined && x !== null)
          .flatMap((x) => (one(x) ?? '').split(',')).map((x) => x.trim()).filter((x) => x !== '');
        if (items.length === 0) break;
        const choices = choicesOf(reg, f);
        filters[f.id] = items.map((item) => {
          const hit = choices.find((c) => String(c) === item);
          if (hit === undefined) throw invalid(f.id, item, `${f.type === 'status' ? 'state' : 'option'} (${choices.join(', ')})`);
          return hit;
        });
        break;
      }
      case 'date_range': {
        const [fromP, toP] = paramsOf(f);
        const from = text(fromP, 'date (YYYY-MM-DD)');
        const to = text(toP, 'date (YYYY-MM-DD)');
        if (from !== undefined && !isDay(from)) throw invalid(fromP, from, 'date (YYYY-MM-DD)');
        if (to !== undefined && !isDay(to)) throw invalid(toP, to, 'date (YYYY-MM-DD)');
        if (from !== undefined && to !== undefined && to < from) throw new ReportError('REPORT_RANGE_INVERTED', { filter: f.id, from, to });
        if (from !== undefined || to !== undefined) filters[f.id] = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
        break;
      }
      case 'number_range': {
        const [minP, maxP] = paramsOf(f);
        const num = (p: string) => {
          const s = text(p, 'number');
          if (s === undefined) return undefined;
          const n = Number(s);
          if (!Number.isFinite(n)) throw invalid(p, s, 'number');
          return n;
        };
        const min = num(minP);
        const max = num(maxP);
        if (min !== undefined && max !== undefined && max < min) throw new ReportError('REPORT_RANGE_INVERTED', { filter: f.id, from: min, to: max });
        if (min !== undefined || max !== undefined) filters[f.id] = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
        break;
      }
    }
  }

  const whole = (param: string, fallback: number, max: number, type: string) => {
    const s = text(param, type);
    if (s === undefined) return fallback;
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1 || n > max) throw invalid(param, s, type);
    return n;
  };
  const page = whole('page', 1, Number.MAX_SAFE_INTEGER, 'page number (1 or more)');
  const pageSize = whole('pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, `page size (1 to ${MAX_PAGE_SIZE})`);

  const sortParam = text('sort', 'sort');
  let sort: Record<string, 1 | -1> | undefined;
  if (sortParam !== undefined) {
    sort = {};
    for (const part of sortParam.split(',').map((s) => s.trim()).filter(Boolean)) {
      const desc = part.startsWith('-');
      const id = desc ? part.slice(1) : part.replace(/^\+/, '');
      const col = def.columns.find((c) => c.id === id);
      if (!col || !col.sortable) throw new ReportError('REPORT_SORT_UNKNOWN', { column: id, report: def.key });
      sort[col.field] = desc ? -1 : 1;
    }
    if (Object.keys(sort).length === 0) sort = undefined;
  }
  return { filters, ...(sort ? { sort } : {}), page, pageSize };
}
