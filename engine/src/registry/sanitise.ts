import type { AccessDef, EntityDef, EntityDefinition, ExtensionDef, FeatureCatalogue, FieldDef, ReportDef, ReportDefinition } from '../types';
import { defaultWidget } from '../fields/types';
import type { EffectDef, LinesDef, WorkflowDefinition } from '../workflow/types';
import type { DashboardDef, DashboardDefinition, DashboardWidgetDef, WidgetType } from '../dashboards/types';

/** The access key of an entity that names none (SPEC 3.1: master data screens). */
export const DEFAULT_ENTITY_ACCESS = 'Master Data';

/** How many fields an entity without `listColumns` shows in its list. */
const DEFAULT_LIST_COLUMNS = 5;

/** Every field, nested ones too, with the widget it is edited with. */
function withWidgets(fields: readonly FieldDef[]): FieldDef[] {
  return fields.map((f) => ({ ...f, widget: defaultWidget(f), ...(f.fields ? { fields: withWidgets(f.fields) } : {}) }));
}

export function uniqueFieldPaths(def: Pick<EntityDefinition, 'fields'>): string[] {
  return def.fields.filter((f) => f.unique && !f.multiple).map((f) => f.id);
}

/**
 * An entity with every default the definition reference (docs/definitions.md) promises
 * applied, so readers never fall back on their own: system entities (users, groups…) are
 * not importable unless they say so.
 */
export function sanitiseEntity(def: EntityDefinition): EntityDef {
  const fields = withWidgets(def.fields);
  return {
    ...def,
    fields,
    titleField: def.titleField ?? 'id',
    access: def.access ?? DEFAULT_ENTITY_ACCESS,
    // Operations change only through their workflow, never by a CSV import.
    importable: def.importable ?? (def.kind === 'master' || def.kind === 'event'),
    importKeys: def.importKeys ?? uniqueFieldPaths(def),
    secretFields: def.secretFields ?? [],
    serverFields: def.serverFields ?? [],
    listColumns: def.listColumns ?? fields.filter((f) => !f.hidden && f.type !== 'object').slice(0, DEFAULT_LIST_COLUMNS).map((f) => f.id),
  };
}

export function sanitiseExtension(def: ExtensionDef): ExtensionDef {
  return { ...def, fields: withWidgets(def.fields) };
}

/**
 * A workflow with its defaults applied once: a transition's comment is optional, its lists are
 * present, effects, setLines and ObjectEvent templates walk the workflow's lines unless they
 * name their own (an event of serialised objects, `epcs`, walks none unless it names them), an
 * ObjectEvent observes, an alert is informative, an effect's maps are present. Naming the lines
 * field as a transition's input means its rejected quantities: a transition never rewrites what
 * was shipped.
 */
export function sanitiseWorkflow(def: WorkflowDefinition): WorkflowDefinition {
  const lines = def.lines;
  const withLines = <T extends { lines?: LinesDef }>(x: T): T => (x.lines ?? lines ? { ...x, lines: x.lines ?? lines } : x);
  const effect = (e: EffectDef): EffectDef => {
    switch (e.type) {
      case 'addStock': case 'removeStock': case 'moveStock': return withLines(e);
      case 'raiseAlert': return { ...e, severity: e.severity ?? 'info' };
      case 'emitEvent': {
        if (e.event.type !== 'ObjectEvent') return e;
        const event = { ...e.event, action: e.event.action ?? 'OBSERVE' };
        return { ...e, event: event.epcs ? event : withLines(event) };
      }
      case 'setFields': return { ...e, set: e.set ?? {}, inc: e.inc ?? {} };
      case 'transitionRecords': return { ...e, fields: e.fields ?? {}, match: e.match ?? {} };
      default: return e;
    }
  };
  return {
    ...def,
    derive: def.derive ?? [],
    registered: def.registered ?? [],
    operations: { read: def.operations?.read ?? [], draft: def.operations?.draft ?? [] },
    transitions: def.transitions.map((t) => ({
      ...t,
      comment: t.comment ?? 'optional',
      operations: t.operations ?? [],
      refuse: t.refuse ?? [],
      requires: t.requires ?? [],
      input: (t.input ?? []).map((p) => (lines?.rejected && p === lines.field ? `${p}.${lines.rejected}` : p)),
      effects: (t.effects ?? []).map(effect),
      ...(t.setLines ? { setLines: withLines(t.setLines) } : {}),
    })),
  };
}

/** Every key lists the backend operations it grants, none unless it says. */
export function sanitiseAccess(def: AccessDef): AccessDef {
  return { ...def, keys: def.keys.map((k) => ({ ...k, operations: k.operations ?? [] })) };
}

