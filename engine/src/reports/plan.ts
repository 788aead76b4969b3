import { enabledExtensions, type Registry } from '../registry/registry';
import type { ReportDef, ReportFilterDef } from '../types';
import { collectionShape, UNIQUE_PATHS, type EntityParts } from './collections';
import { keepsSourcePath, pipelineFlow, sourcePathOf, type Flow } from './flow';
import type { FilterValue, ReportQuery } from './query';
import { hasPath, type Shape } from './shape';

type Filter = Record<string, unknown>;
type Stage = Record<string, unknown>;

/**
 * The pipelines a report request runs, all on `collection`. `rows` is one page and fetches one
 * row more than the page size, so the caller knows whether another page follows (and drops it).
 * `all` is every row, for the export (a top ten keeps its limit). `count` is a plain filter
 * (store.count) when each source record is one row, else a pipeline whose one document is
 * `{ n }` (none when there are no rows). `pagedInStore`: the page is cut right after the
 * leading `$match` and its sort, so the store reads one page of records (in SQL on the embedded
 * store); otherwise a page may read the whole source (a `$group`, a sort on a computed field).
 */
export interface ReportPlan {
  collection: string;
  rows: Stage[];
  pagedInStore: boolean;
  all: Stage[];
  /**
   * `all` for a store whose `$group` by the record id keeps the order its input came in (the
   * embedded store groups a record's consecutive rows as they come): without the sort a
   * regrouping needs again on MongoDB, whose `$group` keeps no order, so the export streams.
   */
  allInOrder: Stage[];
  count: { filter: Filter } | { pipeline: Stage[] };
  /**
   * Every row in no particular order (a top ten: its ten, sorted), for a stage that folds them
   * (a dashboard's totals and groups, engine/src/dashboards/reduce.ts): no sort, no page.
   */
  unordered: Stage[];
  /**
   * When every source record the leading `$match` keeps is exactly one row, no row filter or
   * de-duplication follows and no limit cuts: that `$match`, and what the pipeline does to the
   * source (sourcePathOf tells which row paths still hold a source path's value). A fold that
   * reads only such paths (a dashboard's count per day) reads them from the source records
   * straight, without the pipeline's joins and regroupings.
   */
  direct?: { lead: Stage; flow: Flow };
}

/**
 * The source collection's shape and what the report's pipeline does to it, worked out once per
 * report. The pipeline's leading `$match` stages filter source documents as the request's own
 * conditions do: they join those (`matches`), and `flow` is what the stages after them do.
 */
interface Analysis { source: Shape; matches: Filter[]; rest: Stage[]; flow: Flow }
const analyses = new WeakMap<ReportDef, Analysis>();

export function registryEntity(reg: Registry): (name: string) => EntityParts | undefined {
  return (name) => {
    const e = reg.entities[name];
    return e ? { fields: e.fields, extensions: enabledExtensions(reg, name), sync: e.sync } : undefined;
  };
}

function analyse(reg: Registry, def: ReportDef): Analysis {
  let a = analyses.get(def);
  if (!a) {
    const shapeOf = (name: string) => collectionShape(name, registryEntity(reg));
    // The registry checked the source exists; an open shape keeps the planner conservative regardless.
    const source = shapeOf(def.source.entity) ?? 'open';
    let n = 0;
    while (n < def.pipeline.length && '$match' in def.pipeline[n]) n++;
    const rest = def.pipeline.slice(n);
    const matches = def.pipeline.slice(0, n).map((s) => s.$match as Filter);
    analyses.set(def, (a = { source, matches, rest, flow: pipelineFlow(rest, source, shapeOf) }));
  }
  return a;
}

/** Whether the report's summary answers this request: no warehouse group, and source filters only among those it holds. */
function answersFromSummary(def: ReportDef, q: ReportQuery, scope: Filter | undefined): boolean {
  const s = def.summary;
  if (!s || (scope && Object.keys(scope).length)) return false;
  return def.filters.every((f) => q.filters[f.id] === undefined || f.on === 'row' || s.filters.includes(f.id));
}

const variants = new WeakMap<ReportDef, ReportDef>();
/** The report read from its summary: the summary's collection and pipeline, the rest as defined. */
function summaryVariant(def: ReportDef): ReportDef {
  let v = variants.get(def);
  if (!v) variants.set(def, (v = { ...def, source: { ...def.source, entity: def.summary!.entity }, pipeline: def.summary!.pipeline }));
  return v;
}

/** A text as a regular expression matching it literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A declared filter's condition on its field, for a value parseReportQuery checked. */
function condition(f: ReportFilterDef, v: FilterValue): Filter {
  switch (f.type) {
    case 'text': return { [f.field]: { $regex: escapeRegExp(String(v)), $options: 'i' } };
    case 'select': case 'status': return { [f.field]: { $in: v } };
    case 'date_range': {
      const { from, to } = v as { from?: string; to?: string };
      // `to` is a whole day: a date-time field's values that day are in, as a date field's are.
      return { [f.field]: { ...(from !== undefined ? { $gte: from } : {}), ...(to !== undefined ? { $lte: `${to}T23:59:59.999Z` } : {}) } };
    }
    case 'number_range': {
      const { min, max } = v as { min?: number; max?: number };
      return { [f.field]: { ...(min !== undefined ? { $gte: min } : {}), ...(max !== undefined ? { $lte: max } : {}) } };
    }
    default: return { [f.field]: v };
  }
}

/** Conditions as one filter: merged when they name different fields, else under $and. */
function allOf(conds: Filter[]): Filter {
  const keys = conds.flatMap((c) => Object.keys(c));
  if (new Set(keys).size === keys.length) return Object.assign({}, ...conds) as Filter;
  return { $and: conds };
}

