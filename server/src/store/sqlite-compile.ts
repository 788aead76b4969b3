/**
 * The per-row stages of a pipeline ($match, $unwind, $project, $addFields/$set, $unset, and a
 * `$group` by `$id` over one record's rows) as plain functions, for the embedded store. mingo
 * interprets every expression anew for every row (a report's $project of fifteen fields costs
 * tens of microseconds a row); these closures are built once per pipeline.
 *
 * mingo stays the reference. A stage is compiled only when every expression in it is of the
 * kinds below; otherwise mingo runs it. And when a compiled expression meets a value it has no
 * fast answer for (an array where a scalar is usual, a type mingo would reject or coerce), it
 * throws SLOW and that one row goes through mingo's own stage, so a row comes out exactly as
 * mingo makes it either way (sqlite-compile.test.ts checks each kind against mingo).
 */
import { Aggregator, Query } from 'mingo';
import { compare, isEqual, resolve } from 'mingo/util';
import { MINGO_OPTIONS } from './sqlite-fns.js';
import { fieldGetter, objectBuilder, pathReader, rowCopy } from './sqlite-objects.js';

type Rec = Record<string, unknown>;
type Vars = Record<string, unknown>;
/** One expression, evaluated against a row (and the variables a $filter binds). */
type Expr = (doc: Rec, vars: Vars | undefined) => unknown;
/** One stage: each row it makes from `doc`, handed to `emit`. */
export type RowStage = (doc: Rec, emit: (row: Rec) => void) => void;

/** A value the fast path has no answer for: mingo answers for this row. */
const SLOW = Symbol('slow');
const slow = (): never => { throw SLOW; };

const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;
const isNum = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
// MongoDB's truthiness as mingo applies it (strict mode): "" is true, null, 0 and false are not.
const truthy = (v: unknown) => !!v || v === '';
export const isPlainObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const isOperatorObject = (v: unknown): v is Rec => isPlainObject(v) && Object.keys(v).length === 1 && Object.keys(v)[0].startsWith('$');

/** A field path ("$a.b"), a variable ("$$o.value"), or undefined when it is neither kind handled. */
function compilePath(s: string, now: Date): Expr | undefined {
  if (!s.startsWith('$$')) {
    const path = s.slice(1);
    if (path === '') return undefined;
    return pathGetter(path);
  }
  const dot = s.indexOf('.');
  const name = s.slice(2, dot < 0 ? undefined : dot);
  const rest = dot < 0 ? '' : s.slice(dot + 1);
  if (name === 'NOW') return rest === '' ? () => now : undefined;
  if (name === 'ROOT' || name === 'CURRENT') return rest === '' ? (doc) => doc : pathGetter(rest);
  if (!/^[a-z]\w*$/.test(name)) return undefined;
  const inside = rest === '' ? undefined : pathGetter(rest);
  return (_doc, vars) => {
    if (!vars || !Object.hasOwn(vars, name)) return slow();
    const v = vars[name];
    return inside ? inside(v as Rec) : v;
  };
}

/**
 * A field path's value. Through plain objects it is a walk; an array or any other value on the
 * way is mingo's resolve (which maps over arrays), so the result is always mingo's.
 */
export function pathGetter(path: string): (doc: Rec) => unknown {
  return pathReader(path, resolve);
}

type Op = (args: Expr[], raw: unknown, now: Date) => Expr | undefined;

/** The arguments of an operator written as an array of exactly n expressions. */
function fixed(n: number, make: (args: Expr[]) => Expr): Op {
  return (args, raw) => (Array.isArray(raw) && raw.length === n ? make(args) : undefined);
}

/** Comparison of two values mingo compares by type, on numbers and strings alone. */
function ordered(test: (a: number | string, b: number | string) => boolean): Op {
  return fixed(2, ([a, b]) => (doc, vars) => {
    const x = a(doc, vars);
    const y = b(doc, vars);
    if ((isNum(x) && isNum(y)) || (typeof x === 'string' && typeof y === 'string')) return test(x, y);
    return slow();
  });
}

function equal(x: unknown, y: unknown): boolean {
  // mingo's $eq expression matches an element of an array: leave that to it.
  if (Array.isArray(x)) return slow();
  return isEqual(x, y) || (isNil(x) && isNil(y));
}

