import type { Registry } from '../../../engine/src/index';

/**
 * The route's own keys plus every key whose `operations` list one of the backend operations the
 * route serves (the contract's rule: `ibc.mobile.performqc` lists getIBC, so it reads IBCs).
 * `operations` on an access key is optional.
 */
export function keysFor(reg: Registry, own: readonly string[], operations: readonly string[]): string[] {
  const listing = reg.access.keys.filter((k) => ((k as { operations?: unknown }).operations as string[] | undefined)?.some?.((o) => operations.includes(o)));
  return [...new Set([...own, ...listing.map((k) => k.key)])];
}
