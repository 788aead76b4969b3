import type { CollectionSpec, Doc, Store, StoredDoc } from '../store/types';
import { buildOnce, markBuilt } from '../summaryMarks';
import { BALANCES } from './ledger';

/**
 * One document per batch number with stock: what the stock reports show of it when they look at
 * every deposit, so a page reads a few of these instead of grouping every balance. `id` is the
 * batch; `quantity` its stock over the deposits holding some (`depositCount`); `deposit`,
 * `amount`, `material` and `unit` are those of the balance holding most (ties: the lowest balance
 * id, the order the reports' balance pipeline takes `$first` in); the dates are that material's
 * lot's. Recomputed from the balances in the write that changes them, so it is as transactional
 * as they are, and as idempotent: a replay computes the same document.
 */
export const BATCH_STOCK = 'stock_batch';
const PAGE = 20_000;

/**
 * Every document holds stock (a batch without any is deleted), so no index on quantity: one
 * would draw the embedded store's planner away from walking the expiration date's index for the
 * reports' default sort.
 */
export const BATCH_STOCK_COLLECTION: CollectionSpec = { name: BATCH_STOCK, uniqueKeys: [], indexes: ['material', 'expirationDate'] };

const byQuantityThenId = (a: StoredDoc, b: StoredDoc) => Number(b.quantity) - Number(a.quantity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A batch's document from its balances above 0 (at least one) and the lots of its number. */
function batchDoc(batch: string, held: StoredDoc[], lots: readonly StoredDoc[]): Doc {
  const top = held.sort(byQuantityThenId)[0];
  const lot = lots.find((l) => l.material === top.material);
  const quantity = held.reduce((n, b) => n + Number(b.quantity), 0);
  const pick = (o: Record<string, unknown> | undefined, ...keys: string[]) => Object.fromEntries(keys.filter((k) => o?.[k] !== undefined && o?.[k] !== null).map((k) => [k, o![k]]));
  return {
    id: batch, batch, material: top.material, deposit: top.deposit, amount: top.quantity, quantity, depositCount: held.length,
    ...pick(top, 'unit'), ...pick(lot, 'elaborationDate', 'expirationDate'),
  } as Doc;
}

/** Recomputes the documents of these batches from their balances and lots: written, or deleted when none holds stock. */
export async function refreshBatches(store: Store, batches: readonly string[]): Promise<void> {
  const wanted = [...new Set(batches)];
  for (let i = 0; i < wanted.length; i += 500) {
    const slice = wanted.slice(i, i + 500);
    const [balances, lots] = await Promise.all([
      store.find(BALANCES, { filter: { batch: { $in: slice }, quantity: { $gt: 0 } } }),
      store.find('lot', { filter: { number: { $in: slice } }, sort: { id: 1 }, projection: { material: 1, number: 1, elaborationDate: 1, expirationDate: 1 } }),
    ]);
    const docs: Doc[] = [];
    for (const batch of slice) {
      const held = balances.filter((b) => b.batch === batch);
      if (held.length) docs.push(batchDoc(batch, held, lots.filter((l) => l.number === batch)));
      else await store.delete(BATCH_STOCK, batch);
    }
    if (docs.length) await store.upsertMany(BATCH_STOCK, ['id'], docs);
  }
}

/** Replaces every batch document with one computed from the balances. Run alone (boot, a bulk fill). */
export async function rebuildBatchStock(store: Store): Promise<void> {
  const stale = (await store.find(BATCH_STOCK, { projection: { id: 1 } })).map((d) => d.id);
  for (const id of stale) await store.delete(BATCH_STOCK, id);
  const batches = new Set<string>();
  let after: Doc | undefined;
  for (;;) {
    const page = await store.find(BALANCES, { filter: { quantity: { $gt: 0 } }, sort: { id: 1 }, limit: PAGE, projection: { batch: 1 }, ...(after ? { after } : {}) });
    for (const b of page) if (typeof b.batch === 'string') batches.add(b.batch);
    if (page.length < PAGE) break;
    after = { id: page[page.length - 1].id };
  }
  await refreshBatches(store, [...batches]);
  await markBuilt(store, BATCH_STOCK);
}

/** Builds the batch documents once on a store that has balances from before them; a store that has them is left alone. */
export async function ensureBatchStock(store: Store): Promise<void> {
  await store.ensureCollection(BATCH_STOCK_COLLECTION);
  await buildOnce(store, BATCH_STOCK, () => rebuildBatchStock(store));
}
