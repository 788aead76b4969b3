/**
 * STAND-IN for the engine's report functions (CONTRACT17 §2), so the server plugin could be
 * written while engine/src/reports/ was. Same signatures; deliberately small: no pushdown
 * planning, no dedupe shortcut. On merge, delete this file and import these names from
 * engine/src/index instead (only the imports of server/src/reports/* change).
 */
import { localize, type Lang, type LocalText, type Registry, type ReportColumnDef, type ReportDef } from '../../../engine/src/index';

type Rec = Record<string, unknown>;
type Filter = Record<string, unknown>;
type Pipeline = Record<string, unknown>[];

export type FilterValue = string | string[] | boolean | { from?: string; to?: string } | { min?: number; max?: number };

export interface ReportQuery {
  filters: Record<string, FilterValue>;
  sort?: Record<string, 1 | -1>;
  page: number;
  pageSize: number;
}

export interface ReportPlan {
  collection: string;
  rows: Pipeline;
  all: Pipeline;
  count: { filter: Filter } | { pipeline: Pipeline };
}

export interface CellColumn {
  id: string;
  label: string;
  type: ReportColumnDef['type'];
  field: string;
  subField?: string;
  lang: Lang;
  statusLabels?: Record<string, string>;
  action?: ReportColumnDef['action'];
}

export class ReportError extends Error {
  override readonly name = 'ReportError';
  constructor(readonly code: 'REPORT_FILTER_UNKNOWN' | 'REPORT_FILTER_INVALID' | 'REPORT_RANGE_INVERTED' | 'REPORT_SORT_UNKNOWN', readonly params: Rec) {
    super(code);
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function parseReportQuery(_reg: Registry, def: ReportDef, query: Rec): ReportQuery {
  const out: ReportQuery = { filters: {}, page: 1, pageSize: 20 };
  const invalid = (filter: string, value: unknown, type: string) => new ReportError('REPORT_FILTER_INVALID', { filter, value: String(value).slice(0, 60), type });
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || name === 'lang') continue;
    const value = String(raw);
    if (name === 'page' || name === 'pageSize') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || (name === 'pageSize' && n > 200)) throw invalid(name, value, 'page number');
      out[name] = n;
      continue;
    }
    if (name === 'sort') {
      out.sort = {};
      for (const part of value.split(',').filter(Boolean)) {
        const id = part.replace(/^-/, '');
        const col = def.columns.find((c) => c.id === id && c.sortable);
        if (!col) throw new ReportError('REPORT_SORT_UNKNOWN', { column: id.slice(0, 60), report: def.key });
        out.sort[col.field] = part.startsWith('-') ? -1 : 1;
      }
      continue;
    }
    const [id, bound] = name.split('.', 2);
    const f = def.filters.find((x) => x.id === id);
    const rangeBounds = f?.type === 'date_range' ? ['from', 'to'] : f?.type === 'number_range' ? ['min', 'max'] : [];
    if (!f || (bound === undefined ? rangeBounds.length > 0 : !rangeBounds.includes(bound))) {
      throw new ReportError('REPORT_FILTER_UNKNOWN', { filter: name.slice(0, 60), report: def.key, filters: def.filters.map((x) => x.id).join(', ') });
    }
    if (f.type === 'date_range') {
      if (!DATE.test(value) || Number.isNaN(Date.parse(value))) throw invalid(name, value, 'date');
      out.filters[id] = { ...(out.filters[id] as object), [bound]: value };
    } else if (f.type === 'number_range') {
      if (value.trim() === '' || !Number.isFinite(Number(value))) throw invalid(name, value, 'number');
      out.filters[id] = { ...(out.filters[id] as object), [bound]: Number(value) };
    } else if (f.type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw invalid(name, value, 'boolean');
      out.filters[id] = value === 'true';
    } else if (f.type === 'select' || f.type === 'status') {
      const allowed = f.type === 'select' ? (f.options ?? []).map((o) => String(o.value)) : (_reg.workflows[f.workflow ?? def.statusOf ?? '']?.states ?? []).map((s) => s.id);
      const list = value.split(',').filter(Boolean);
      const bad = list.find((v) => !allowed.includes(v));
      if (bad !== undefined || list.length === 0) throw invalid(name, bad ?? value, f.type);
      out.filters[id] = list;
    } else {
      out.filters[id] = value;
    }
  }
  for (const f of def.filters) {
    const v = out.filters[f.id] as { from?: string; to?: string; min?: number; max?: number } | undefined;
    const [lo, hi] = f.type === 'date_range' ? [v?.from, v?.to] : f.type === 'number_range' ? [v?.min, v?.max] : [];
    if (lo !== undefined && hi !== undefined && lo > hi) throw new ReportError('REPORT_RANGE_INVERTED', { filter: f.id, from: lo, to: hi });
  }
  return out;
}