/** A number, or a Date as its time: what arithmetic takes. */
const arithmetic = (v: unknown): number => (isNum(v) ? v : slow());

/** The values an accumulator used as an expression folds: its argument's array. */
function accumulated(args: Expr[], raw: unknown): Expr {
  if (Array.isArray(raw)) return (doc, vars) => args.map((a) => a(doc, vars));
  return (doc, vars) => {
    const v = args[0](doc, vars);
    return Array.isArray(v) ? v : slow();
  };
}

const OPS: Record<string, Op> = {
  $ifNull: (args, raw) => (Array.isArray(raw) ? (doc, vars) => {
    let v: unknown;
    for (const a of args) {
      v = a(doc, vars);
      if (!isNil(v)) return v;
    }
    return v;
  } : undefined),
  $arrayElemAt: fixed(2, ([a, i]) => (doc, vars) => {
    const arr = a(doc, vars);
    const index = i(doc, vars);
    if (isNil(arr) || isNil(index)) return null;
    if (!Array.isArray(arr) || !Number.isInteger(index)) return slow();
    const n = index as number;
    if (n < 0) return -n <= arr.length ? arr[n + arr.length] : undefined;
    return n < arr.length ? arr[n] : undefined;
  }),
  $size: ([a], raw) => (Array.isArray(raw) ? undefined : (doc, vars) => {
    const v = a(doc, vars);
    if (isNil(v)) return null;
    return Array.isArray(v) ? v.length : slow();
  }),
  $in: fixed(2, ([item, list]) => (doc, vars) => {
    const x = item(doc, vars);
    const arr = list(doc, vars);
    if (!Array.isArray(arr)) return slow();
    for (const v of arr) if (isEqual(v, x)) return true;
    return false;
  }),
  $eq: fixed(2, ([a, b]) => (doc, vars) => equal(a(doc, vars), b(doc, vars))),
  $ne: fixed(2, ([a, b]) => (doc, vars) => !equal(a(doc, vars), b(doc, vars))),
  $gt: ordered((a, b) => a > b),
  $gte: ordered((a, b) => a >= b),
  $lt: ordered((a, b) => a < b),
  $lte: ordered((a, b) => a <= b),
  $and: (args, raw) => (Array.isArray(raw) ? (doc, vars) => args.every((a) => truthy(a(doc, vars))) : undefined),
  $or: (args, raw) => (Array.isArray(raw) ? (doc, vars) => args.some((a) => truthy(a(doc, vars))) : undefined),
  $cond: fixed(3, ([c, t, e]) => (doc, vars) => (truthy(c(doc, vars)) ? t(doc, vars) : e(doc, vars))),
  $add: (args, raw) => (Array.isArray(raw) ? (doc, vars) => {
    let sum = 0;
    for (const a of args) {
      const v = a(doc, vars);
      if (isNil(v)) return null;
      sum += arithmetic(v);
    }
    return sum;
  } : undefined),
  $multiply: (args, raw) => (Array.isArray(raw) ? (doc, vars) => {
    const vs = args.map((a) => a(doc, vars));
    if (vs.some(isNil)) return null;
    return vs.reduce((p: number, v) => p * arithmetic(v), 1);
  } : undefined),
  $subtract: fixed(2, ([a, b]) => (doc, vars) => {
    const x = a(doc, vars);
    const y = b(doc, vars);
    if (isNil(x) || isNil(y)) return null;
    if (x instanceof Date && y instanceof Date) return x.getTime() - y.getTime();
    return arithmetic(x) - arithmetic(y);
  }),
  $divide: fixed(2, ([a, b]) => (doc, vars) => {
    const x = a(doc, vars);
    const y = b(doc, vars);
    if (isNil(x) || isNil(y)) return null;
    const d = arithmetic(y);
    return d === 0 ? slow() : arithmetic(x) / d;
  }),
  $floor: ([a], raw) => (Array.isArray(raw) ? undefined : (doc, vars) => {
    const v = a(doc, vars);
    return isNil(v) ? null : Math.floor(arithmetic(v));
  }),
  $toDate: ([a], raw) => (Array.isArray(raw) ? undefined : (doc, vars) => {
    const v = a(doc, vars);
    if (v instanceof Date) return v;
    if (isNil(v)) return null;
    if (typeof v !== 'string' && !isNum(v)) return slow();
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? slow() : d;
  }),
  $sum: (args, raw) => {
    const values = accumulated(args, raw);
    return (doc, vars) => {
      let sum = 0;
      for (const v of values(doc, vars) as unknown[]) if (isNum(v)) sum += v;
      return sum;
    };
  },
  $filter: (_args, raw, now) => {
    if (!isPlainObject(raw) || raw.limit !== undefined || !Object.keys(raw).every((k) => k === 'input' || k === 'as' || k === 'cond')) return undefined;
    const as = raw.as === undefined ? 'this' : raw.as;
    if (typeof as !== 'string' || !/^[a-z]\w*$/.test(as)) return undefined;
    const input = compileExpr(raw.input, now);
    const cond = compileExpr(raw.cond, now);
    if (!input || !cond) return undefined;
    return (doc, vars) => {
      const arr = input(doc, vars);
      if (isNil(arr)) return null;
      if (!Array.isArray(arr)) return slow();
      const scope: Vars = vars ? { ...vars } : {};
      return arr.filter((item) => {
        scope[as] = item;
        return truthy(cond(doc, scope));
      });
    };
  },
};

