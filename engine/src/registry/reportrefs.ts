import { collectionShape, type EntityParts } from '../reports/collections';
import { pipelineFlow } from '../reports/flow';
import { nodeAt, type Shape } from '../reports/shape';
import type { ExtensionDef, ReportDefinition } from '../types';
import type { Parsed } from './load';
import { escapePointer } from './problems';
import { DEFAULT_REPORT_ACCESS, withHost } from './sanitise';

type Add = (file: string, pointer: string, message: string) => void;

/** An entity's parts as the deployment enables them, from the parsed (not yet sanitised) definitions. */
export function parsedEntity(p: Parsed): (name: string) => EntityParts | undefined {
  return (name) => {
    const e = p.entities.get(name)?.def;
    if (!e) return undefined;
    const extensions = (p.deployment?.def.extensions[name] ?? [])
      .map((n) => p.extensions.get(n)?.def)
      .filter((x): x is ExtensionDef => x !== undefined && x.base === name && !x.template);
    return { fields: e.fields, extensions, sync: e.sync };
  };
}

/**
 * What the report meta-schema cannot see: the source and every collection a `$lookup` reads,
 * the access key and workflows named, source paths of filters and the warehouse narrowing, and
 * every path of the rows a column, row filter, de-duplication key or sort names — the rows
 * being the pipeline's output, inferred stage by stage from the source's fields.
 * Returns the keys the reports answer to ({host} replaced), for features to name.
 */
export function checkReports(p: Parsed, add: Add, checkAccess: (file: string, pointer: string, key: string | undefined) => void): Set<string> {
  const entity = parsedEntity(p);
  const shapeOf = (name: string) => collectionShape(name, entity);
  const host = p.deployment?.def.name ?? '';
  const keys = new Set<string>();
  for (const [, { file, def }] of p.reports) {
    keys.add(def.key).add(withHost(def.key, host));
    checkAccess(file, '/access', def.access ?? DEFAULT_REPORT_ACCESS);
    const workflowOf = (pointer: string, name: string | undefined) => {
      if (name !== undefined && !p.workflows.has(name)) add(file, pointer, `workflow "${name}" does not exist`);
    };
    workflowOf('/statusOf', def.statusOf);
    const statusOf = def.statusOf ?? [...p.workflows.values()].find((w) => w.def.entity === def.source.entity)?.def.name;

    const source = shapeOf(def.source.entity);
    if (!source) {
      add(file, '/source/entity', `"${def.source.entity}" is neither an entity nor a collection reports read (stock_balance, stock_movement)`);
      continue;
    }
    const sourcePath = (pointer: string, path: string) => {
      if (!nodeAt(source, path)) add(file, pointer, `field "${path}" does not exist in ${def.source.entity}`);
    };
    def.depositFields?.forEach((d, i) => sourcePath(`/depositFields/${i}`, d));
    if (def.ownerField !== undefined) sourcePath('/ownerField', def.ownerField);

    const rows: Shape = pipelineFlow(def.pipeline ?? [], source, shapeOf, (pointer, message) => add(file, pointer, message)).shape;
    const rowPath = (pointer: string, path: string) => {
      const node = nodeAt(rows, path);
      if (!node) add(file, pointer, `field "${path}" is not in the report's rows (the output of its pipeline)`);
      return node;
    };

    def.filters?.forEach((f, i) => {
      const at = `/filters/${i}`;
      if ((f.on ?? 'source') === 'source') sourcePath(`${at}/field`, f.field); else rowPath(`${at}/field`, f.field);
      workflowOf(`${at}/workflow`, f.workflow);
      if (f.type === 'status' && f.workflow === undefined && statusOf === undefined) add(file, `${at}/workflow`, `a status filter needs a workflow: ${def.source.entity} has none, name one here or in statusOf`);
      if (f.type === 'reference' && (f.ref === undefined || !p.entities.has(f.ref))) add(file, `${at}/ref`, f.ref === undefined ? 'a reference filter names the entity it picks (ref)' : `entity "${f.ref}" does not exist`);
      if (f.type === 'select' && !f.options?.length) add(file, `${at}/options`, 'a select filter lists its options');
    });
    const columnIds = new Set<string>();
    def.columns.forEach((c, i) => {
      const at = `/columns/${i}`;
      if (columnIds.has(c.id)) add(file, `${at}/id`, `column "${c.id}" is declared twice`);
      columnIds.add(c.id);
      const field = c.field ?? c.id;
      const node = rowPath(c.field !== undefined ? `${at}/field` : `${at}/id`, field);
      workflowOf(`${at}/workflow`, c.workflow);
      if (c.type === 'status' && c.workflow === undefined && statusOf === undefined) add(file, `${at}/workflow`, `a status column needs a workflow: ${def.source.entity} has none, name one here or in statusOf`);
      if (c.type === 'conditional_action') {
        if (!c.action) add(file, at, 'a conditional_action column names its action (workflow, idField)');
        else {
          workflowOf(`${at}/action/workflow`, c.action.workflow);
          rowPath(`${at}/action/idField`, c.action.idField);
        }
      }
      if ((c.type === 'array' || c.type === 'object') && c.subField !== undefined && node && node.of !== 'scalar' && !nodeAt(node.of, c.subField)) {
        add(file, `${at}/subField`, `field "${c.subField}" is not in ${field}`);
      }
    });
    def.dedupeBy?.forEach((d, i) => rowPath(`/dedupeBy/${i}`, d));
    for (const k of Object.keys(def.sort ?? {})) rowPath(`/sort/${escapePointer(k)}`, k);
    if (def.summary) checkSummary(def, file, shapeOf, add);
  }
  return keys;
}

