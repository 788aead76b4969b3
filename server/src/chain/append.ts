import { isStoreError, type CollectionSpec, type Doc, type Store } from '../store/types';
import { canonicalJson, eventHash, sha256 } from './canonical';

export const CHAIN_ENTRY = 'chain_entry';
/** The previous hash of an account's first entry. */
export const GENESIS = '0'.repeat(64);

/**
 * One link: the event it names (collection and id) and that event's hash, the previous entry's
 * hash, and its own. `pos` (posOf: the account and the seq, in one sortable string) is unique,
 * so two writers that read the same head cannot both append after it: the second fails and
 * appends after the first. It is one path rather than the pair (account, seq) because a single
 * unique path is what both stores read in order without a sort: an account's head is one index
 * probe, its chain a range scan. (collection, eventId) is unique, so an event is chained once,
 * whoever replays its transition.
 */
export const CHAIN_ENTRY_COLLECTION: CollectionSpec = {
  name: CHAIN_ENTRY,
  uniqueKeys: [['pos'], ['collection', 'eventId']],
  indexes: ['at'],
};

/** Account names hold no `|`: the separator keeps one account's range apart from any other's. */
export const POS_SEPARATOR = '|';
/** An entry's place: `account|seq`, the seq zero-padded to 12 digits so text order is seq order. */
export const posOf = (account: string, seq: number): string => `${account}${POS_SEPARATOR}${String(seq).padStart(12, '0')}`;
/** Every pos of an account lies in [start, end). */
export const posRange = (account: string) => ({ start: `${account}${POS_SEPARATOR}`, end: `${account}${String.fromCharCode(POS_SEPARATOR.charCodeAt(0) + 1)}` });

export interface ChainEntry {
  id: string;
  pos: string;
  account: string;
  seq: number;
  collection: string;
  eventId: string;
  eventHash: string;
  prev: string;
  hash: string;
  at: string;
}

/**
 * The hash an entry carries: the canonical JSON of what it says (account, collection, eventHash,
 * eventId, prev, seq), written out in that order (the canonical one) since a verify does it a
 * million times.
 */
export function entryHash(e: Pick<ChainEntry, 'account' | 'seq' | 'collection' | 'eventId' | 'eventHash' | 'prev'>): string {
  return sha256(`{"account":${JSON.stringify(e.account)},"collection":${JSON.stringify(e.collection)},"eventHash":${JSON.stringify(e.eventHash)},"eventId":${JSON.stringify(e.eventId)},"prev":${JSON.stringify(e.prev)},"seq":${canonicalJson(e.seq)}}`);
}

/** The account's last entry (its seq and hash), or null for an empty chain. */
export async function headOf(store: Store, account: string): Promise<{ seq: number; hash: string } | null> {
  const { start, end } = posRange(account);
  const [head] = await store.find(CHAIN_ENTRY, { filter: { pos: { $gte: start, $lt: end } }, sort: { pos: -1 }, limit: 1, projection: { seq: 1, hash: 1 } });
  return head ? { seq: head.seq as number, hash: head.hash as string } : null;
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
  const head = await headOf(store, account);
  let seq = head?.seq ?? 0;
  let prev = head?.hash ?? GENESIS;
  return list.map((it) => {
    const body = { account, seq: ++seq, collection: it.collection, eventId: it.doc.id as string, eventHash: eventHash(it.doc), prev };
    prev = entryHash(body);
    return { pos: posOf(account, seq), ...body, hash: prev, at } as Doc;
  });
}
