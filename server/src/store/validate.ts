/**
 * Everything a caller hands the store is checked here, before either database sees it: filters,
 * sorts, pipelines, documents and names. Refusing early is what keeps hostile input (operator
 * injection such as {"$where": ...} or {"$gt": ""} in a field, code-running operators) away from
 * MongoDB and what lets the SQLite compiler assume a small, known language.
 */
import { StoreError, type CollectionSpec, type Doc, type Filter, type Pipeline, type SortSpec } from './types.js';

/** Top-level fields the MongoDB adapter uses for itself; never accepted from callers. */
export const RESERVED_FIELDS = new Set(['_id', '_uk', '_rev']);

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const COLLECTION = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
const MAX_DEPTH = 16;
const MAX_NODES = 2000;
const MAX_REGEX = 512;
const MAX_IN = 5000;

export const FIELD_OPS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$not'] as const;
const FIELD_OP_SET = new Set<string>(FIELD_OPS);
const LOGICAL_OPS = new Set(['$and', '$or', '$nor']);

export type Scalar = string | number | boolean | null;

function fail(code: 'INVALID_FILTER' | 'INVALID_PIPELINE' | 'INVALID_DOCUMENT' | 'INVALID_ARGUMENT', msg: string): never {
  throw new StoreError(code, msg);
}

/**
 * A collection spec's indexes, checked the same way by both stores before either creates
 * anything: each unique key one or more valid paths, each compound index two or more, every
 * indexed and searched path valid. Returns every path an index names (the embedded store's columns).
 */
export function validateCollectionSpec(spec: CollectionSpec): Set<string> {
  const paths = new Set<string>();
  for (const key of spec.uniqueKeys) {
    if (!Array.isArray(key) || key.length === 0) throw new StoreError('INVALID_ARGUMENT', 'a unique key lists one or more paths');
    key.forEach((p) => paths.add(p));
  }
  spec.indexes.forEach((p) => paths.add(p));
  for (const key of spec.compoundIndexes ?? []) {
    if (!Array.isArray(key) || key.length < 2) throw new StoreError('INVALID_ARGUMENT', 'a compound index lists two or more paths');
    key.forEach((p) => paths.add(p));
  }
  for (const p of paths) validatePath(p, 'INVALID_ARGUMENT');
  for (const p of spec.searchPaths ?? []) validatePath(p, 'INVALID_ARGUMENT');
  return paths;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

export function validateCollectionName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !COLLECTION.test(name)) fail('INVALID_ARGUMENT', `invalid collection name ${JSON.stringify(name)}`);
}

/** A dotted path of plain segments: no operators, no empty segments, nothing reserved at the top. */
export function validatePath(path: unknown, code: 'INVALID_FILTER' | 'INVALID_PIPELINE' | 'INVALID_ARGUMENT' = 'INVALID_FILTER', allowId = false): asserts path is string {
  if (typeof path !== 'string' || path.length === 0 || path.length > 256) fail(code, `invalid field path ${JSON.stringify(path)}`);
  const segs = path.split('.');
  if (!segs.every((s) => SEGMENT.test(s))) fail(code, `invalid field path ${JSON.stringify(path)}`);
  if (RESERVED_FIELDS.has(segs[0]) && !(allowId && segs[0] === '_id')) fail(code, `field ${segs[0]} is reserved`);
}

interface Budget { nodes: number }

function spend(budget: Budget, depth: number, code: 'INVALID_FILTER' | 'INVALID_PIPELINE'): void {
  if (++budget.nodes > MAX_NODES) fail(code, 'too large');
  if (depth > MAX_DEPTH) fail(code, 'nested too deeply');
}

function checkScalar(v: unknown, op: string): void {
  if (!isScalar(v)) fail('INVALID_FILTER', `${op} needs a string, number, boolean or null`);
}

