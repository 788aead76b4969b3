/**
 * A record's lines regrouped into the record, without a copy of the record for each line.
 *
 * The shipment reports unwind a record's product lines, join each line's material, and group the
 * lines back by the record's `id`:
 *
 *   $unwind "$lines" → $lookup (its $unwind)… → $group {_id: "$id", f: {$first: "$f"}…, lines: {$push: …}}
 *
 * Run stage by stage, each line is a copy of the whole record (twenty-odd fields) and every
 * accumulator of the group folds every line. Here a line is a small object holding only what the
 * stages read of it: the line itself, what the joins wrote, and the record's fields that the
 * joins' keys and the line accumulators name. A `$first` of the record's own fields (none a join
 * writes, not the unwound array) is folded from the record itself, once for each record, as its
 * first line would give it. The unwind is the compiled `$unwind`, the joins the same keyed joins
 * (sqlite-join.ts), the group the same compiled accumulators: a stage sees, of each row, every
 * field it reads, so the results are those of the stages one by one (sqlite-lines.test.ts checks
 * them against mingo's on random records).
 */
import { compileGroup, compileRowStage, isFieldName, isPlainObject } from './sqlite-compile.js';
import { joined, keyedLookup, unwindOf, type ForeignReader, type KeyedLookup, type Pull } from './sqlite-join.js';
import type { Pipeline } from './types.js';

type Rec = Record<string, unknown>;

/** The record a line was made from: a symbol, so no stage and no result sees it as a field. */
const RECORD = Symbol('record');

/** A top-level field name a line may carry as a plain property (`__proto__` would be its prototype). */
const isName = (k: string) => isFieldName(k) && k !== '__proto__';
const head = (path: string) => path.split('.')[0];

/**
 * The top-level fields an expression reads, or undefined when it may read the whole row
 * (`$$ROOT`, `$$CURRENT`) or holds a `$literal` (whose strings are not paths). Any other string
 * starting with one `$` is a field path, as MongoDB reads it; `$$name` is a variable.
 */
export function exprReads(e: unknown, out = new Set<string>()): Set<string> | undefined {
  if (typeof e === 'string') {
    if (e.startsWith('$$')) {
      const name = head(e.slice(2));
      return name === 'ROOT' || name === 'CURRENT' ? undefined : out;
    }
    if (e.startsWith('$')) out.add(head(e.slice(1)));
    return out;
  }
  if (Array.isArray(e)) {
    for (const x of e) if (!exprReads(x, out)) return undefined;
    return out;
  }
  if (isPlainObject(e)) {
    if (Object.hasOwn(e, '$literal')) return undefined;
    for (const v of Object.values(e)) if (!exprReads(v, out)) return undefined;
  }
  return out;
}

/** Whether two ids are one group's, as a `$group` by `$id` keys them (null and missing alike). */
export const sameKey = (a: unknown, b: unknown) => a === b || ((a ?? null) === null && (b ?? null) === null) || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/**
 * A source's rows in runs: the rows after a run's first that `sameRun` puts with it are folded
 * into it (`start` makes a run's fold from its first row), and the run's result comes out when
 * the next run begins. One run is held at a time, never the whole input.
 */
export function runsOf(source: Pull, sameRun: (row: Rec, first: Rec) => boolean, start: (first: Rec) => { add(row: Rec): void; done(): Rec }): Pull {
  let pending: Rec | undefined;
  let ended = false;
  return {
    next: () => {
      let first = pending;
      pending = undefined;
      if (!first && !ended) {
        const r = source.next();
        if (r.done) ended = true;
        else first = r.value as Rec;
      }
      if (!first) return { done: true };
      const run = start(first);
      while (!ended) {
        const r = source.next();
        if (r.done) { ended = true; break; }
        const row = r.value as Rec;
        if (!sameRun(row, first)) { pending = row; break; }
        run.add(row);
      }
      return { done: false, value: run.done() };
    },
    own: true,
  };
}

export interface RegroupedLines {
  /** The index of the `$group` stage: the stages from the `$unwind` through it are done here. */
  end: number;
  /** The groups, from the source's documents. */
  pull(source: Pull): Pull;
}

/**
 * The stages from `stages[i]` (an `$unwind`) through the `$group` by `$id` after its joins, as one,
 * or undefined when they are not of that shape. `idRunsKept`: whether the stages before the group
 * keep a record's rows together (sqlite-aggregate.ts). `joinOptions`: mingo's, for a join of
 * document keys.
 */