/** A feature drawn from a workflow offers the new-record form unless it says otherwise (a work tray). */
export function sanitiseFeatures(def: FeatureCatalogue): FeatureCatalogue {
  return { ...def, features: def.features.map((f) => (f.operation ? { ...f, operation: { ...f.operation, create: f.operation.create ?? true } } : f)) };
}

/** The access key of a report that names none (SPEC 6: the Reports module). */
export const DEFAULT_REPORT_ACCESS = 'Reports';

/** `{host}` in a report's key and file name stands for the deployment (ibc_inventory_outside_{host}). */
export function withHost(name: string, host: string): string {
  return name.replaceAll('{host}', host);
}

/**
 * A report with its defaults applied once: `{host}` replaced by the deployment's name, access
 * Reports, no pipeline stages, deposits, owner and status labels from the workflow of the
 * source entity, filters on the source, a column's field its id and sortable unless it is a
 * list or an object, status columns and filters labelled by `statusOf`, and a default sort on
 * the first date column, newest first (else the first column).
 */
export function sanitiseReport(def: ReportDefinition, workflows: readonly WorkflowDefinition[], host: string): ReportDef {
  const wf = workflows.find((w) => w.entity === def.source.entity);
  const statusOf = def.statusOf ?? wf?.name;
  const columns = def.columns.map((c) => ({
    ...c,
    field: c.field ?? c.id,
    sortable: c.sortable ?? (c.type !== 'array' && c.type !== 'object'),
    ...(c.type === 'status' && statusOf !== undefined ? { workflow: c.workflow ?? statusOf } : {}),
  }));
  const dated = columns.find((c) => c.type === 'date_text');
  const ownerField = def.ownerField ?? wf?.ownerField;
  return {
    ...def,
    key: withHost(def.key, host),
    access: def.access ?? DEFAULT_REPORT_ACCESS,
    pipeline: def.pipeline ?? [],
    depositFields: def.depositFields ?? wf?.depositFields ?? [],
    ...(ownerField !== undefined ? { ownerField } : {}),
    ...(statusOf !== undefined ? { statusOf } : {}),
    filters: (def.filters ?? []).map((f) => ({
      ...f,
      on: f.on ?? 'source',
      ...(f.type === 'status' && statusOf !== undefined ? { workflow: f.workflow ?? statusOf } : {}),
    })),
    columns,
    sort: def.sort ?? (dated ? { [dated.field]: -1 } : { [columns[0].field]: 1 }),
    export: { ...def.export, fileName: withHost(def.export.fileName, host) },
  };
}

const WIDGET_SIZES: Record<WidgetType, { w: number; h: number }> = { kpi: { w: 3, h: 1 }, chart: { w: 6, h: 2 }, map: { w: 6, h: 2 }, table: { w: 12, h: 2 } };
/** A chart's categories by default: the twelve largest. A table's first rows and columns. */
export const DEFAULT_CHART_LIMIT = 12;
export const DEFAULT_TABLE_ROWS = 10;
const DEFAULT_TABLE_COLUMNS = 6;
export const DEFAULT_DASHBOARD_ACCESS = 'Dashboards';

/**
 * A dashboard with its defaults applied once: access Dashboards, a grid of 12 columns, filters
 * present; each widget its size by type, a count measure, source filters and feed present, a
 * report named by the key requests use ({host} replaced), a chart's limit (none by interval), a
 * table's columns (the report's first six) and rows.
 */
export function sanitiseDashboard(def: DashboardDefinition, reports: Readonly<Record<string, ReportDef>>, host: string): DashboardDef {
  return {
    ...def,
    access: def.access ?? DEFAULT_DASHBOARD_ACCESS,
    columns: def.columns ?? 12,
    filters: def.filters ?? [],
    widgets: def.widgets.map((w): DashboardWidgetDef => {
      const report = w.source.report !== undefined ? withHost(w.source.report, host) : undefined;
      return {
        ...w,
        size: { ...WIDGET_SIZES[w.type], ...w.size },
        source: { ...w.source, ...(report !== undefined ? { report } : {}), filters: w.source.filters ?? {}, feed: w.source.feed ?? {} },
        measure: w.measure ?? { op: 'count' },
        ...(w.type === 'chart' && !w.interval && !w.figures ? { limit: w.limit ?? DEFAULT_CHART_LIMIT } : {}),
        ...(w.type === 'table' ? { columns: w.columns ?? (reports[report ?? '']?.columns ?? []).slice(0, DEFAULT_TABLE_COLUMNS).map((c) => c.id), rows: w.rows ?? DEFAULT_TABLE_ROWS } : {}),
      };
    }),
  };
}
