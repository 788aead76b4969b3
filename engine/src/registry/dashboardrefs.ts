import type { DashboardFilterDef, DashboardWidgetDef, WidgetDefinition } from '../dashboards/types';
import { namedQuery, NAMED_QUERIES } from '../dashboards/queries';
import { widgetReportParams } from '../dashboards/reduce';
import { collectionShape } from '../reports/collections';
import { pipelineFlow } from '../reports/flow';
import { parseReportQuery, ReportError } from '../reports/query';
import { nodeAt, type Shape } from '../reports/shape';
import type { ReportDef, ReportDefinition } from '../types';
import type { Parsed } from './load';
import { escapePointer } from './problems';
import type { Registry } from './registry';
import { parsedEntity } from './reportrefs';
import { DEFAULT_DASHBOARD_ACCESS, sanitiseReport, withHost } from './sanitise';

type Add = (file: string, pointer: string, message: string) => void;

/** A report as a widget reads it: sanitised (its filters' defaults) and the shape of its rows. */
interface ReportRows { def: ReportDef; rows: Shape }

/** Any day: relative days in fixed filters are checked for their form, not for a date. */
const SOME_DAY = '2026-01-15';

function reportsByKey(p: Parsed): Map<string, ReportRows> {
  const entity = parsedEntity(p);
  const shapeOf = (name: string) => collectionShape(name, entity);
  const host = p.deployment?.def.name ?? '';
  const workflows = [...p.workflows.values()].map((w) => w.def);
  const out = new Map<string, ReportRows>();
  for (const { def } of p.reports.values()) {
    const source = shapeOf(def.source.entity);
    if (!source) continue; // the report's own check says so
    const rows = pipelineFlow(def.pipeline ?? [], source, shapeOf).shape;
    out.set(withHost(def.key, host), { def: sanitiseReport(def as ReportDefinition, workflows, host), rows });
  }
  return out;
}

/** What a feed target accepts: a report filter's or a named query parameter's type (and entity). */
function compatible(from: DashboardFilterDef, to: { type: string; ref?: string }): boolean {
  return from.type === to.type && (from.type !== 'reference' || from.ref === to.ref);
}

/** A filter the definition got wrong itself (its entity) is reported there, not again at each widget it feeds. */
type Filters = Map<string, DashboardFilterDef & { broken?: boolean }>;

/**
 * What the dashboard meta-schema cannot see: the access key, the filters' entities, each
 * widget's report (or named query), its fixed filter values (checked as the report's rows route
 * checks them), which dashboard filter feeds which report filter (the same type), every row
 * path it groups, sums, labels or places by (in the report's rows), a table's columns, what a
 * named query gives (figures for a KPI or a chart, located groups for a chart or a map), and the
 * feature a link opens.
 */
