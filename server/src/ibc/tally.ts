import type { CollectionSpec, Doc, Store } from '../store/types';
import { days } from './measures';
import { buildOnce, markBuilt } from '../summaryMarks';
import { IBC_EVENT, tallyRow, type CustomerTally } from './summary';

/**
 * One document per customer: its IBC tally (summary.ts) with the figures the top tens sort on,
 * kept as the log is written, in the transition's own transaction (writeTransition), so a report
 * reads current figures without folding the log. `id` is the customer (a company id).
 */
export const CUSTOMER_TALLY = 'ibc_customer_tally';
const PAGE = 20_000;

export const CUSTOMER_TALLY_COLLECTION: CollectionSpec = { name: CUSTOMER_TALLY, uniqueKeys: [], indexes: ['ibcToReturn', 'avgReturnTime'] };

/** A customer's stored tally: the sums, and what the reports sort on (holdings' own rounding). */
function tallyDoc(customer: string, t: CustomerTally, lastOp: string): Doc {
  return {
    id: customer, customer, taken: t.taken, returned: t.returned, returnMs: t.returnMs, timedReturns: t.timedReturns,
    ibcToReturn: t.taken - t.returned, avgReturnTime: days(t.returnMs, t.timedReturns), lastOp,
  };
}

/**
 * Adds an operation's log rows to their customers' tallies. Idempotent for one `opId`, as the
 * ledger's balances are: a tally remembers the last operation added, so a journaled transition
 * replayed after a crash (stores without transactions) never counts its rows twice.
 */
export async function addToTallies(store: Store, logs: readonly { entity: string; doc: Doc }[], opId: string): Promise<void> {
  const delta: Record<string, CustomerTally> = {};
  for (const l of logs) if (l.entity === IBC_EVENT) tallyRow(delta, l.doc);
  const customers = Object.keys(delta);
  if (customers.length === 0) return;
  const stored = new Map((await store.find(CUSTOMER_TALLY, { filter: { id: { $in: customers } } })).map((d) => [d.id, d]));
  const next: Doc[] = [];
  for (const c of customers) {
    const was = stored.get(c);
    if (was?.lastOp === opId) continue;
    const d = delta[c];
    const sum = (k: keyof CustomerTally) => Number(was?.[k] ?? 0) + d[k];
    next.push(tallyDoc(c, { taken: sum('taken'), returned: sum('returned'), returnMs: sum('returnMs'), timedReturns: sum('timedReturns') }, opId));
  }
  if (next.length) await store.upsertMany(CUSTOMER_TALLY, ['id'], next);
}

/** Every customer's tally folded from the whole log, a page at a time. */
export async function foldTallies(store: Store): Promise<Record<string, CustomerTally>> {
  const customers: Record<string, CustomerTally> = {};
  let after: Doc | undefined;
  for (;;) {
    const page = await store.find(IBC_EVENT, {
      filter: { transition: { $in: ['receive', 'return'] } }, sort: { id: 1 }, limit: PAGE,
      projection: { transition: 1, from: 1, at: 1, customer: 1, customerSince: 1 }, ...(after ? { after } : {}),
    });
    for (const r of page) tallyRow(customers, r);
    if (page.length < PAGE) return customers;
    after = { id: page[page.length - 1].id };
  }
}

/** Replaces the stored tallies with a fold of the whole log. Run alone (boot, a bulk fill): no transition may write meanwhile. */
export async function rebuildCustomerTallies(store: Store): Promise<void> {
  const customers = await foldTallies(store);
  const stale = (await store.find(CUSTOMER_TALLY, { projection: { id: 1 } })).filter((d) => !Object.hasOwn(customers, d.id));
  for (const d of stale) await store.delete(CUSTOMER_TALLY, d.id);
  const docs = Object.entries(customers).map(([c, t]) => tallyDoc(c, t, ''));
  for (let i = 0; i < docs.length; i += PAGE) await store.upsertMany(CUSTOMER_TALLY, ['id'], docs.slice(i, i + PAGE));
  await markBuilt(store, CUSTOMER_TALLY);
}

/**
 * Builds the tallies once on a store that has none yet (a deployment older than them): from then
 * on every transition keeps them. Idempotent: a store that has them is left alone.
 */
export async function ensureCustomerTallies(store: Store): Promise<void> {
  await store.ensureCollection(CUSTOMER_TALLY_COLLECTION);
  await buildOnce(store, CUSTOMER_TALLY, () => rebuildCustomerTallies(store));
}
