import { escapePointer } from '../registry/problems';
import { isRecord } from '../validate/values';
import { exprNode, nodeAt, OPEN_NODE, setPath, type Problems, type Shape, type ShapeNode } from './shape';

type Stage = Record<string, unknown>;

/**
 * What a pipeline does to the documents of its source: the shape of its rows, which source
 * paths it rewrites, and how many rows a source document makes. The planner moves a sort, a
 * skip and a limit ahead of the pipeline only where this says the answer stays the same.
 */
export interface Flow {
  shape: Shape;
  /** Paths a stage wrote, removed or replaced: a row's value there may differ from the source's. */
  touched: string[];
  /** The root was replaced ($group, $replaceRoot, $count, $facet): no row path is a source path any more. */
  replaced: boolean;
  /** one: every source document is exactly one row; atMostOne: some are dropped ($match); many: $unwind may multiply. */
  rows: 'one' | 'atMostOne' | 'many';
  /** The pipeline orders or cuts rows itself ($sort, $skip, $limit): an earlier sort would change what it keeps. */
  orders: boolean;
  /** Row paths a stage copied from a source path (`returnedOn: "$at"`) and nothing rewrote since: row path → source path. */
  renames: Record<string, string>;
  /** Row paths no two rows share a value of: a `$group`'s key (`batch: {$first: "$batch"}` under `_id: "$batch"`). */
  unique: string[];
  /**
   * The lines were unwound and grouped back by the source `id` (product names looked up line by
   * line): one row per record again, but a `$group` keeps no order, so a sort moved ahead of the
   * pipeline must be applied again after it.
   */
  regrouped: boolean;
  /**
   * How many leading stages decide how many rows there are: every stage after them only reshapes
   * a row (`$project`, `$addFields`, `$set`, `$unset`, `$sort`, a `$lookup`, and the unwinding,
   * keeping empty ones, of a looked-up document joined on `id`). A count needs only those.
   */
  countedBy: number;
}

/** Where the collections a `$lookup` names come from: undefined for an unknown collection. */
export type CollectionShapes = (name: string) => Shape | undefined;

const LESS = { one: 0, atMostOne: 1, many: 2 } as const;
const worse = (a: Flow['rows'], b: Flow['rows']): Flow['rows'] => (LESS[a] >= LESS[b] ? a : b);

/** A path given as `"$path"` in a stage, without its `$`. */
function fieldRef(v: unknown): string | undefined {
  return typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$') ? v.slice(1) : undefined;
}

const isExclusion = (v: unknown) => v === 0 || v === false;
const isInclusion = (v: unknown) => v === 1 || v === true;

/**
 * Walks `stages` from `source`, reporting against `pointer` (`/pipeline`) the paths they read
 * that no earlier stage has, and `$lookup`s of unknown collections.
 */