function checkOperators(ops: Record<string, unknown>, budget: Budget, depth: number): void {
  const keys = Object.keys(ops);
  if (keys.length === 0) fail('INVALID_FILTER', 'empty operator object');
  for (const op of keys) {
    spend(budget, depth, 'INVALID_FILTER');
    if (!FIELD_OP_SET.has(op)) fail('INVALID_FILTER', `operator ${op} is not allowed`);
    const v = ops[op];
    switch (op) {
      case '$eq':
      case '$ne':
        checkScalar(v, op);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        // Range comparisons with null mean odd things in MongoDB ($gte null = equals null); keep them out.
        if (v === null) fail('INVALID_FILTER', `${op} needs a string, number or boolean`);
        checkScalar(v, op);
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(v) || v.length > MAX_IN) fail('INVALID_FILTER', `${op} needs an array of at most ${MAX_IN} values`);
        for (const x of v) checkScalar(x, op);
        break;
      case '$exists':
        if (typeof v !== 'boolean') fail('INVALID_FILTER', '$exists needs true or false');
        break;
      case '$regex':
        if (typeof v !== 'string' || v.length > MAX_REGEX) fail('INVALID_FILTER', `$regex needs a string of at most ${MAX_REGEX} characters`);
        regexFlags(ops.$options);
        try {
          new RegExp(v);
        } catch {
          fail('INVALID_FILTER', '$regex is not a valid regular expression');
        }
        break;
      case '$options':
        if (!('$regex' in ops)) fail('INVALID_FILTER', '$options without $regex');
        break;
      case '$not':
        if (!isPlainObject(v) || !Object.keys(v).every((k) => k.startsWith('$'))) fail('INVALID_FILTER', '$not needs an operator object');
        checkOperators(v, budget, depth + 1);
        break;
    }
  }
}

/** Regex options accepted everywhere the same way: i (case-insensitive), m (multi-line), s (dot matches newline). */
export function regexFlags(options: unknown): string {
  if (options === undefined) return '';
  if (typeof options !== 'string' || !/^[ims]*$/.test(options)) fail('INVALID_FILTER', '$options may only hold i, m and s');
  return [...new Set(options)].sort().join('');
}

function checkFilter(filter: unknown, budget: Budget, depth: number, allowId: boolean): void {
  if (!isPlainObject(filter)) fail('INVALID_FILTER', 'a filter must be an object');
  for (const [key, value] of Object.entries(filter)) {
    spend(budget, depth, 'INVALID_FILTER');
    if (key.startsWith('$')) {
      if (!LOGICAL_OPS.has(key)) fail('INVALID_FILTER', `operator ${key} is not allowed`);
      if (!Array.isArray(value) || value.length === 0) fail('INVALID_FILTER', `${key} needs a non-empty array of filters`);
      for (const sub of value) checkFilter(sub, budget, depth + 1, allowId);
      continue;
    }
    validatePath(key, 'INVALID_FILTER', allowId);
    if (isScalar(value)) continue;
    if (!isPlainObject(value)) fail('INVALID_FILTER', `value of ${key} must be a scalar or an operator object`);
    const keys = Object.keys(value);
    // Object equality depends on field order in MongoDB; the engine never needs it, so refuse it
    // rather than risk {field: {"$gt": ""}}-style confusion between data and operators.
    if (!keys.every((k) => k.startsWith('$'))) fail('INVALID_FILTER', `value of ${key} must be a scalar or an operator object`);
    checkOperators(value, budget, depth + 1);
  }
}

/** Throws StoreError INVALID_FILTER unless the filter is in the supported subset. */
export function validateFilter(filter: unknown, options: { allowId?: boolean } = {}): asserts filter is Filter {
  checkFilter(filter, { nodes: 0 }, 0, options.allowId ?? false);
}