export function checkDashboards(p: Parsed, add: Add, checkAccess: (file: string, pointer: string, key: string | undefined) => void): void {
  const reports = reportsByKey(p);
  const featureIds = new Set(p.features?.def.features.map((f) => f.id) ?? []);
  const workflows = Object.fromEntries([...p.workflows.values()].map((w) => [w.def.name, w.def])) as Registry['workflows'];
  for (const [, { file, def }] of p.dashboards) {
    checkAccess(file, '/access', def.access ?? DEFAULT_DASHBOARD_ACCESS);
    const filters: Filters = new Map();
    def.filters?.forEach((f, i) => {
      const at = `/filters/${i}`;
      if (filters.has(f.id)) add(file, `${at}/id`, `filter "${f.id}" is declared twice`);
      const broken = f.type === 'reference' && (f.ref === undefined || !p.entities.has(f.ref));
      filters.set(f.id, { ...f, broken });
      if (f.type === 'reference') {
        if (broken) add(file, `${at}/ref`, f.ref === undefined ? 'a reference filter names the entity it picks (ref)' : `entity "${f.ref}" does not exist`);
        if (f.default !== undefined) add(file, `${at}/default`, 'only a date_range filter has a default');
      } else if (f.ref !== undefined) add(file, `${at}/ref`, 'only a reference filter names an entity');
    });
    const ids = new Set<string>();
    def.widgets.forEach((w, i) => {
      const at = `/widgets/${i}`;
      if (ids.has(w.id)) add(file, `${at}/id`, `widget "${w.id}" is declared twice`);
      ids.add(w.id);
      const addAt = (pointer: string, message: string) => add(file, `${at}${pointer}`, message);
      for (const [from] of Object.entries(w.source.feed ?? {})) {
        if (!filters.has(from)) addAt(`/source/feed/${escapePointer(from)}`, `"${from}" is not a filter of the dashboard`);
      }
      if (w.link && !featureIds.has(w.link.feature)) addAt('/link/feature', `feature "${w.link.feature}" is not in schemas/features.json`);
      if (w.source.report !== undefined) {
        const host = p.deployment?.def.name ?? '';
        const report = reports.get(withHost(w.source.report, host));
        if (!report) return addAt('/source/report', `report "${w.source.report}" does not exist in reports/`);
        checkReportWidget(w, report, filters, workflows, addAt);
      } else if (w.source.query !== undefined) {
        checkQueryWidget(w, filters, addAt);
      }
    });
  }
  p.features?.def.features.forEach((f, i) => {
    const key = f.dashboard?.key;
    if (key === undefined) return;
    const dash = p.dashboards.get(key)?.def;
    if (!dash) return add(p.features!.file, `/features/${i}/dashboard/key`, `dashboard "${key}" does not exist in schemas/dashboards/`);
    const needs = dash.access ?? DEFAULT_DASHBOARD_ACCESS;
    if (f.access !== undefined && f.access !== needs) add(p.features!.file, `/features/${i}/dashboard/key`, `dashboard "${key}" needs ${needs} access, the feature ${f.access}: users who may open it would be refused`);
  });
}

function checkReportWidget(w: WidgetDefinition, report: ReportRows, filters: Filters, workflows: Registry['workflows'], addAt: (pointer: string, message: string) => void): void {
  const { def, rows } = report;
  const rowPath = (pointer: string, path: string | undefined) => {
    if (path !== undefined && !nodeAt(rows, path)) addAt(pointer, `field "${path}" is not in the rows of report ${def.key}`);
  };
  const fixed = w.source.filters ?? {};
  for (const id of Object.keys(fixed)) {
    if (!def.filters.some((f) => f.id === id)) addAt(`/source/filters/${escapePointer(id)}`, `"${id}" is not a filter of report ${def.key}; its filters: ${def.filters.map((f) => f.id).join(', ') || '—'}`);
  }
  if (Object.keys(fixed).every((id) => def.filters.some((f) => f.id === id))) {
    try {
      parseReportQuery({ workflows } as Registry, def, widgetReportParams({ ...w, source: { ...w.source, filters: fixed, feed: {} } } as DashboardWidgetDef, {}, SOME_DAY));
    } catch (e) {
      if (!(e instanceof ReportError)) throw e;
      addAt(`/source/filters/${escapePointer(String(e.params.filter ?? '').split('.')[0])}`, e.message);
    }
  }
  for (const [from, to] of Object.entries(w.source.feed ?? {})) {
    const target = def.filters.find((f) => f.id === to);
    const source = filters.get(from);
    const pointer = `/source/feed/${escapePointer(from)}`;
    if (!target) addAt(pointer, `"${to}" is not a filter of report ${def.key}; its filters: ${def.filters.map((f) => f.id).join(', ') || '—'}`);
    else if (source && !source.broken && !compatible(source, target)) addAt(pointer, `filter "${from}" (${source.type}${source.ref ? ` of ${source.ref}` : ''}) cannot set ${to} (${target.type}${target.ref ? ` of ${target.ref}` : ''})`);
    if (target && Object.hasOwn(fixed, to)) addAt(pointer, `${to} is also a fixed filter of the widget: a filter is fixed or fed, not both`);
  }
  const m = w.measure;
  if (m?.op === 'figure') addAt('/measure/op', 'figure measures a named query\'s figures; a report widget counts, counts distinct values or sums');
  if ((m?.op === 'distinct' || m?.op === 'sum') && m.field === undefined) addAt('/measure', `a ${m.op} measure names its field`);
  if (m?.op !== 'figure') rowPath('/measure/field', m?.field);
  for (const k of ['groupBy', 'labelBy', 'seriesBy', 'seriesLabelBy'] as const) rowPath(`/${k}`, w[k]);
  if (w.figures) addAt('/figures', 'figures are a named query\'s; a report chart groups by a row path (groupBy)');
  if (w.type === 'chart' && w.groupBy === undefined) addAt('', 'a chart of a report names the row path it groups by (groupBy)');
  if (w.type !== 'chart' && (w.groupBy !== undefined || w.interval !== undefined)) addAt(w.groupBy !== undefined ? '/groupBy' : '/interval', 'only a chart groups its rows');
  if (w.type === 'map') {
    if (!w.locate) addAt('', 'a map of a report names the record its rows are placed at (locate)');
    else rowPath('/locate/by', w.locate.by);
  } else if (w.locate) addAt('/locate', 'only a map places its rows');
  if (w.columns) {
    if (w.type !== 'table') addAt('/columns', 'only a table shows columns');
    w.columns.forEach((c, j) => { if (!def.columns.some((col) => col.id === c)) addAt(`/columns/${j}`, `"${c}" is not a column of report ${def.key}`); });
  }
}

