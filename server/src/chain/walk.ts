import type { Filter, Store, StoredDoc } from '../store/types';
import { CHAIN_ENTRY, entryHash, posOf, posRange, type ChainEntry } from './append';
import { eventHash } from './canonical';

/**
 * altered: the event's hash is not the one chained; removed: the entry's event is gone;
 * reordered: an entry is not what was chained after its predecessor (its own hash or its
 * previous hash differs: moved, swapped, edited or inserted); gap: a seq is missing (an entry
 * deleted); unchained: an event of the account's kind that no entry names; anchorMismatch: the
 * entries of an anchored range no longer give the root that was anchored.
 */
export type ProblemType = 'altered' | 'removed' | 'reordered' | 'gap' | 'unchained' | 'anchorMismatch';

export interface ChainProblem {
  type: ProblemType;
  message: string;
  seq?: number;
  /** For a gap: the first seq missing (`seq` is the entry found after it). */
  missing?: number;
  collection?: string;
  eventId?: string;
  anchor?: { id: string; fromSeq: number; toSeq: number; txHash?: string };
}

/** What a walk of part of a chain found; its first entry is checked against what comes before it by whoever joins the parts. */
export interface SliceResult {
  entries: number;
  /** Entries whose event was found. */
  found: number;
  /** The first entry's place and previous hash (null when the part is empty). */
  first: { seq: number; prev: string; collection: string; eventId: string } | null;
  /** The last entry's place and hash. */
  last: { seq: number; hash: string } | null;
  /** The first problem after the first entry's links, or with any entry's event. */
  problem?: ChainProblem;
  /** Every entry's hash, 32 bytes each in seq order, for the anchored roots. */
  hashes: Uint8Array;
}

/** Entries a page; also the events looked up at once ($in takes 5,000 values at most). */
const PAGE = 5_000;

/**
 * Walks an account's entries fromSeq..toSeq (inclusive; Infinity: to the end) in place order
 * with the events they name: each entry's seq, account and hash must agree with its place and
 * what it says, its `prev` with the entry before it, its event's hash with the chained one.
 */
export async function walkSlice(store: Store, account: string, fromSeq: number, toSeq: number): Promise<SliceResult> {
  const { start, end } = posRange(account);
  const stop = toSeq === Infinity ? end : posOf(account, toSeq + 1);
  let problem: ChainProblem | undefined;
  const flag = (p: ChainProblem) => { problem ??= p; };
  let first: SliceResult['first'] = null;
  let last: SliceResult['last'] = null;
  let entries = 0;
  let found = 0;
  const pages: Buffer[] = [];
  let range: Filter = { $gte: posOf(account, fromSeq), $lt: stop };
  for (;;) {
    const page = (await store.find(CHAIN_ENTRY, { filter: { pos: range }, sort: { pos: 1 }, limit: PAGE })) as unknown as ChainEntry[];
    if (page.length === 0) break;
    range = { $gt: page[page.length - 1].pos, $lt: stop };
    const events = await eventsOf(store, page);
    pages.push(Buffer.from(page.map((e) => e.hash).join(''), 'hex'));
    for (const e of page) {
      entries++;
      const at = Number(e.pos.slice(start.length));
      if (!last) first = { seq: at, prev: e.prev, collection: e.collection, eventId: e.eventId };
      else if (at !== last.seq + 1) flag(gap(last.seq + 1, placeOf(at, e)));
      else if (e.prev !== last.hash) flag(reordered(at, placeOf(at, e)));
      if (e.seq !== at || e.account !== account || entryHash(e) !== e.hash) flag(reordered(at, placeOf(at, e)));
      const ev = events.get(e.collection)?.get(e.eventId);
      if (!ev) flag({ type: 'removed', message: `the event of entry ${at} is gone`, ...placeOf(at, e) });
      else {
        found++;
        if (!problem && eventHash(ev) !== e.eventHash) flag({ type: 'altered', message: `the event of entry ${at} was changed after it was chained`, ...placeOf(at, e) });
      }
      last = { seq: at, hash: e.hash };
    }
  }
  return { entries, found, first, last, ...(problem ? { problem } : {}), hashes: new Uint8Array(Buffer.concat(pages)) };
}

/** An entry's place and event, for a problem's message: made only when one is found, not for each of a million entries. */
const placeOf = (at: number, e: ChainEntry) => ({ seq: at, collection: e.collection, eventId: e.eventId });

export function gap(missing: number, named: { seq: number; collection: string; eventId: string }): ChainProblem {
  return { type: 'gap', message: `entry ${missing} is missing: the next one is ${named.seq}`, missing, ...named };
}

export function reordered(at: number, named: { seq: number; collection: string; eventId: string }): ChainProblem {
  return { type: 'reordered', message: `entry ${at} is not the one chained after entry ${at - 1}`, ...named };
}

/** The events a page of entries names, by collection and id. */
async function eventsOf(store: Store, page: ChainEntry[]): Promise<Map<string, Map<string, StoredDoc>>> {
  const out = new Map<string, Map<string, StoredDoc>>();
  for (const collection of new Set(page.map((e) => e.collection))) {
    const ids = page.filter((e) => e.collection === collection).map((e) => e.eventId);
    out.set(collection, new Map((await store.find(collection, { filter: { id: { $in: ids } } })).map((d) => [d.id, d])));
  }
  return out;
}