export function validateSort(sort: unknown, code: 'INVALID_FILTER' | 'INVALID_PIPELINE' = 'INVALID_FILTER', allowId = false): asserts sort is SortSpec {
  if (!isPlainObject(sort)) fail(code, 'sort must be an object');
  const keys = Object.keys(sort);
  if (keys.length > 16) fail(code, 'too many sort keys');
  for (const k of keys) {
    validatePath(k, code, allowId);
    if (sort[k] !== 1 && sort[k] !== -1) fail(code, `sort direction of ${k} must be 1 or -1`);
  }
}

export function validateProjection(p: unknown): void {
  if (!isPlainObject(p)) fail('INVALID_ARGUMENT', 'projection must be an object');
  const vals = new Set<unknown>();
  for (const [k, v] of Object.entries(p)) {
    validatePath(k, 'INVALID_ARGUMENT');
    if (v !== 0 && v !== 1) fail('INVALID_ARGUMENT', 'projection values must be 0 or 1');
    if (k !== 'id') vals.add(v);
  }
  if (vals.size > 1) fail('INVALID_ARGUMENT', 'projection cannot mix inclusion and exclusion');
}

export function validatePaging(skip: unknown, limit: unknown): void {
  for (const [name, v] of [['skip', skip], ['limit', limit]] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || (v as number) < 0)) fail('INVALID_ARGUMENT', `${name} must be a non-negative integer`);
  }
}

/** An aggregateCursor's batch size (default 1,000): a positive integer. */
export function validateBatchSize(size: unknown): number {
  if (size === undefined) return 1000;
  if (!Number.isSafeInteger(size) || (size as number) < 1) fail('INVALID_ARGUMENT', 'batchSize must be a positive integer');
  return size as number;
}

/** Keys that run code or write elsewhere, wherever they appear in a pipeline. */
const FORBIDDEN_ANYWHERE = new Set(['$where', '$function', '$accumulator', '$out', '$merge', '$expr']);
const STAGES = new Set(['$match', '$group', '$sort', '$project', '$unwind', '$lookup', '$count', '$limit', '$skip',
  '$addFields', '$set', '$unset', '$facet', '$replaceRoot', '$sortByCount']);

function scanExpression(v: unknown, budget: Budget, depth: number): void {
  spend(budget, depth, 'INVALID_PIPELINE');
  if (Array.isArray(v)) {
    for (const x of v) scanExpression(x, budget, depth + 1);
  } else if (typeof v === 'object' && v !== null) {
    if (!isPlainObject(v)) fail('INVALID_PIPELINE', 'pipelines hold plain JSON only');
    for (const [k, x] of Object.entries(v)) {
      if (FORBIDDEN_ANYWHERE.has(k)) fail('INVALID_PIPELINE', `${k} is not allowed`);
      if (RESERVED_FIELDS.has(k.split('.')[0]) && k !== '_id') fail('INVALID_PIPELINE', `field ${k} is reserved`);
      scanExpression(x, budget, depth + 1);
    }
  } else if (typeof v === 'number' && !Number.isFinite(v)) {
    fail('INVALID_PIPELINE', 'numbers must be finite');
  } else if (typeof v === 'string' && /^\$(_uk|_rev)\b/.test(v)) {
    fail('INVALID_PIPELINE', 'reserved fields cannot be referenced');
  }
}

