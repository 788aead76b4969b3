import { keysGranting, type Registry } from '../../../engine/src/index';

/**
 * A route's own keys plus every key whose `operations` list one of the backend operations the
 * route serves (`ibc.mobile.performqc` lists getIBC, so it reads IBCs).
 */
export function keysFor(reg: Registry, own: readonly string[], operations: readonly string[]): string[] {
  return [...new Set([...own, ...keysGranting(reg.access, operations)])];
}