/**
 * An aggregation expression as a closure, or undefined when any part of it is not one the
 * fast path knows (mingo then runs the whole stage).
 */
export function compileExpr(e: unknown, now: Date): Expr | undefined {
  if (typeof e !== 'string' && typeof e === 'object' && e !== null && isLiteral(e)) {
    // A list or object of literals (a definition's table of labels) is built once, not per row.
    const value = compileValue(e, now)?.({}, undefined);
    return value === undefined ? undefined : () => value;
  }
  return compileValue(e, now);
}

/** Whether an expression holds no field path, variable or operator: its value is itself. */
function isLiteral(e: unknown): boolean {
  if (typeof e === 'string') return !e.startsWith('$');
  if (typeof e === 'number' || typeof e === 'boolean' || e === null) return true;
  if (Array.isArray(e)) return e.every(isLiteral);
  return isPlainObject(e) && Object.keys(e).every((k) => !k.startsWith('$') && isLiteral(e[k]));
}

function compileValue(e: unknown, now: Date): Expr | undefined {
  if (typeof e === 'string') return e.startsWith('$') ? compilePath(e, now) : () => e;
  if (typeof e === 'number' || typeof e === 'boolean' || e === null) return () => e;
  if (Array.isArray(e)) {
    const items = e.map((x) => compileExpr(x, now));
    if (items.some((x) => !x)) return undefined;
    return (doc, vars) => items.map((x) => x!(doc, vars));
  }
  if (!isPlainObject(e)) return undefined;
  const keys = Object.keys(e);
  if (keys.length === 0) return undefined;
  if (keys[0].startsWith('$')) {
    if (keys.length !== 1) return undefined;
    // $literal's argument is a value as it stands, never an expression ("$x" is the text "$x").
    if (keys[0] === '$literal') {
      const value = e.$literal;
      return () => value;
    }
    const op = Object.hasOwn(OPS, keys[0]) ? OPS[keys[0]] : undefined;
    if (!op) return undefined;
    const raw = e[keys[0]];
    // $filter compiles its own parts (its cond sees a variable); the rest take their arguments evaluated.
    if (keys[0] === '$filter') return op([], raw, now);

    const args = (Array.isArray(raw) ? raw : [raw]).map((x) => compileExpr(x, now));
    if (args.some((x) => !x)) return undefined;
    return op(args as Expr[], raw, now);
  }
  // An object of expressions: its fields, those that come out missing left out.
  const fields = keys.map((k) => [k, isFieldName(k) ? compileExpr(e[k], now) : undefined] as const);
  if (fields.some(([, f]) => !f)) return undefined;
  return (doc, vars) => {
    const out: Rec = {};
    for (const [k, f] of fields) {
      const v = f!(doc, vars);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
}

/** A top-level field name: not empty, no path, no operator. */
export const isFieldName = (k: string) => k !== '' && !k.includes('.') && !k.startsWith('$');

/**
 * An expression-object value ($project/$addFields) the fast path computes: not an inclusion or
 * exclusion flag, not a nested projection, not a list (mingo's $project writes null for a
 * missing element of a list, other stages do not).
 */
function isComputed(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v)) return false;
  // A nested object of expressions ({erpId: …, name: …}) is computed; one holding a flag is a projection.
  if (isPlainObject(v) && !isOperatorObject(v)) return Object.keys(v).length > 0 && Object.values(v).every(isComputed);
  return true;
}

