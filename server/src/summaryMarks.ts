import type { Store } from './store/types';

/** One document per stored summary built from the data it sums (ibc/tally.ts, ledger/batchStock.ts): its presence says it was. */
const MARKS = 'summary_built';

/**
 * Runs `build` once per store: on a store written before the summary existed (a deployment's
 * upgrade) it builds it from the data, then every write keeps it. A store that has it is left alone.
 */
export async function buildOnce(store: Store, name: string, build: () => Promise<void>): Promise<void> {
  await store.ensureCollection({ name: MARKS, uniqueKeys: [], indexes: [] });
  if (await store.get(MARKS, name)) return;
  await build();
  await markBuilt(store, name);
}

/** Records that `name` was built from the data as it stands (a rebuild after a bulk fill). */
export async function markBuilt(store: Store, name: string): Promise<void> {
  await store.upsertMany(MARKS, ['id'], [{ id: name, built: true }]);
}

/** Forgets that `name` was built: the next boot builds it again (tests of an upgrade). */
export async function forgetBuilt(store: Store, name: string): Promise<void> {
  await store.delete(MARKS, name);
}
