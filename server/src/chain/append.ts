import { isStoreError, type CollectionSpec, type Doc, type Store } from '../store/types';
import { canonicalJson, eventHash, sha256 } from './canonical';

export const CHAIN_ENTRY = 'chain_entry';
/** The previous hash of an account's first entry. */
export const GENESIS = '0'.repeat(64);

/**
 * One link: the event it names (collection and id) and that event's hash, the previous entry's
 * hash, and its own. (account, seq) is unique, so two writers that read the same head cannot
 * both append after it: the second fails and appends after the first. (collection, eventId) is
 * unique, so an event is chained once, whoever replays its transition.
 */
export const CHAIN_ENTRY_COLLECTION: CollectionSpec = {
  name: CHAIN_ENTRY,
  uniqueKeys: [['account', 'seq'], ['collection', 'eventId']],
  indexes: ['at'],
};

export interface ChainEntry {
  id: string;
  account: string;
  seq: number;
  collection: string;
  eventId: string;
  eventHash: string;
  prev: string;
  hash: string;
  at: string;
}

/** The hash an entry carries: everything it says but the hash itself, canonical. */
export function entryHash(e: Omit<ChainEntry, 'id' | 'hash' | 'at'>): string {
  return sha256(canonicalJson({ account: e.account, seq: e.seq, collection: e.collection, eventId: e.eventId, eventHash: e.eventHash, prev: e.prev }));
}

export interface Chainable { account: string; collection: string; doc: Doc }

const MAX_RACES = 50;

/**
 * Appends the events to their accounts' chains, in the order given, on the store the events were
 * written with (the transition's transaction, or its journaled step): an event already chained
 * (a replay) is skipped. Losing a race for a seq re-reads the head and tries again.
 */
export async function appendToChain(store: Store, items: readonly Chainable[], at: string): Promise<void> {
  const byAccount = new Map<string, Chainable[]>();
  for (const it of items) byAccount.set(it.account, [...(byAccount.get(it.account) ?? []), it]);
  for (const [account, list] of byAccount) {
    for (let race = 0; ; race++) {
      const fresh = await unchained(store, list);
      if (fresh.length === 0) break;
      try {
        await store.insertMany(CHAIN_ENTRY, await linked(store, account, fresh, at));
        break;
      } catch (e) {
        if (!isStoreError(e, 'DUPLICATE_KEY') || race >= MAX_RACES) throw e;
      }
    }
  }
}

/** The items whose events no entry names yet. */
async function unchained(store: Store, list: Chainable[]): Promise<Chainable[]> {
  const out: Chainable[] = [];
  for (const collection of new Set(list.map((i) => i.collection))) {
    const mine = list.filter((i) => i.collection === collection);
    const have = new Set((await store.find(CHAIN_ENTRY, { filter: { collection, eventId: { $in: mine.map((i) => i.doc.id as string) } }, projection: { eventId: 1 } })).map((d) => d.eventId));
    out.push(...mine.filter((i) => !have.has(i.doc.id as string)));
  }
  return list.filter((i) => out.includes(i));
}

/** The entries after the account's current head. */
async function linked(store: Store, account: string, list: Chainable[], at: string): Promise<Doc[]> {
  const [head] = await store.find(CHAIN_ENTRY, { filter: { account }, sort: { seq: -1 }, limit: 1, projection: { seq: 1, hash: 1 } });
  let seq = head ? (head.seq as number) : 0;
  let prev = head ? (head.hash as string) : GENESIS;
  return list.map((it) => {
    const body = { account, seq: ++seq, collection: it.collection, eventId: it.doc.id as string, eventHash: eventHash(it.doc), prev };
    prev = entryHash(body);
    return { ...body, hash: prev, at } as Doc;
  });
}
