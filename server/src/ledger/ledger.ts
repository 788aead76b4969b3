import type { PlannedMovement } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { CollectionSpec, Doc, Store, StoredDoc } from '../store/types';
import { refreshBatches } from './batchStock';

export const MOVEMENTS = 'stock_movement';
export const BALANCES = 'stock_balance';

/** The ledger's collections: immutable movements, and one balance per material, batch and deposit. */
export const LEDGER_COLLECTIONS: CollectionSpec[] = [
  { name: MOVEMENTS, uniqueKeys: [], indexes: ['key', 'material', 'batch', 'deposit', 'at', 'operation.id'] },
  { name: BALANCES, uniqueKeys: [['material', 'batch', 'deposit']], indexes: ['material', 'batch', 'deposit', 'quantity'],
    // Stock per deposit and unit (the dashboards' stockByDeposit): summed in the index alone, no balance read.
    compoundIndexes: [['deposit', 'unit', 'quantity']] },
];

/** The operation a movement belongs to. */
export interface OperationRef {
  workflow: string;
  id: string;
  transition: string;
}

export function balanceId(m: { material: string; batch: string; deposit: string }): string {
  return `${m.material}|${m.batch}|${m.deposit}`;
}

/**
 * A movement's `key` is its balance's id: the stock of one material, batch and deposit on a past
 * date reads that key's movements by one index, where each part alone may match most of the ledger.
 */

/** A quantity free of binary noise (0.1 + 0.2): the ledger keeps 9 decimals. */
export function roundQuantity(q: number): number {
  return Math.round(q * 1e9) / 1e9;
}

/** What a material and a division are called, for a message a user reads; the id when there is no record. */
async function nameOf(store: Store, coll: string, id: string, field: string): Promise<string> {
  const doc = await store.get(coll, id).catch(() => null);
  return doc && typeof doc[field] === 'string' && doc[field] ? (doc[field] as string) : id;
}

/**
 * The balances the movements end at, checked in order: any balance going below 0 refuses the
 * whole list (STOCK_INSUFFICIENT naming material, batch, deposit, what was there and what was
 * asked). Reads only; the caller writes (writeMovements) in the same transaction or critical section.
 */
export async function checkMovements(store: Store, movements: readonly PlannedMovement[]): Promise<Map<string, StoredDoc | null>> {
  const ids = [...new Set(movements.map(balanceId))];
  const found = ids.length ? await store.find(BALANCES, { filter: { id: { $in: ids } } }) : [];
  const before = new Map<string, StoredDoc | null>(ids.map((id) => [id, found.find((b) => b.id === id) ?? null]));
  const running = new Map(ids.map((id) => [id, Number(before.get(id)?.quantity ?? 0)]));
  for (const m of movements) {
    const key = balanceId(m);
    const next = roundQuantity(running.get(key)! + m.quantity);
    if (next < 0) {
      const [material, deposit] = await Promise.all([nameOf(store, 'material', m.material, 'name'), nameOf(store, 'company_division', m.deposit, 'division_name')]);
      throw new ApiError('STOCK_INSUFFICIENT', { material, batch: m.batch, deposit, available: running.get(key)!, requested: -m.quantity });
    }
    running.set(key, next);
  }
  return before;
}

/**
 * Writes the movements, their balances and their batches' stock (batchStock.ts; the lots must
 * be written first, for the batch's dates). Idempotent for one `opId`: a balance remembers the
 * last operation applied to it, so replaying a journaled operation after a crash (stores
 * without transactions, where operations run one at a time) never counts a movement twice.
 * Movement ids are `<opId>.<n>`, so a replay skips the ones already written.
 */
export async function writeMovements(store: Store, movements: readonly PlannedMovement[], operation: OperationRef, at: string, opId: string, options: { replay?: boolean } = {}): Promise<void> {
  if (movements.length === 0) return;
  const docs: Doc[] = movements.map((m, i) => ({
    id: `${opId}.${i}`, key: balanceId(m), material: m.material, batch: m.batch, deposit: m.deposit, quantity: m.quantity,
    ...(m.unit !== undefined ? { unit: m.unit } : {}), operation: { ...operation }, at,
  }));
  const written = options.replay
    ? new Set((await store.find(MOVEMENTS, { filter: { id: { $in: docs.map((d) => d.id as string) } }, projection: { id: 1 } })).map((d) => d.id))
    : new Set<string>();
  const fresh = docs.filter((d) => !written.has(d.id as string));
  if (fresh.length) await store.insertMany(MOVEMENTS, fresh);

  const delta = new Map<string, { m: PlannedMovement; q: number }>();
  for (const m of movements) {
    const key = balanceId(m);
    const d = delta.get(key);
    if (d) d.q += m.quantity; else delta.set(key, { m, q: m.quantity });
  }
  const current = new Map((await store.find(BALANCES, { filter: { id: { $in: [...delta.keys()] } } })).map((b) => [b.id, b]));
  const next: Doc[] = [];
  for (const [id, { m, q }] of delta) {
    const b = current.get(id);
    if (b?.lastOp === opId) continue;
    const unit = b?.unit ?? m.unit;
    next.push({ id, material: m.material, batch: m.batch, deposit: m.deposit, quantity: roundQuantity(Number(b?.quantity ?? 0) + q), ...(unit !== undefined ? { unit } : {}), lastOp: opId });
  }
  if (next.length) await store.upsertMany(BALANCES, ['id'], next);
  await refreshBatches(store, movements.map((m) => m.batch));
}

/**
 * Applies movements all or nothing: refused as a whole when a balance would go negative.
 * Call it inside store.transaction (or a section no other ledger write runs in).
 */
export async function applyMovements(tx: Store, movements: readonly PlannedMovement[], operation: OperationRef, at: string, opId: string): Promise<void> {
  await checkMovements(tx, movements);
  await writeMovements(tx, movements, operation, at, opId);
}
