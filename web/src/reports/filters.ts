import type { SortingState } from '@tanstack/react-table';
import type { ReportDef, ReportFilterDef } from '../../../engine/src/index';
import { sortParam } from '../masterdata/listState';

/** Both ends of a range as typed (date_range: YYYY-MM-DD; number_range: numbers); '' = open. */
export interface Range { from: string; to: string }

/**
 * What the filter bar holds, by filter id: text, reference (an id) and boolean ('true' /
 * 'false') a string, select and status the chosen values, the ranges both ends; '' and [] do not filter.
 */
export type FilterValue = string | string[] | Range;
export type FilterValues = Record<string, FilterValue>;

/** The query parameters of the report routes (CONTRACT17 §1) — also what saved filters, exports and schedules carry. */
export type FilterParams = Record<string, string>;

type Filters = readonly Pick<ReportFilterDef, 'id' | 'type'>[];

const isRange = (t: ReportFilterDef['type']) => t === 'date_range' || t === 'number_range';
const isList = (t: ReportFilterDef['type']) => t === 'select' || t === 'status';
/** The parameter suffixes of a range: `<id>.from` / `<id>.to` for dates, `<id>.min` / `<id>.max` for numbers. */
const ends = (t: ReportFilterDef['type']): [string, string] => (t === 'date_range' ? ['from', 'to'] : ['min', 'max']);

export function emptyValue(type: ReportFilterDef['type']): FilterValue {
  return isRange(type) ? { from: '', to: '' } : isList(type) ? [] : '';
}

export function emptyFilters(filters: Filters): FilterValues {
  return Object.fromEntries(filters.map((f) => [f.id, emptyValue(f.type)]));
}

/** The filter bar's values as query parameters; empty values are left out. */
export function toParams(filters: Filters, values: FilterValues): FilterParams {
  const out: FilterParams = {};
  for (const f of filters) {
    const v = values[f.id];
    if (v === undefined) continue;
    if (isRange(f.type)) {
      const r = v as Range;
      const [a, b] = ends(f.type);
      if (r.from.trim()) out[`${f.id}.${a}`] = r.from.trim();
      if (r.to.trim()) out[`${f.id}.${b}`] = r.to.trim();
    } else if (isList(f.type)) {
      if ((v as string[]).length) out[f.id] = (v as string[]).join(',');
    } else if (typeof v === 'string' && v.trim()) out[f.id] = v.trim();
  }
  return out;
}

/** Query parameters (an address, a saved filter) as filter bar values: only the report's declared filters are read. */
export function fromParams(filters: Filters, params: URLSearchParams | Readonly<Record<string, unknown>>): FilterValues {
  const get = (k: string): string => {
    const v = params instanceof URLSearchParams ? params.get(k) : params[k];
    return v === null || v === undefined ? '' : String(v).trim();
  };
  const out: FilterValues = {};
  for (const f of filters) {
    if (isRange(f.type)) {
      const [a, b] = ends(f.type);
      out[f.id] = { from: get(`${f.id}.${a}`), to: get(`${f.id}.${b}`) };
    } else if (isList(f.type)) out[f.id] = get(f.id).split(',').map((s) => s.trim()).filter(Boolean);
    else out[f.id] = get(f.id);
  }
  return out;
}

/**
 * The filters the server would refuse before asking it: a range ending before it starts, a
 * number that is not one. The bar shows them and does not apply.
 */
export function invalidFilters(filters: Filters, values: FilterValues): string[] {
  const bad: string[] = [];
  for (const f of filters) {
    if (!isRange(f.type)) continue;
    const r = (values[f.id] ?? { from: '', to: '' }) as Range;
    const from = r.from.trim();
    const to = r.to.trim();
    if (f.type === 'number_range') {
      const nums = [from, to].filter(Boolean).map(Number);
      if (nums.some((n) => !Number.isFinite(n)) || (from && to && Number(from) > Number(to))) bad.push(f.id);
    } else if (from && to && from > to) bad.push(f.id);
  }
  return bad;
}

/** `sort=-col,col2` (column ids) as the table's sorting; unknown or unsortable columns are dropped. */
export function parseSort(def: Pick<ReportDef, 'columns'>, sort: string | null | undefined): SortingState {
  const sortable = new Set(def.columns.filter((c) => c.sortable).map((c) => c.id));
  return (sort ?? '').split(',').map((s) => s.trim()).filter(Boolean)
    .map((s) => (s.startsWith('-') ? { id: s.slice(1), desc: true } : { id: s, desc: false }))
    .filter((s) => sortable.has(s.id));
}

/** The report's default sort (row paths) as the columns showing those paths, so the headers show it. */
export function defaultSorting(def: Pick<ReportDef, 'columns' | 'sort'>): SortingState {
  return Object.entries(def.sort).flatMap(([path, dir]) => {
    const c = def.columns.find((x) => x.field === path && x.sortable);
    return c ? [{ id: c.id, desc: dir === -1 }] : [];
  });
}

/** The address query of a report's state (`#/<key>?…`): its filters and, when not the default, its sort. */
export function searchOf(def: Pick<ReportDef, 'filters' | 'columns' | 'sort'>, values: FilterValues, sorting: SortingState): string {
  const p = new URLSearchParams(toParams(def.filters, values));
  const sort = sortParam(sorting);
  if (sort && sort !== sortParam(defaultSorting(def))) p.set('sort', sort);
  return p.toString();
}

/** A report's state read back from its address query: the filters and the sort, the default when absent. */
export function stateOfSearch(def: Pick<ReportDef, 'filters' | 'columns' | 'sort'>, params: URLSearchParams): { values: FilterValues; sorting: SortingState } {
  const sorting = parseSort(def, params.get('sort'));
  return { values: fromParams(def.filters, params), sorting: sorting.length ? sorting : defaultSorting(def) };
}

/** A saved filter as the API keeps it (CONTRACT17 §4). */
export interface SavedFilter {
  id: string;
  name: string;
  filters: FilterParams;
  sort?: string;
  createdAt: string;
}

/** The body that saves the current filters and sort under a name. */
export function savedFilterBody(def: Pick<ReportDef, 'filters'>, name: string, values: FilterValues, sorting: SortingState): { name: string; filters: FilterParams; sort?: string } {
  const sort = sortParam(sorting);
  return { name: name.trim(), filters: toParams(def.filters, values), ...(sort ? { sort } : {}) };
}

/**
 * Applying a saved filter: its values replace the whole bar (a filter it does not name is
 * cleared, one the report no longer declares is ignored), its sort the table's (the default when it kept none).
 */
export function applySaved(def: Pick<ReportDef, 'filters' | 'columns' | 'sort'>, saved: Pick<SavedFilter, 'filters' | 'sort'>): { values: FilterValues; sorting: SortingState } {
  return stateOfSearch(def, new URLSearchParams({ ...saved.filters, ...(saved.sort ? { sort: saved.sort } : {}) }));
}