export function regroupedLines(stages: Pipeline, i: number, now: Date, foreign: ForeignReader, joinOptions: object, idRunsKept: (stages: Pipeline, i: number) => boolean): RegroupedLines | undefined {
  const u = stages[i].$unwind;
  const path = typeof u === 'string' ? u : isPlainObject(u) ? u.path : undefined;
  if (typeof path !== 'string' || !path.startsWith('$') || !isName(path.slice(1))) return undefined;
  const lines = path.slice(1);
  const unwind = compileRowStage(stages[i], now);
  if (!unwind || lines === 'id') return undefined;
  const joins: { lookup: KeyedLookup; unwind: { preserve: boolean } | undefined }[] = [];
  let j = i + 1;
  for (let l = keyedLookup(stages[j] ?? {}); l; l = keyedLookup(stages[j] ?? {})) {
    if (!isName(l.as) || l.as === 'id' || l.as === lines || joins.some((x) => x.lookup.as === l.as)) return undefined;
    const unwound = unwindOf(stages[j + 1], l.as);
    joins.push({ lookup: l, unwind: unwound });
    j += unwound ? 2 : 1;
  }
  const spec = stages[j]?.$group;
  if (!isPlainObject(spec) || spec._id !== '$id' || !idRunsKept(stages, j)) return undefined;
  const group = compileGroup(spec, now);
  if (!group) return undefined;

  // What a line holds besides the record's: the unwound element, what each join wrote.
  const written = new Set([lines, ...joins.map((x) => x.lookup.as)]);
  // The record's fields a line carries: a join's key, a line accumulator's field.
  const carried = new Set<string>();
  for (const [k, { lookup }] of joins.entries()) {
    const key = head(lookup.localField);
    // A line carries what it reads as plain fields: `__proto__` would be its prototype instead.
    if (!isName(key)) return undefined;
    // A key a later join writes is the record's field here, and the line's after: not kept apart.
    if (joins.slice(k).some((x) => x.lookup.as === key)) return undefined;
    if (!written.has(key)) carried.add(key);
  }
  const onRecord: number[] = [];
  const onLine: number[] = [];
  for (const [k, name] of group.names.entries()) {
    const acc = spec[name] as Rec;
    const [op] = Object.keys(acc);
    const reads = exprReads(acc[op]);
    if (!reads || ![...reads].every(isName)) return undefined;
    if (op === '$first' && ![...reads].some((f) => written.has(f))) {
      onRecord.push(k);
    } else {
      onLine.push(k);
      for (const f of reads) if (!written.has(f)) carried.add(f);
    }
  }
  const kept = [lines, ...carried];

  return {
    end: j,
    pull(source: Pull): Pull {
      // Each record's lines, from a shell of it holding only the fields kept.
      let queue: Rec[] = [];
      let at = 0;
      const tag = (row: Rec) => { (row as Record<symbol, unknown>)[RECORD] = current; queue.push(row); };
      let current: Rec | undefined;
      let rows: Pull = {
        next: () => {
          while (at >= queue.length) {
            const r = source.next();
            if (r.done) return { done: true };
            current = r.value as Rec;
            const shell: Rec = {};
            for (const f of kept) if (Object.hasOwn(current, f)) shell[f] = current[f];
            queue = [];
            at = 0;
            unwind(shell, tag);
          }
          return { done: false, value: queue[at++] };
        },
        // Every line is a new object (a copy of the shell, or the shell).
        own: true,
      };
      for (const x of joins) rows = joined(rows, x.lookup, x.unwind, foreign, joinOptions);

      // The lines of consecutive records with the same id into one group, as the $group by $id
      // over the rows one by one (sqlite-aggregate.ts, streamedRuns) makes it.
      const recordOf = (row: Rec) => (row as Record<symbol, unknown>)[RECORD] as Rec;
      return runsOf(rows, (row, first) => sameKey(recordOf(row).id, recordOf(first).id), (first) => {
        let record = recordOf(first);
        const states = group.start();
        group.addSome(states, record, onRecord);
        group.addSome(states, first, onLine);
        return {
          add: (row) => {
            const from = recordOf(row);
            if (from !== record) {
              record = from;
              group.addSome(states, record, onRecord);
            }
            group.addSome(states, row, onLine);
          },
          done: () => group.done(group.key(recordOf(first)), states),
        };
      });
    },
  };
}