function condition(type: string, field: string, v: FilterValue): Filter {
  if (Array.isArray(v)) return { [field]: { $in: v } };
  if (typeof v === 'boolean') return { [field]: v };
  if (typeof v === 'string') return { [field]: type === 'text' ? { $regex: escapeRegex(v), $options: 'i' } : v };
  const r = v as { from?: string; to?: string; min?: number; max?: number };
  const ops: Rec = {};
  if (r.from !== undefined) ops.$gte = r.from;
  if (r.to !== undefined) ops.$lte = `${r.to}T23:59:59.999Z`;
  if (r.min !== undefined) ops.$gte = r.min;
  if (r.max !== undefined) ops.$lte = r.max;
  return { [field]: ops };
}

export function reportPlan(_reg: Registry, def: ReportDef, q: ReportQuery, scope?: Filter): ReportPlan {
  const where = (on: 'source' | 'row') => def.filters.filter((f) => f.on === on && q.filters[f.id] !== undefined).map((f) => condition(f.type, f.field, q.filters[f.id]));
  const and = (list: Filter[]) => (list.length === 0 ? {} : list.length === 1 ? list[0] : { $and: list });
  const source = and([...(scope ? [scope] : []), ...where('source')]);
  const rowFilters = where('row');
  const dedupe = def.dedupeBy && !(def.dedupeBy.length === 1 && def.dedupeBy[0] === 'id')
    ? [{ $group: { _id: Object.fromEntries(def.dedupeBy.map((p, i) => [`k${i}`, `$${p}`])), row: { $first: '$$ROOT' } } }, { $replaceRoot: { newRoot: '$row' } }]
    : [];
  const all: Pipeline = [
    { $match: source }, ...def.pipeline, ...(rowFilters.length ? [{ $match: and(rowFilters) }] : []), ...dedupe,
    { $sort: { ...(q.sort ?? def.sort), id: 1 } }, ...(def.limit ? [{ $limit: def.limit }] : []),
  ];
  const rows = [...all, { $skip: (q.page - 1) * q.pageSize }, { $limit: q.pageSize }];
  return { collection: def.source.entity, rows, all, count: { pipeline: [...all, { $count: 'n' }] } };
}

export function reportColumns(reg: Registry, def: ReportDef, lang: Lang): CellColumn[] {
  return def.columns.map((c) => {
    const states = c.type === 'status' ? reg.workflows[c.workflow ?? def.statusOf ?? '']?.states ?? [] : undefined;
    return {
      id: c.id, label: localize(c.label, lang), type: c.type, field: c.field, subField: c.subField, lang, action: c.action,
      statusLabels: states && Object.fromEntries(states.map((s) => [s.id, localize(s.label as LocalText, lang)])),
    };
  });
}

const at = (row: unknown, path: string | undefined): unknown => (path ? path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Rec)[k] : undefined), row) : row);

function plain(v: unknown, lang: Lang): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && !Array.isArray(v) && 'en' in (v as Rec)) return localize(v as LocalText, lang);
  if (typeof v === 'object') return Object.entries(v as Rec).map(([k, x]) => `${k}: ${plain(x, lang)}`).join('; ');
  return String(v);
}

export function cellText(col: CellColumn, row: Rec): string {
  const v = at(row, col.field);
  if (v === null || v === undefined) return '';
  switch (col.type) {
    case 'date_text': return String(v).slice(0, 10);
    case 'age': return String(Math.floor((Date.now() - Date.parse(String(v))) / (365.25 * 86_400_000)));
    case 'array': return (Array.isArray(v) ? v : [v]).map((x) => plain(at(x, col.subField), col.lang)).join('; ');
    case 'object': return plain(at(v, col.subField), col.lang);
    case 'status': return col.statusLabels?.[String(v)] ?? String(v);
    default: return plain(v, col.lang);
  }
}

export function reportHeader(cols: readonly CellColumn[]): string[] {
  return cols.map((c) => c.label);
}
