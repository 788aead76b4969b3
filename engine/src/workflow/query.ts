import { Query } from 'mingo';
import { getPath } from '../validate/values';

/** mingo kept to MongoDB's behaviour and away from running code, as in the store. */
const MINGO_OPTIONS = { scriptEnabled: false } as const;

const compiled = new WeakMap<object, Query>();

/** A definition's MongoDB-style query (a guard, a derivation's case), compiled once. */
export function compiledQuery(query: Record<string, unknown>): Query {
  let q = compiled.get(query);
  if (!q) compiled.set(query, (q = new Query(query, MINGO_OPTIONS)));
  return q;
}

/** The day (YYYY-MM-DD) of an ISO date-time, in its own offset: the date its writer lived. */
export function dayOf(now: string): string {
  return now.slice(0, 10);
}

/** The strings of a query (values only, `$expr` operands included), for finding `$today`/`$now`. */
function valuesOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.flatMap(valuesOf);
  return typeof v === 'object' && v !== null ? Object.values(v).flatMap(valuesOf) : [v];
}

function withTime(v: unknown, time: Record<string, string>): unknown {
  if (typeof v === 'string') return time[v] ?? v;
  if (Array.isArray(v)) return v.map((x) => withTime(x, time));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withTime(x, time)]));
  return v;
}

/** Per query: which time it names (`$now` wins over `$today`), and its last compilation for that time. */
const timed = new WeakMap<object, { needs?: '$now' | '$today'; at?: string; query?: Query }>();

/**
 * A query whose string values `$today` (the day of `now`) and `$now` (`now` itself) stand for the
 * transition's time, anywhere in it, `$expr` included. A query naming neither is the plain compiled
 * one; one naming them is compiled again only when the time it reads changes (`$today`: once a day).
 */
export function timedQuery(query: Record<string, unknown>, now: string): Query {
  let entry = timed.get(query);
  if (!entry) {
    const values = valuesOf(query);
    timed.set(query, (entry = { needs: values.includes('$now') ? '$now' : values.includes('$today') ? '$today' : undefined }));
  }
  if (!entry.needs) return compiledQuery(query);
  const at = entry.needs === '$now' ? now : dayOf(now);
  if (entry.at !== at || !entry.query) {
    entry.query = new Query(withTime(query, { $today: dayOf(now), $now: now }) as Record<string, unknown>, MINGO_OPTIONS);
    entry.at = at;
  }
  return entry.query;
}

const BEFORE = '$before.';

/**
 * A transition's query (an effect's `when`, a refuse rule): `$today`/`$now` as in timedQuery, and
 * `$before.<path>` strings standing for the record's values before the transition (a return that
 * names no new deposit leaves `deposit_id` equal to `$before.deposit_id`). Those differ per
 * record, so a query naming them is compiled for each use.
 */
export function transitionQuery(query: Record<string, unknown>, now: string, before: Record<string, unknown>): Query {
  if (!valuesOf(query).some((v) => typeof v === 'string' && v.startsWith(BEFORE))) return timedQuery(query, now);
  const bind = (v: unknown): unknown => {
    if (typeof v === 'string') return v.startsWith(BEFORE) ? (getPath(before, v.slice(BEFORE.length)) ?? null) : v;
    if (Array.isArray(v)) return v.map(bind);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bind(x)]));
    return v;
  };
  return new Query(withTime(bind(query), { $today: dayOf(now), $now: now }) as Record<string, unknown>, MINGO_OPTIONS);
}

/** Why mingo cannot run a query, or undefined when it can (the cross-references' check). */
export function queryProblem(query: Record<string, unknown>): string | undefined {
  try {
    new Query(query, MINGO_OPTIONS).test({});
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
