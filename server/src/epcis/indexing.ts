/**
 * Keeping the headers and identifier rows (model.ts) in step with the events the platform
 * stores in its entity collections: written in the same store step as the events by workflow
 * transitions (workflows/apply.ts) and CSV imports (imports/apply.ts), and built once at boot
 * for a store whose events predate them (summaryMarks.ts). Every write is idempotent (fixed
 * ids, missing ones only), so a journaled transition replayed after a crash indexes once.
 */
import type { Doc, Store } from '../store/types';
import { buildOnce, markBuilt } from '../summaryMarks';
import { EPCIS_COLLECTIONS, EPCIS_EVENTS, EPCIS_IDS, SOURCE_COLLECTIONS, identifierRows, indexOfRow, rowKey } from './model';

const PAGE = 5_000;
const MARK = 'epcis_index';

export const isEventCollection = (coll: string) => (SOURCE_COLLECTIONS as readonly string[]).includes(coll);

/** Inserts the documents whose ids are not there yet (all of them unless `check`). */
async function insertMissing(store: Store, coll: string, docs: Doc[], check: boolean): Promise<void> {
  if (docs.length === 0) return;
  if (!check) return void (await store.insertMany(coll, docs));
  const have = new Set<string>();
  for (let i = 0; i < docs.length; i += 1_000) {
    const ids = docs.slice(i, i + 1_000).map((d) => d.id as string);
    for (const d of await store.find(coll, { filter: { id: { $in: ids } }, projection: { id: 1 } })) have.add(d.id);
  }
  const fresh = docs.filter((d) => !have.has(d.id as string));
  if (fresh.length) await store.insertMany(coll, fresh);
}

/**
 * Indexes rows of an event collection (a row that is no valid EPCIS event is left out). `check`:
 * some may be indexed already (a replay, the boot build racing an import worker's boot).
 */
export async function indexRows(store: Store, coll: string, rows: readonly (Record<string, unknown> & { id: string })[], check = false): Promise<void> {
  if (!isEventCollection(coll) || rows.length === 0) return;
  const headers: Doc[] = [];
  const ids: Doc[] = [];
  for (const row of rows) {
    const index = indexOfRow(coll, row);
    if (!index) continue;
    headers.push(index.header);
    ids.push(...index.ids);
  }
  await insertMissing(store, EPCIS_EVENTS, headers, check);
  await insertMissing(store, EPCIS_IDS, ids, check);
}

/** Forgets rows as they were (an import's update replaces them, an undo deletes them). */
export async function unindexRows(store: Store, coll: string, rows: readonly (Record<string, unknown> & { id: string })[]): Promise<void> {
  if (!isEventCollection(coll)) return;
  for (const row of rows) {
    await store.delete(EPCIS_EVENTS, rowKey(row));
    for (const d of indexOfRow(coll, row)?.ids ?? []) await store.delete(EPCIS_IDS, d.id as string);
  }
}

/** An event's identifier rows, from its header (the captured event it holds). */
export function idsOfHeader(header: Record<string, unknown> & { id: string }): Doc[] {
  return header.epcis && typeof header.epcis === 'object' ? identifierRows(header.id, header.epcis as Record<string, unknown>) : [];
}

/** Indexes every event row already stored, a page at a time. Run alone (boot, a bulk fill). */
export async function rebuildEpcisIndex(store: Store): Promise<void> {
  for (const coll of SOURCE_COLLECTIONS) {
    let after: Doc | undefined;
    for (;;) {
      const page = await store.find(coll, { sort: { id: 1 }, limit: PAGE, ...(after ? { after } : {}) });
      await indexRows(store, coll, page, true);
      if (page.length < PAGE) break;
      after = { id: page[page.length - 1].id };
    }
  }
  await markBuilt(store, MARK);
}

/** The EPCIS collections, and the index of the events stored before it existed, built once. */
export async function ensureEpcisIndex(store: Store): Promise<void> {
  for (const spec of EPCIS_COLLECTIONS) await store.ensureCollection(spec);
  await buildOnce(store, MARK, () => rebuildEpcisIndex(store));
}

/** An import chunk's event rows (imports/apply.ts): inserted ones indexed, updated ones indexed anew. */
export async function indexImported(store: Store, coll: string, plan: { inserts: { doc: { json: string } }[]; updates: { id: string; before: Record<string, unknown> & { id: string }; doc: Doc }[] }): Promise<void> {
  if (!isEventCollection(coll)) return;
  await indexRows(store, coll, plan.inserts.map((i) => JSON.parse(i.doc.json) as Doc & { id: string }));
  for (const u of plan.updates) {
    await unindexRows(store, coll, [u.before]);
    await indexRows(store, coll, [{ ...u.doc, id: u.id }]);
  }
}

/** An import chunk taken back: its inserted rows forgotten, its updated ones indexed as they are restored. */
export async function unindexUndone(store: Store, coll: string, inserted: readonly string[], updated: readonly (Record<string, unknown> & { id: string })[]): Promise<void> {
  if (!isEventCollection(coll)) return;
  for (const id of [...inserted, ...updated.map((u) => u.id)]) {
    const now = await store.get(coll, id);
    if (now) await unindexRows(store, coll, [now]);
  }
  await indexRows(store, coll, updated, true);
}
