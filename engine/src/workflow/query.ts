import { Query } from 'mingo';

/** mingo kept to MongoDB's behaviour and away from running code, as in the store. */
const MINGO_OPTIONS = { scriptEnabled: false } as const;

const compiled = new WeakMap<object, Query>();

/** A definition's MongoDB-style query (a guard, a derivation's case), compiled once. */
export function compiledQuery(query: Record<string, unknown>): Query {
  let q = compiled.get(query);
  if (!q) compiled.set(query, (q = new Query(query, MINGO_OPTIONS)));
  return q;
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