function checkStage(stage: unknown, index: number, leading: boolean, inFacet: boolean, budget: Budget): void {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) fail('INVALID_PIPELINE', `stage ${index} must be an object with one operator`);
  const [name, arg] = Object.entries(stage)[0];
  if (!STAGES.has(name)) fail('INVALID_PIPELINE', `stage ${name} is not allowed`);
  try {
    switch (name) {
      case '$match':
        // Before any reshaping `_id` would reach MongoDB's internal id; afterwards it is a group key.
        validateFilter(arg, { allowId: !leading || inFacet });
        return;
      case '$sort':
        validateSort(arg, 'INVALID_PIPELINE', true);
        return;
      case '$limit':
      case '$skip':
        if (!Number.isSafeInteger(arg) || (arg as number) < (name === '$limit' ? 1 : 0)) fail('INVALID_PIPELINE', `${name} needs a non-negative integer`);
        return;
      case '$count':
        if (typeof arg !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(arg)) fail('INVALID_PIPELINE', '$count needs a field name');
        return;
      case '$lookup': {
        if (!isPlainObject(arg)) fail('INVALID_PIPELINE', '$lookup needs an object');
        const keys = Object.keys(arg).sort().join(',');
        // The let/pipeline form runs arbitrary expressions against another collection; not needed.
        if (keys !== 'as,foreignField,from,localField') fail('INVALID_PIPELINE', '$lookup needs exactly from, localField, foreignField and as');
        validateCollectionName(arg.from);
        validatePath(arg.localField, 'INVALID_PIPELINE', true);
        validatePath(arg.foreignField, 'INVALID_PIPELINE');
        validatePath(arg.as, 'INVALID_PIPELINE');
        return;
      }
      case '$facet':
        if (inFacet) fail('INVALID_PIPELINE', '$facet cannot be nested');
        if (!isPlainObject(arg) || Object.keys(arg).length === 0) fail('INVALID_PIPELINE', '$facet needs named sub-pipelines');
        for (const [k, sub] of Object.entries(arg)) {
          if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(k)) fail('INVALID_PIPELINE', `invalid facet name ${k}`);
          checkPipeline(sub, true, budget);
        }
        return;
      default:
        scanExpression(arg, budget, 1);
    }
  } catch (e) {
    if (e instanceof StoreError && e.code !== 'INVALID_PIPELINE') throw new StoreError('INVALID_PIPELINE', `${name}: ${e.message}`);
    throw e;
  }
}

function checkPipeline(pipeline: unknown, inFacet: boolean, budget: Budget): void {
  if (!Array.isArray(pipeline) || pipeline.length > 64) fail('INVALID_PIPELINE', 'a pipeline must be an array of at most 64 stages');
  let leading = true;
  pipeline.forEach((s, i) => {
    leading &&= isPlainObject(s) && '$match' in s;
    checkStage(s, i, leading, inFacet, budget);
  });
}

export function validatePipeline(pipeline: unknown): asserts pipeline is Pipeline {
  checkPipeline(pipeline, false, { nodes: 0 });
}

function checkValue(v: unknown, depth: number): void {
  if (depth > 64) fail('INVALID_DOCUMENT', 'document nested too deeply');
  if (isScalar(v)) return;
  if (typeof v === 'number') fail('INVALID_DOCUMENT', 'numbers must be finite');
  if (Array.isArray(v)) {
    for (const x of v) checkValue(x, depth + 1);
    return;
  }
  if (!isPlainObject(v)) fail('INVALID_DOCUMENT', 'documents hold plain JSON values only (no Date, undefined, functions)');
  // for…in, not Object.entries: every written document passes here, and the pairs were garbage.
  // A plain object (checked above) has no enumerable keys but its own.
  for (const k in v) {
    const x = v[k];
    if (k.length === 0 || k.startsWith('$') || k.includes('.') || k.includes('\0')) fail('INVALID_DOCUMENT', `invalid field name ${JSON.stringify(k)}`);
    if (x === undefined) fail('INVALID_DOCUMENT', `field ${k} is undefined`);
    checkValue(x, depth + 1);
  }
}

export function validateDocument(doc: unknown): asserts doc is Doc {
  if (!isPlainObject(doc)) fail('INVALID_DOCUMENT', 'a document must be an object');
  for (const k of Object.keys(doc)) if (RESERVED_FIELDS.has(k)) fail('INVALID_DOCUMENT', `field ${k} is reserved`);
  if ('id' in doc && (typeof doc.id !== 'string' || doc.id.length === 0 || doc.id.length > 128)) {
    fail('INVALID_DOCUMENT', 'id must be a non-empty string of at most 128 characters');
  }
  checkValue(doc, 0);
}
