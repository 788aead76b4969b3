import { MOVEMENTS } from '../ledger/ledger';
import type { Filter, Store, StoredDoc } from '../store/types';
import type { LedgerReader, Movement } from './walk';

/** Values per `$in`: a level with thousands of positions is read in a few rounds, each on an index. */
export const IN_CHUNK = 500;

const FIELDS = { id: 1, key: 1, material: 1, batch: 1, deposit: 1, quantity: 1, unit: 1, at: 1, operation: 1 } as const;

/** Every document whose `field` is one of `values`, read `IN_CHUNK` values a query. */
export async function findIn(store: Store, coll: string, field: string, values: readonly string[], extra: Filter = {}, projection?: Record<string, 0 | 1>): Promise<StoredDoc[]> {
  const out: StoredDoc[] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) {
    const filter = { ...extra, [field]: { $in: values.slice(i, i + IN_CHUNK) } };
    out.push(...(await store.find(coll, { filter, ...(projection ? { projection } : {}) })));
  }
  return out;
}

export function asMovement(d: StoredDoc): Movement {
  const op = (d.operation ?? {}) as Record<string, unknown>;
  return {
    id: d.id, key: String(d.key ?? `${String(d.material)}|${String(d.batch)}|${String(d.deposit)}`), material: String(d.material), batch: String(d.batch), deposit: String(d.deposit),
    quantity: Number(d.quantity), ...(typeof d.unit === 'string' ? { unit: d.unit } : {}), at: String(d.at),
    operation: { workflow: String(op.workflow ?? ''), id: String(op.id ?? ''), transition: String(op.transition ?? '') },
  };
}

/** The ledger as the walk reads it: movements by position (`key`) and by operation, both indexed. */
export function storeLedger(store: Store): LedgerReader {
  return {
    byKeys: async (keys) => (await findIn(store, MOVEMENTS, 'key', keys, {}, FIELDS)).map(asMovement),
    byOperations: async (ids) => (await findIn(store, MOVEMENTS, 'operation.id', ids, {}, FIELDS)).map(asMovement),
  };
}

/** Every movement of a lot number (of any material): the batch is indexed, the material is checked here. */
export async function lotMovements(store: Store, batch: string): Promise<Movement[]> {
  return (await store.find(MOVEMENTS, { filter: { batch }, projection: FIELDS })).map(asMovement);
}
