import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Doc, Filter, Projection, Store, StoredDoc } from './store/types';

const PAGE = 2_000;

/**
 * One `alert` per document of `coll` matching `filter`, made by `alertOf` with the id `idOf`
 * gives (naming what it is about), inserted only when no alert has that id yet: a background
 * pass run again raises nothing twice. Reads a page at a time, and lets the event loop turn
 * between pages: the embedded store answers synchronously, so a pass over many pages would
 * otherwise hold the server's thread (requests, timers) for all of them. An alert is made only
 * when its id is new: its texts in every language are most of a pass's work, and a pass every
 * minute over 90,000 overdue jobs made them all to keep none (2.7 s of CPU a pass).
 * Returns how many alerts were new.
 */
export async function raiseOnce(store: Store, coll: string, query: { filter: Filter; projection?: Projection }, now: Date, idOf: (doc: StoredDoc) => string, alertOf: (doc: StoredDoc) => Doc): Promise<number> {
  const at = now.toISOString();
  let raised = 0;
  let after: Doc | undefined;
  for (;;) {
    const page = await store.find(coll, { ...query, sort: { id: 1 }, limit: PAGE, ...(after ? { after } : {}) });
    const ids = page.map(idOf);
    const have = new Set((await store.find('alert', { filter: { id: { $in: ids } }, projection: { id: 1 } })).map((a) => a.id));
    const fresh = page.flatMap((doc, i) => (have.has(ids[i]) ? [] : [{ ...alertOf(doc), id: ids[i], timestamp: at, read: false, createdAt: at, createdBy: 'system', state: 1 } as Doc]));
    if (fresh.length) await store.insertMany('alert', fresh);
    raised += fresh.length;
    if (page.length < PAGE) return raised;
    after = { id: page[page.length - 1].id };
    await nextTurn();
  }
}