/**
 * A stage run through mingo for one row: what the fast path hands over when it meets a value
 * it has no answer for.
 */
function mingoRow(stage: Rec, now: Date): (doc: Rec) => Rec[] {
  const agg = new Aggregator([stage], MINGO_OPTIONS);
  return (doc) => agg.run([doc]) as Rec[];
}

/** Runs `fast` for a row, or mingo's own stage for it when `fast` meets a value it does not handle. */
function withFallback(stage: Rec, now: Date, fast: RowStage): RowStage {
  let viaMingo: ((doc: Rec) => Rec[]) | undefined;
  // The rows of one input row, held until it is done (a row meeting SLOW half way emits none of
  // the fast path's). One list for the stage: a stage never runs again before it has emitted.
  let out: Rec[] = [];
  const hold = (r: Rec) => { out.push(r); };
  return (doc, emit) => {
    out.length = 0;
    try {
      fast(doc, hold);
    } catch (e) {
      if (e !== SLOW) throw e;
      viaMingo ??= mingoRow(stage, now);
      for (const r of viaMingo(doc)) emit(r);
      return;
    }
    if (out.length === 1) return emit(out[0]);
    const rows = out;
    out = [];
    for (const r of rows) emit(r);
  };
}

function compileProject(spec: Rec, now: Date): RowStage | undefined {
  const keys = Object.keys(spec);
  if (keys.length === 0 || !keys.every((k) => isFieldName(k))) return undefined;
  const flag = (v: unknown) => v === 1 || v === true || v === 0 || v === false;
  const excluded = keys.filter((k) => spec[k] === 0 || spec[k] === false);
  // An exclusion projection (other than of _id) leaves every other field: mingo's job.
  if (excluded.some((k) => k !== '_id')) return undefined;
  const parts: [string, Expr | 'keep'][] = [];
  for (const k of keys) {
    const v = spec[k];
    if (v === 0 || v === false) continue;
    if (flag(v)) parts.push([k, 'keep']);
    else if (!isComputed(v)) return undefined;
    else {
      const f = compileExpr(v, now);
      if (!f) return undefined;
      parts.push([k, f]);
    }
  }
  if (parts.length === 0) return undefined;
  const keepId = !excluded.includes('_id') && !keys.includes('_id');
  const build = objectBuilder([...parts.map(([k]) => k), ...(keepId ? ['_id'] : [])], { omitUndefined: true });
  const getters = parts.map(([k, f]) => (f === 'keep' ? fieldGetter(k) : f));
  // One list of values reused row after row: the stage runs one row at a time.
  const values: unknown[] = new Array(getters.length + (keepId ? 1 : 0));
  return (doc, emit) => {
    for (let i = 0; i < getters.length; i++) values[i] = getters[i](doc, undefined);
    if (keepId) values[getters.length] = doc._id;
    emit(build(values));
  };
}

function compileAddFields(spec: Rec, now: Date): RowStage | undefined {
  const keys = Object.keys(spec);
  if (keys.length === 0 || !keys.every(isFieldName)) return undefined;
  const parts: [string, Expr][] = [];
  for (const k of keys) {
    // $addFields takes any value as an expression: a number or a list is a literal there.
    const f = compileExpr(spec[k], now);
    if (!f) return undefined;
    parts.push([k, f]);
  }
  return (doc, emit) => {
    const out: Rec = rowCopy(doc);
    for (const [k, f] of parts) {
      const v = f(doc, undefined);
      if (v !== undefined) out[k] = v;
      else delete out[k];
    }
    emit(out);
  };
}

/** The value at a path of plain objects; an array on the way is mingo's case (it maps over it). */
function valueAt(doc: Rec, parts: string[]): unknown {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) return slow();
    v = isPlainObject(v) ? v[p] : undefined;
  }
  return v;
}

