import { collectionSpec, type Registry } from '../../../engine/src/index';
import type { CollectionSpec } from '../store/types';
import { EVENT_COLLECTIONS } from './events';

/**
 * The indexes the trace reads through besides the definitions' own: events by the operation
 * that emitted them (one batched `$in` per trace). Merged into each collection's spec, which
 * ensureCollection would otherwise take as the whole.
 */
export function traceCollections(reg: Registry): CollectionSpec[] {
  return EVENT_COLLECTIONS.map((coll) => {
    const own = reg.entities[coll] ? collectionSpec(reg, coll) : { name: coll, uniqueKeys: [], indexes: [], searchPaths: [] };
    return { ...own, indexes: [...new Set([...own.indexes, 'operation.id'])] };
  });
}