/**
 * A report's summary: its collection exists, the filters it answers are source filters of the
 * report whose field it holds, and its rows have every path the report's rows are read by.
 */
function checkSummary(def: ReportDefinition, file: string, shapeOf: (name: string) => Shape | undefined, add: Add): void {
  const summary = def.summary!;
  const source = shapeOf(summary.entity);
  if (!source) return add(file, '/summary/entity', `"${summary.entity}" is neither an entity nor a collection reports read`);
  summary.filters.forEach((id, i) => {
    const f = def.filters?.find((x) => x.id === id);
    if (!f || (f.on ?? 'source') !== 'source') add(file, `/summary/filters/${i}`, `"${id}" is not a source filter of the report`);
    else if (!nodeAt(source, f.field)) add(file, `/summary/filters/${i}`, `field "${f.field}" does not exist in ${summary.entity}`);
  });
  const rows = pipelineFlow(summary.pipeline, source, shapeOf, (pointer, message) => add(file, pointer, message), '/summary/pipeline').shape;
  const paths: [string, string][] = [
    ...(def.filters ?? []).map((f, i) => [`/filters/${i}/field`, f.field] as [string, string]).filter((_, i) => def.filters![i].on === 'row'),
    ...def.columns.map((c, i) => [`/columns/${i}`, c.field ?? c.id] as [string, string]),
    ...def.columns.flatMap((c, i) => (c.action ? [[`/columns/${i}/action/idField`, c.action.idField] as [string, string]] : [])),
    ...(def.dedupeBy ?? []).map((d, i) => [`/dedupeBy/${i}`, d] as [string, string]),
    ...Object.keys(def.sort ?? {}).map((k) => [`/sort/${escapePointer(k)}`, k] as [string, string]),
  ];
  for (const [pointer, path] of paths) if (!nodeAt(rows, path)) add(file, pointer, `field "${path}" is not in the rows of the report's summary (the output of summary.pipeline)`);
}

/** A feature drawn from a report names one that exists. */
export function checkReportFeatures(p: Parsed, reports: Set<string>, add: Add): void {
  const features = p.features!;
  features.def.features.forEach((f, i) => {
    const key = f.report?.key;
    if (key !== undefined && !reports.has(key)) add(features.file, `/features/${i}/report/key`, `report "${key}" does not exist in reports/`);
  });
}