/** A copy of `doc` with the value at `parts` replaced (or removed, for undefined), the objects on the way copied. */
function withValueAt(doc: Rec, parts: string[], value: unknown): Rec {
  const [head, ...rest] = parts;
  const out: Rec = rowCopy(doc);
  if (rest.length > 0) out[head] = withValueAt(doc[head] as Rec, rest, value);
  else if (value === undefined) delete out[head];
  else out[head] = value;
  return out;
}

function compileUnwind(arg: unknown): RowStage | undefined {
  const spec = typeof arg === 'string' ? { path: arg } : (arg as Rec);
  if (!isPlainObject(spec) || typeof spec.path !== 'string' || !spec.path.startsWith('$')) return undefined;
  if (!Object.keys(spec).every((k) => k === 'path' || k === 'preserveNullAndEmptyArrays')) return undefined;
  const parts = spec.path.slice(1).split('.');
  if (!parts.every(isFieldName)) return undefined;
  const preserve = spec.preserveNullAndEmptyArrays === true;
  return (doc, emit) => {
    const v = valueAt(doc, parts);
    if (Array.isArray(v)) {
      if (v.length > 0) for (const item of v) emit(withValueAt(doc, parts, item));
      else if (preserve) emit(withValueAt(doc, parts, undefined));
      return;
    }
    // mingo drops an "empty" value: missing, null, "", {} (an empty array is handled above).
    const empty = isNil(v) || v === '' || (isPlainObject(v) && Object.keys(v).length === 0);
    if (!empty || preserve) emit(doc);
  };
}

function compileUnset(arg: unknown): RowStage | undefined {
  const fields = Array.isArray(arg) ? arg : [arg];
  if (fields.length === 0 || !fields.every((f) => typeof f === 'string' && isFieldName(f))) return undefined;
  return (doc, emit) => {
    const out: Rec = rowCopy(doc);
    for (const f of fields as string[]) delete out[f];
    emit(out);
  };
}

/**
 * One per-row stage as a function, or undefined when mingo must run it (an operator or a shape
 * the fast path does not know). `now` is the pipeline's $$NOW.
 */
export function compileRowStage(stage: Rec, now: Date): RowStage | undefined {
  const [op, ...more] = Object.keys(stage);
  if (more.length > 0) return undefined;
  const arg = stage[op];
  let fast: RowStage | undefined;
  switch (op) {
    case '$match': {
      if (!isPlainObject(arg)) return undefined;
      const q = new Query(arg, MINGO_OPTIONS);
      return (doc, emit) => { if (q.test(doc)) emit(doc); };
    }
    case '$unwind': fast = compileUnwind(arg); break;
    case '$unset': return compileUnset(arg);
    case '$project': fast = isPlainObject(arg) ? compileProject(arg, now) : undefined; break;
    case '$addFields': case '$set': fast = isPlainObject(arg) ? compileAddFields(arg, now) : undefined; break;
    default: return undefined;
  }
  return fast && withFallback(stage, now, fast);
}

/**
 * An expression's value for one row: the compiled closure, or mingo's own evaluation of it for a
 * row the closure has no answer for (as a $group or $addFields evaluates it: the same value).
 */
function rowValue(expr: unknown, fast: Expr): (row: Rec) => unknown {
  let viaMingo: Aggregator | undefined;
  return (row) => {
    try {
      return fast(row, undefined);
    } catch (e) {
      if (e !== SLOW) throw e;
      viaMingo ??= new Aggregator([{ $addFields: { value: expr } }], MINGO_OPTIONS);
      return (viaMingo.run([row])[0] as Rec).value;
    }
  };
}

/**
 * One accumulator: a group's state for it starts as `init`, each row folds into it, and the
 * value is read at the end. The state is a plain value (a group holds its totals, not its rows,
 * and no closures: a report may make hundreds of thousands of groups).
 */
interface Accumulator {
  init(): unknown;
  add(state: unknown, row: Rec): unknown;
  value(state: unknown): unknown;
}

/** A state not set yet ($first before its first row, $max before any value). */
const UNSET = Symbol('unset');
const same = (s: unknown) => s;