export function pipelineFlow(stages: readonly Stage[], source: Shape, collections: CollectionShapes, problem: Problems = () => {}, pointer = '/pipeline'): Flow {
  const flow: Flow = { shape: source, touched: [], replaced: false, rows: 'one', orders: false, renames: {}, unique: [], regrouped: false, countedBy: 0 };
  // Since the first $unwind that multiplied rows: the rows before it, and whether rows were dropped since.
  let beforeMany: Flow['rows'] | undefined;
  let droppedSinceMany = false;
  // `$lookup` results holding at most one document: joined on the foreign `id` (unique in every
  // collection) from a single-valued local path. Unwinding one keeps a row per document.
  const singles = new Set<string>();
  const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  /** The source path a `"$path"` value copies, when the path still holds the source's value. */
  const copied = (v: unknown): string | undefined => {
    const p = fieldRef(v);
    return p !== undefined && keepsSourcePath(flow, p) ? p : flow.renames[p ?? ''];
  };
  const need = (at: string, path: string): ShapeNode | undefined => {
    const node = nodeAt(flow.shape, path);
    if (!node) problem(at, `field "${path}" does not exist at this stage`);
    return node;
  };
  stages.forEach((stage, i) => {
    const [op] = Object.keys(stage);
    const arg = stage[op];
    const at = `${pointer}/${i}/${escapePointer(op)}`;
    const touch = (path: string, node: ShapeNode | undefined) => {
      flow.touched.push(path);
      flow.shape = setPath(flow.shape, path, node);
      for (const s of singles) if (overlaps(s, path)) singles.delete(s);
      for (const r of Object.keys(flow.renames)) if (overlaps(r, path)) delete flow.renames[r];
      flow.unique = flow.unique.filter((u) => !overlaps(u, path));
    };
    /** Expressions of one stage read its input: the copies are worked out before the stage writes. */
    const renamesOf = (entries: [string, unknown][]) => entries.flatMap(([k, v]) => { const p = copied(v); return p === undefined ? [] : [[k, p] as const]; });
    const forget = () => { singles.clear(); flow.renames = {}; flow.unique = []; };
    // Whether this stage leaves the number of rows as it is (see countedBy).
    let reshapes = ['$project', '$addFields', '$set', '$unset', '$sort', '$lookup'].includes(op);
    switch (op) {
      case '$match': flow.rows = worse(flow.rows, 'atMostOne'); droppedSinceMany = true; break;
      case '$sort': flow.orders = true; break;
      case '$skip': case '$limit': flow.orders = true; flow.rows = worse(flow.rows, 'atMostOne'); droppedSinceMany = true; break;
      case '$addFields': case '$set': {
        if (!isRecord(arg)) break;
        const renamed = renamesOf(Object.entries(arg));
        for (const [k, v] of Object.entries(arg)) touch(k, exprNode(v, flow.shape, `${at}/${escapePointer(k)}`, problem));
        for (const [k, p] of renamed) flow.renames[k] = p;
        break;
      }
      case '$unset':
        for (const k of Array.isArray(arg) ? arg : [arg]) if (typeof k === 'string') touch(k, undefined);
        break;
      case '$project': {
        if (!isRecord(arg)) break;
        const entries = Object.entries(arg).filter(([k]) => k !== '_id');
        if (entries.length > 0 && entries.every(([, v]) => isExclusion(v))) {
          for (const [k] of entries) touch(k, undefined);
          break;
        }
        const before = flow.shape;
        const renamed = renamesOf(Object.entries(arg).filter(([, v]) => !isInclusion(v) && !isExclusion(v)));
        let next: Shape = {};
        for (const [k, v] of Object.entries(arg)) {
          if (isExclusion(v)) continue;
          const node = isInclusion(v) ? need(`${at}/${escapePointer(k)}`, k) : exprNode(v, before, `${at}/${escapePointer(k)}`, problem);
          next = setPath(next, k, node ?? OPEN_NODE);
        }
        // Everything not kept is gone: a sort on it after this stage sorts on nothing.
        if (before !== 'open') for (const k of Object.keys(before)) if (!(k in arg) && !Object.keys(arg).some((p) => p.startsWith(`${k}.`))) touch(k, undefined);
        for (const [k, v] of Object.entries(arg)) if (!isInclusion(v) && !isExclusion(v)) touch(k, undefined);
        flow.shape = next;
        for (const [k, p] of renamed) flow.renames[k] = p;
        break;
      }
      case '$lookup': {
        if (!isRecord(arg)) break;
        const from = typeof arg.from === 'string' ? collections(arg.from) : undefined;
        if (!from) problem(`${at}/from`, `collection "${String(arg.from)}" is neither an entity nor a collection reports read`);
        if (typeof arg.localField === 'string') need(`${at}/localField`, arg.localField);
        let joined: Shape = from ?? 'open';
        if (Array.isArray(arg.pipeline)) joined = pipelineFlow(arg.pipeline as Stage[], joined, collections, problem, `${at}/pipeline`).shape;
        if (typeof arg.as === 'string') {
          const single = arg.foreignField === 'id' && !Array.isArray(arg.pipeline) && typeof arg.localField === 'string' && singleValued(flow.shape, arg.localField);
          touch(arg.as, { many: true, of: joined });
          if (single) singles.add(arg.as);
        }
        break;
      }
      case '$unwind': {
        const spec = isRecord(arg) ? arg : { path: arg };
        const path = fieldRef(spec.path);
        if (!path) break;
        const node = need(isRecord(arg) ? `${at}/path` : at, path);
        reshapes = singles.has(path) && spec.preserveNullAndEmptyArrays === true;
        // An array of at most one document: kept, a row stays a row; else the row goes when it is empty.
        if (!singles.has(path)) {
          if (beforeMany === undefined) { beforeMany = flow.rows; droppedSinceMany = false; }
          flow.rows = 'many';
          flow.unique = [];
        }
        if (spec.preserveNullAndEmptyArrays !== true) { if (singles.has(path)) flow.rows = worse(flow.rows, 'atMostOne'); droppedSinceMany = true; }
        if (typeof spec.includeArrayIndex === 'string') touch(spec.includeArrayIndex, { many: false, of: 'scalar' });
        touch(path, node ? { ...node, many: false } : OPEN_NODE);
        break;
      }
      case '$group': {
        if (!isRecord(arg)) break;
        const before = flow.shape;
        // Grouped back by the source record's id after its lines were unwound: a row per record again.
        const regroup = arg._id === '$id' && beforeMany !== undefined && !flow.orders && !flow.replaced && keepsSourcePath(flow, 'id');
        const regroupRenames = regroup ? Object.entries(arg).flatMap(([k, v]) => {
          const p = k !== '_id' && isRecord(v) && Object.keys(v).length === 1 ? copied(v.$first) : undefined;
          return p === undefined ? [] : [[k, p] as const];
        }) : [];
        const out: Record<string, ShapeNode> = {};
        for (const [k, v] of Object.entries(arg)) {
          const kat = `${at}/${escapePointer(k)}`;
          if (k === '_id') { out._id = exprNode(v, before, kat, problem); continue; }
          const [acc] = isRecord(v) ? Object.keys(v) : [];
          const operand = isRecord(v) ? v[acc] : undefined;
          const node = () => exprNode(operand, before, `${kat}/${escapePointer(acc)}`, problem);
          if (acc === '$first' || acc === '$last') out[k] = node();
          else if (acc === '$push' || acc === '$addToSet') out[k] = { many: true, of: node().of };
          else { if (acc === '$min' || acc === '$max' || acc === '$sum' || acc === '$avg') node(); out[k] = { many: false, of: 'scalar' }; }
        }
        Object.assign(flow, { shape: out, replaced: true, rows: 'many' as const });
        forget();
        // One row per value of the key: the key, and any copy of the grouped path, are unique.
        const key = fieldRef(arg._id);
        if (key !== undefined) {
          const copies = Object.entries(arg).filter(([k, v]) => k !== '_id' && isRecord(v) && Object.keys(v).length === 1 && (v.$first === arg._id || v.$last === arg._id));
          flow.unique = ['_id', ...copies.map(([k]) => k)];
        }
        if (regroup) {
          flow.rows = worse(beforeMany!, droppedSinceMany ? 'atMostOne' : 'one');
          flow.regrouped = true;
          for (const [k, p] of regroupRenames) flow.renames[k] = p;
        }
        break;
      }
      case '$replaceRoot': {
        const root = isRecord(arg) ? exprNode(arg.newRoot, flow.shape, `${at}/newRoot`, problem) : OPEN_NODE;
        // A root computed by an operator has no knowable fields: the rows' paths go unchecked then.
        Object.assign(flow, { shape: root.of === 'scalar' ? 'open' : root.of, replaced: true });
        forget();
        break;
      }
      case '$count':
        Object.assign(flow, { shape: { [String(arg)]: { many: false, of: 'scalar' } }, replaced: true, rows: 'many' as const });
        forget();
        break;
      case '$facet': {
        const out: Record<string, ShapeNode> = {};
        if (isRecord(arg)) for (const [k, sub] of Object.entries(arg)) {
          out[k] = { many: true, of: pipelineFlow(Array.isArray(sub) ? (sub as Stage[]) : [], flow.shape, collections, problem, `${at}/${escapePointer(k)}`).shape };
        }
        Object.assign(flow, { shape: out, replaced: true, rows: 'many' as const });
        forget();
        break;
      }
      default: break;
    }
    if (!reshapes) flow.countedBy = i + 1;
  });
  return flow;
}

/** Whether `path` holds one value at most in documents of `shape`: no array on the way, and a known field. */
function singleValued(shape: Shape, path: string): boolean {
  const parts = path.split('.');
  return parts.every((_, i) => {
    const node = nodeAt(shape, parts.slice(0, i + 1).join('.'));
    return node !== undefined && !node.many && (i === parts.length - 1 ? node.of === 'scalar' : node.of !== 'open');
  });
}

/** The source path a row path holds the value of: itself when the pipeline leaves it alone, the path it was copied from, else undefined. */
export function sourcePathOf(flow: Flow, path: string): string | undefined {
  if (keepsSourcePath(flow, path)) return path;
  // A stage replacing the root forgets the copies, except a regrouping by id, which keeps its own.
  return Object.hasOwn(flow.renames, path) ? flow.renames[path] : undefined;
}

/** Whether the row value at `path` is the source document's value at `path`, untouched by the pipeline. */
export function keepsSourcePath(flow: Flow, path: string): boolean {
  if (flow.replaced) return false;
  return !flow.touched.some((t) => t === path || path.startsWith(`${t}.`) || t.startsWith(`${path}.`));
}
