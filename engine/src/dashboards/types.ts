import type { LocalText } from '../text';

/** A day as a definition writes it: YYYY-MM-DD, or today / startOfWeek / startOfMonth / startOfYear moved by ±n d|w|m|y. */
export type DayToken = string;
export interface DayRange { from?: DayToken; to?: DayToken }

/**
 * A filter of the dashboard's bar: a period (`<id>.from`, `<id>.to`) or a record (a deposit).
 * A widget's source says which report filter (or named query parameter) it feeds.
 */
export interface DashboardFilterDef {
  id: string;
  label: LocalText;
  type: 'date_range' | 'reference';
  ref?: string;
  /** date_range: the period when a request names none. */
  default?: DayRange;
}

/** count: rows; distinct: distinct values of `field`; sum: the sum of `field`; figure: a named query's figure `field`. */
export interface MeasureDef {
  op: 'count' | 'distinct' | 'sum' | 'figure';
  field?: string;
}

/** Fixed values of a report's filters, as a definition writes them (ranges of days may be relative). */
export type FixedFilterValue = string | number | boolean | (string | number | boolean)[] | DayRange | { min?: number; max?: number };

export interface WidgetSourceDef {
  /** The report feeding the widget (its key, {host} replaced). */
  report?: string;
  /** Or a named query (engine/src/dashboards/queries.ts). */
  query?: string;
  /** report: fixed values of its filters. */
  filters?: Record<string, FixedFilterValue>;
  /** Dashboard filter id → the report filter or named query parameter it sets. */
  feed?: Record<string, string>;
}

export type WidgetType = 'kpi' | 'chart' | 'map' | 'table';

/** A widget as written (schemas/dashboards/<key>.json); the registry holds it with its defaults (DashboardWidgetDef). */
export interface WidgetDefinition {
  id: string;
  type: WidgetType;
  title: LocalText;
  description?: LocalText;
  size?: { w?: number; h?: number };
  source: WidgetSourceDef;
  measure?: MeasureDef;
  unit?: LocalText;
  goal?: { max?: number; min?: number };
  chart?: 'bar' | 'line' | 'pie';
  groupBy?: string;
  labelBy?: string;
  interval?: 'day' | 'week' | 'month';
  seriesBy?: string;
  seriesLabelBy?: string;
  limit?: number;
  figures?: string[];
  locate?: { by: string; entity: LocatedEntity };
  columns?: string[];
  rows?: number;
  link?: { feature: string; query?: Record<string, string> };
}

export type LocatedEntity = 'company_division' | 'company' | 'plant';

export interface DashboardDefinition {
  key: string;
  label: LocalText;
  description?: LocalText;
  access?: string;
  columns?: number;
  filters?: DashboardFilterDef[];
  widgets: WidgetDefinition[];
}

/**
 * A widget with its defaults applied once: a size (kpi 3×1, chart and map 6×2, table 12×2),
 * a measure (count), source filters and feed present, a chart's category limit (12), a
 * table's columns (the report's first six) and rows (10).
 */
export interface DashboardWidgetDef extends WidgetDefinition {
  size: { w: number; h: number };
  source: WidgetSourceDef & { filters: Record<string, FixedFilterValue>; feed: Record<string, string> };
  measure: MeasureDef;
  limit?: number;
  columns?: string[];
  rows?: number;
}

/** A dashboard as the registry holds it: access (default Dashboards), 12 columns, filters present. */
export interface DashboardDef extends DashboardDefinition {
  access: string;
  columns: number;
  filters: DashboardFilterDef[];
  widgets: DashboardWidgetDef[];
}