/** `skip` then `take` rows within the first `cap` (a top ten), as few stages as the stores push down. */
function windowStages(skip: number, take: number | undefined, cap: number | undefined): Stage[] {
  if (cap !== undefined && (take === undefined || skip >= cap)) return [{ $limit: cap }, ...(take === undefined ? [] : [{ $skip: skip }, { $limit: take }])];
  const limit = take === undefined ? undefined : cap === undefined ? take : Math.min(take, cap - skip);
  return [...(skip > 0 ? [{ $skip: skip }] : []), ...(limit !== undefined ? [{ $limit: limit }] : [])];
}

/**
 * The pipelines of a report request: `$match` (scope and source filters) → the report's
 * pipeline → `$match` (row filters) → de-duplication → `$sort` (id as the last key) → the
 * report's limit → the page. For speed, the sort moves right after the first `$match` when its
 * keys are source paths the pipeline leaves alone (so the store sorts in SQL or on an index),
 * and the page with it when every source record is exactly one row and nothing filters or
 * merges rows after: the pipeline then runs on one page of records only. `pushdown: false`
 * keeps the plain order, the reference a moved plan must answer the same as (tests, diagnosis).
 */
export function reportPlan(reg: Registry, whole: ReportDef, q: ReportQuery, scope?: Filter, options: { pushdown?: boolean; summary?: boolean } = {}): ReportPlan {
  const def = options.summary !== false && answersFromSummary(whole, q, scope) ? summaryVariant(whole) : whole;
  const { source, matches, rest, flow } = analyse(reg, def);
  const sourceConds: Filter[] = [...(scope && Object.keys(scope).length ? [scope] : []), ...matches];
  const rowConds: Filter[] = [];
  for (const f of def.filters) {
    const v = q.filters[f.id];
    if (v !== undefined) (f.on === 'row' ? rowConds : sourceConds).push(condition(f, v));
  }
  const where = allOf(sourceConds);
  const lead: Stage = { $match: where };
  const rowMatch: Stage[] = rowConds.length ? [{ $match: allOf(rowConds) }] : [];

  const dedupeBy = def.dedupeBy ?? [];
  const idsUnique = dedupeBy.length === 1 && dedupeBy[0] === 'id' && flow.rows !== 'many' && keepsSourcePath(flow, 'id');
  // A pipeline grouping by the de-duplication key already made its rows distinct by it, as does a source path unique in its collection kept as it is.
  const grouped = dedupeBy.length === 1 && (flow.unique.includes(dedupeBy[0])
    || (flow.rows !== 'many' && (UNIQUE_PATHS[def.source.entity] ?? []).includes(dedupeBy[0]) && keepsSourcePath(flow, dedupeBy[0])));
  const dedupe: Stage[] = dedupeBy.length === 0 || idsUnique || grouped ? [] : [
    { $group: { _id: Object.fromEntries(dedupeBy.map((k, i) => [`k${i}`, `$${k}`])), row: { $first: '$$ROOT' } } },
    { $replaceRoot: { newRoot: '$row' } },
  ];

  const sort: Record<string, 1 | -1> = { ...(q.sort ?? def.sort) };
  if (!('id' in sort) && hasPath(flow.shape, 'id')) sort.id = 1;
  const sortStage: Stage = { $sort: sort };
  // The sort on source paths: a row path the pipeline copied (`returnedOn: "$at"`) sorts on its source.
  const sourceSort = Object.entries(sort).map(([k, dir]) => [sourcePathOf(flow, k), dir] as const);
  const sortFirst = options.pushdown !== false && !flow.orders && dedupe.length === 0 && sourceSort.every(([k]) => k !== undefined && hasPath(source, k))
    && new Set(sourceSort.map(([k]) => k)).size === sourceSort.length;
  const pageFirst = sortFirst && flow.rows === 'one' && rowConds.length === 0;
  const firstSort: Stage = { $sort: Object.fromEntries(sourceSort) };

  const skip = (q.page - 1) * q.pageSize;
  // A regrouping $group keeps no order: the moved sort is applied again to what it gives.
  const resort: Stage[] = flow.regrouped ? [sortStage] : [];
  const compose = (window: Stage[], again = resort): Stage[] => {
    if (pageFirst) return [lead, firstSort, ...window, ...rest, ...again];
    if (sortFirst) return [lead, firstSort, ...rest, ...rowMatch, ...again, ...window];
    return [lead, ...rest, ...rowMatch, ...dedupe, sortStage, ...window];
  };
  const plainCount = flow.rows === 'one' && rowConds.length === 0 && dedupe.length === 0 && def.limit === undefined;
  const unordered = [lead, ...rest, ...rowMatch, ...dedupe];
  // A count stops at the last stage that decides how many rows there are (an export counts
  // before it runs: joins and projections after the last filter are not worth doing twice),
  // unless a row filter or the de-duplication reads what those stages compute.
  const counted = rowMatch.length === 0 && dedupe.length === 0 ? [lead, ...rest.slice(0, flow.countedBy)] : unordered;
  return {
    collection: def.source.entity,
    rows: compose(windowStages(skip, q.pageSize + 1, def.limit)),
    pagedInStore: pageFirst,
    all: compose(windowStages(0, undefined, def.limit)),
    allInOrder: compose(windowStages(0, undefined, def.limit), []),
    count: plainCount
      ? { filter: where }
      : { pipeline: [...counted, ...(def.limit !== undefined ? [{ $limit: def.limit }] : []), { $count: 'n' }] },
    unordered: def.limit !== undefined ? [...unordered, sortStage, { $limit: def.limit }] : unordered,
    ...(plainCount ? { direct: { lead, flow } } : {}),
  };
}
