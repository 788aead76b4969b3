import type { ExtensionDef, FieldDef } from '../types';
import { escapePointer } from '../registry/problems';
import { isRecord } from '../validate/values';

/**
 * The fields a document has, as far as definitions tell: a report's rows are the output of its
 * pipeline, so a column naming a field no stage produces is caught when definitions load.
 * `open` is a document whose fields cannot be known (an object field declared without its
 * fields, an expression's result): any path under it is accepted.
 */
export type Shape = 'open' | { readonly [field: string]: ShapeNode };
export interface ShapeNode {
  /** An array (of `of`): paths walk through it, as MongoDB's do. */
  many: boolean;
  of: 'scalar' | Shape;
}

export const OPEN_NODE: ShapeNode = { many: false, of: 'open' };
const SCALAR: ShapeNode = { many: false, of: 'scalar' };

/** Keys every stored record carries besides its fields (engine/src/records/systemKeys.ts). */
const STAMP_KEYS = ['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'];

export function fieldsShape(fields: readonly FieldDef[]): Shape {
  const out: Record<string, ShapeNode> = {};
  for (const f of fields) {
    const of = f.type === 'object' ? (f.fields ? fieldsShape(f.fields) : 'open') : 'scalar';
    out[f.id] = { many: f.multiple === true, of };
  }
  return out;
}

/** A stored record of an entity: its fields, its enabled extensions under `extensions`, the system keys. */
export function recordShape(fields: readonly FieldDef[], extensions: readonly ExtensionDef[], sync: boolean): Shape {
  const out: Record<string, ShapeNode> = { ...(fieldsShape(fields) as Record<string, ShapeNode>) };
  for (const k of STAMP_KEYS) out[k] = SCALAR;
  // The sync outbox writes what it learns under `sync` (status, messages…): not declared anywhere.
  if (sync) out.sync = OPEN_NODE;
  if (extensions.length) out.extensions = { many: false, of: Object.fromEntries(extensions.map((e) => [e.name, { many: false, of: fieldsShape(e.fields) }])) };
  return out;
}

/** The node a dotted path names (numeric parts index an array), `OPEN_NODE` under an open document, undefined when absent. */
export function nodeAt(shape: Shape, path: string): ShapeNode | undefined {
  let cur: Shape = shape;
  let node: ShapeNode | undefined;
  for (const part of path.split('.')) {
    if (node?.many && /^\d+$/.test(part)) { node = { ...node, many: false }; continue; }
    if (node && node.of === 'scalar') return undefined;
    if (node) cur = node.of as Shape;
    if (cur === 'open') return OPEN_NODE;
    node = Object.hasOwn(cur, part) ? cur[part] : undefined;
    if (!node) return undefined;
  }
  return node;
}

export function hasPath(shape: Shape, path: string): boolean {
  return nodeAt(shape, path) !== undefined;
}

function withPath(shape: Shape, parts: readonly string[], node: ShapeNode | undefined): Shape {
  if (shape === 'open') return shape;
  const [head, ...rest] = parts;
  const out: Record<string, ShapeNode> = { ...shape };
  if (rest.length === 0) {
    if (node) out[head] = node; else delete out[head];
    return out;
  }
  const inner = shape[head];
  if (!inner || inner.of === 'scalar') {
    if (node) out[head] = { many: false, of: withPath({}, rest, node) };
    return out;
  }
  out[head] = { ...inner, of: withPath(inner.of, rest, node) };
  return out;
}

/** The shape with `path` set to `node` (intermediate documents created), or removed when `node` is undefined. */
export function setPath(shape: Shape, path: string, node: ShapeNode | undefined): Shape {
  return withPath(shape, path.split('.'), node);
}

/** Expression operators whose result is a single value whatever their operands. */
const SCALAR_OPERATORS = new Set([
  '$concat', '$toString', '$toLower', '$toUpper', '$substr', '$substrCP', '$trim', '$dateToString', '$dateFromString', '$toDate',
  '$size', '$sum', '$avg', '$add', '$subtract', '$multiply', '$divide', '$round', '$floor', '$ceil', '$abs', '$mod', '$toInt',
  '$toDouble', '$toBool', '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$and', '$or', '$not', '$in', '$strLenCP', '$indexOfArray',
  '$dateDiff', '$year', '$month', '$dayOfMonth', '$type', '$isArray', '$cmp', '$strcasecmp', '$literal', '$count',
]);

/** What a problem is reported against: the JSON pointer of the value being read. */
export type Problems = (pointer: string, message: string) => void;

/**
 * The node an aggregation expression yields. `"$path"` copies what the path holds (a missing
 * path is reported: it is a misspelling in a definition); `$arrayElemAt`/`$first`/`$last` take an
 * element, `$ifNull` its first operand, `$mergeObjects` merges documents, a plain object builds
 * one. Any other operator's result is open: its shape is not knowable without running it.
 */
export function exprNode(expr: unknown, shape: Shape, pointer: string, problem: Problems): ShapeNode {
  if (typeof expr === 'string' && expr.startsWith('$')) {
    if (expr === '$$ROOT' || expr === '$$CURRENT') return { many: false, of: shape };
    if (expr.startsWith('$$ROOT.')) return exprNode(`$${expr.slice(7)}`, shape, pointer, problem);
    if (expr.startsWith('$$')) return OPEN_NODE;
    const node = nodeAt(shape, expr.slice(1));
    if (!node) problem(pointer, `field "${expr.slice(1)}" does not exist at this stage`);
    return node ?? OPEN_NODE;
  }
  if (Array.isArray(expr)) return { many: true, of: 'open' };
  if (!isRecord(expr)) return SCALAR;
  const keys = Object.keys(expr);
  if (keys.length === 1 && keys[0].startsWith('$')) {
    const op = keys[0];
    const arg = expr[op];
    const at = `${pointer}/${escapePointer(op)}`;
    const first = Array.isArray(arg) ? arg[0] : arg;
    if (op === '$arrayElemAt' || op === '$first' || op === '$last') {
      const node = exprNode(first, shape, Array.isArray(arg) ? `${at}/0` : at, problem);
      return { ...node, many: false };
    }
    if (op === '$ifNull') return exprNode(first, shape, `${at}/0`, problem);
    if (op === '$mergeObjects' && Array.isArray(arg)) {
      let merged: Shape = {};
      arg.forEach((a, i) => { merged = mergeShapes(merged, exprNode(a, shape, `${at}/${i}`, problem)); });
      return { many: false, of: merged };
    }
    return SCALAR_OPERATORS.has(op) ? SCALAR : OPEN_NODE;
  }
  return { many: false, of: Object.fromEntries(keys.map((k) => [k, exprNode(expr[k], shape, `${pointer}/${escapePointer(k)}`, problem)])) };
}

function mergeShapes(into: Shape, node: ShapeNode): Shape {
  if (into === 'open' || node.of === 'open' || node.many) return 'open';
  if (node.of === 'scalar') return into;
  return { ...into, ...node.of };
}