/**
 * An accumulator as mingo computes it, kept running instead of over the group's held rows.
 * $max keeps the last of equal values and $min the first, as mingo's stable sort does.
 */
function compileAccumulator(spec: unknown, now: Date): Accumulator | undefined {
  if (!isOperatorObject(spec)) return undefined;
  const [op] = Object.keys(spec);
  const arg = spec[op];
  if (op === '$sum' && isNum(arg)) return { init: () => 0, add: (n) => (n as number) + arg, value: same };
  const f = compileExpr(arg, now);
  if (!f) return undefined;
  const each = rowValue(arg, f);
  switch (op) {
    case '$first': return { init: () => UNSET, add: (v, r) => (v === UNSET ? each(r) ?? null : v), value: (v) => (v === UNSET ? null : v) };
    case '$last': return { init: () => null, add: (_v, r) => each(r) ?? null, value: same };
    case '$push': return { init: () => [], add: (all, r) => { (all as unknown[]).push(each(r) ?? null); return all; }, value: same };
    case '$sum': return { init: () => 0, add: (sum, r) => { const v = each(r); return isNum(v) ? (sum as number) + v : sum; }, value: same };
    case '$max': return {
      init: () => UNSET,
      add: (top, r) => { const v = each(r) ?? null; return top === UNSET || compare(v, top) >= 0 ? v : top; },
      value: (top) => (top === UNSET ? null : top ?? null),
    };
    case '$min': return {
      init: () => UNSET,
      add: (low, r) => { const v = each(r); return isNil(v) || (low !== UNSET && compare(v, low) >= 0) ? low : v; },
      value: (low) => (low === UNSET ? null : low),
    };
    default: return undefined;
  }
}

/** A $group's key and accumulators, compiled; undefined when mingo must run it. */
export interface CompiledGroup {
  /** The group a row belongs to (missing counts as null, as mingo has it). */
  key(row: Rec): unknown;
  /** A new group's states. */
  start(): unknown[];
  /** Folds a row into a group's states. */
  add(states: unknown[], row: Rec): void;
  /** The accumulators' names, in the order of the states. */
  readonly names: readonly string[];
  /** Folds a row into some of the states only (their indices): sqlite-lines.ts folds a record's fields once and each line's into the rest. */
  addSome(states: unknown[], row: Rec, which: readonly number[]): void;
  /** The group's document. */
  done(key: unknown, states: unknown[]): Rec;
}

export function compileGroup(spec: Rec, now: Date): CompiledGroup | undefined {
  if (!Object.hasOwn(spec, '_id')) return undefined;
  const id = compileExpr(spec._id, now);
  if (!id) return undefined;
  const names: string[] = [];
  const accs: Accumulator[] = [];
  for (const [k, v] of Object.entries(spec)) {
    if (k === '_id') continue;
    const acc = compileAccumulator(v, now);
    if (!acc) return undefined;
    names.push(k);
    accs.push(acc);
  }
  const keyOf = rowValue(spec._id, id);
  // Every accumulator's value is defined (null at least): each field is there.
  const build = objectBuilder(['_id', ...names], { omitUndefined: false });
  return {
    key: (row) => keyOf(row) ?? null,
    start: () => accs.map((a) => a.init()),
    add: (states, row) => {
      for (let i = 0; i < accs.length; i++) states[i] = accs[i].add(states[i], row);
    },
    names,
    addSome: (states, row, which) => {
      for (const i of which) states[i] = accs[i].add(states[i], row);
    },
    done: (key, states) => {
      // mingo hands a group keyed by a bare -0 out as 0 (a -0 inside a document stays).
      const values: unknown[] = [Object.is(key, -0) ? 0 : key];
      for (let i = 0; i < accs.length; i++) values.push(accs[i].value(states[i]));
      return build(values);
    },
  };
}

/**
 * Group keys as mingo compares them: a primitive as itself, a document or list by its content
 * (keys in any order; a date by its time).
 */
export function groupKey(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? `\u0000${canonical(v)}` : v;
}

function canonical(v: unknown): string {
  if (v instanceof Date) return `D${v.getTime()}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return v === undefined ? 'u' : JSON.stringify(v) ?? String(v);
}