function checkQueryWidget(w: WidgetDefinition, filters: Filters, addAt: (pointer: string, message: string) => void): void {
  const name = w.source.query!;
  const q = namedQuery(name);
  if (!q) return addAt('/source/query', `"${name}" is not a named query; the named queries: ${Object.keys(NAMED_QUERIES).join(', ')}`);
  if (w.source.filters) addAt('/source/filters', 'a named query takes no fixed filters, only the dashboard filters it is fed');
  for (const [from, to] of Object.entries(w.source.feed ?? {})) {
    const param = Object.hasOwn(q.params, to) ? q.params[to] : undefined;
    const source = filters.get(from);
    const pointer = `/source/feed/${escapePointer(from)}`;
    if (!param) addAt(pointer, `"${to}" is not a parameter of the named query ${name}; its parameters: ${Object.keys(q.params).join(', ') || '—'}`);
    else if (source && !source.broken && !compatible(source, param)) addAt(pointer, `filter "${from}" (${source.type}) cannot set ${to} of ${name}`);
  }
  for (const k of ['groupBy', 'labelBy', 'seriesBy', 'seriesLabelBy', 'interval', 'locate', 'columns'] as const) {
    if (w[k] !== undefined) addAt(`/${k}`, `the named query ${name} gives its own ${q.gives}: ${k} applies to report widgets`);
  }
  const m = w.measure;
  if (q.gives === 'figures') {
    const known = Object.keys(q.figures ?? {});
    const figure = (pointer: string, f: string) => { if (!known.includes(f)) addAt(pointer, `"${f}" is not a figure of ${name}; its figures: ${known.join(', ')}`); };
    if (w.type === 'kpi') {
      if (m?.op !== 'figure' || m.field === undefined) addAt('/measure', `a KPI of the named query ${name} shows one of its figures: {"op": "figure", "field": …}`);
      else figure('/measure/field', m.field);
    } else if (w.type === 'chart') {
      if (!w.figures) addAt('', `a chart of the named query ${name} lists the figures it draws (figures)`);
      w.figures?.forEach((f, j) => figure(`/figures/${j}`, f));
      if (m) addAt('/measure', `a chart of ${name} draws its figures (figures), not a measure`);
    } else addAt('/type', `the named query ${name} gives figures: a KPI or a chart shows them, not a ${w.type}`);
  } else {
    if (w.type !== 'chart' && w.type !== 'map') addAt('/type', `the named query ${name} gives located groups: a chart or a map shows them, not a ${w.type}`);
    if (m) addAt('/measure', `the named query ${name} measures its groups itself`);
    if (w.figures) addAt('/figures', `the named query ${name} gives groups, not figures`);
  }
}
