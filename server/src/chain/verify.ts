import type { Doc, Filter, Store, StoredDoc } from '../store/types';
import { CHAIN_ENTRY, GENESIS, entryHash, posRange, type ChainEntry } from './append';
import { eventHash } from './canonical';
import { merkleRoot } from './merkle';
import { activeAccount, EPCIS_EVENTS, IBC_EVENTS, TRUE_BULK_WORKFLOWS, type ChainAccount, type ChainKind, type ChainSettings } from './settings';

export const CHAIN_ANCHOR = 'chain_anchor';

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
  collection?: string;
  eventId?: string;
  anchor?: { id: string; fromSeq: number; toSeq: number; txHash?: string };
}

export interface AccountReport extends ChainAccount {
  /** Whether new events are chained here (the deployment's environment). */
  active: boolean;
  entries: number;
  /** The last seq an anchoring covers (0: none). */
  anchoredThrough: number;
  ok: boolean;
  problem?: ChainProblem;
}

export interface VerifyReport { ok: boolean; checkedAt: string; durationMs: number; accounts: AccountReport[] }

/** Entries a page; also the events looked up at once ($in takes 5,000 values at most). */
const PAGE = 5_000;

/** The event collections and filters that make up one kind's events. */
export function kindSources(kind: ChainKind): { collection: string; filter: Filter }[] {
  return kind === 'ibc'
    ? [{ collection: IBC_EVENTS, filter: {} }]
    : EPCIS_EVENTS.map((collection) => ({ collection, filter: { 'operation.workflow': { $in: [...TRUE_BULK_WORKFLOWS] } } }));
}

/** Walks every account's chain and the events it names; each account's first problem, named. */
export async function verifyChains(store: Store, s: ChainSettings, now = () => new Date()): Promise<VerifyReport> {
  const t0 = Date.now();
  const accounts: AccountReport[] = [];
  const found = new Map<ChainKind, number>();
  for (const a of s.accounts) {
    const walk = await walkAccount(store, a);
    found.set(a.kind, (found.get(a.kind) ?? 0) + walk.found);
    accounts.push({ ...a, active: a.account === activeAccount(s, a.kind), entries: walk.entries, anchoredThrough: walk.anchoredThrough, ok: !walk.problem, ...(walk.problem ? { problem: walk.problem } : {}) });
  }
  for (const kind of new Set(s.accounts.map((a) => a.kind))) {
    const report = accounts.find((r) => r.kind === kind && r.active)!;
    if (report.problem) continue;
    const problem = await firstUnchained(store, s, kind, found.get(kind) ?? 0);
    if (problem) Object.assign(report, { ok: false, problem });
  }
  return { ok: accounts.every((a) => a.ok), checkedAt: now().toISOString(), durationMs: Date.now() - t0, accounts };
}

interface Anchor { id: string; fromSeq: number; toSeq: number; root: string; txHash?: string }

/** One account's entries in seq order, their events, and its anchored roots. */
async function walkAccount(store: Store, a: ChainAccount): Promise<{ entries: number; found: number; anchoredThrough: number; problem?: ChainProblem }> {
  const anchors = (await store.find(CHAIN_ANCHOR, { filter: { account: a.account, status: 'anchored' }, sort: { fromSeq: 1 } })) as unknown as Anchor[];
  let problem: ChainProblem | undefined;
  const flag = (p: ChainProblem) => { problem ??= p; };
  let expected = 1;
  let prev = GENESIS;
  let entries = 0;
  let found = 0;
  let anchor = 0;
  let leaves: string[] = [];
  const { start, end } = posRange(a.account);
  let range: Filter = { $gte: start, $lt: end };
  for (;;) {
    const page = (await store.find(CHAIN_ENTRY, { filter: { pos: range }, sort: { pos: 1 }, limit: PAGE })) as unknown as ChainEntry[];
    if (page.length === 0) break;
    range = { $gt: page[page.length - 1].pos, $lt: end };
    const events = await eventsOf(store, page);
    for (const e of page) {
      entries++;
      // Where the entry stands; its seq, account and links must agree with that place.
      const at = Number(e.pos.slice(start.length));
      const named = { seq: at, collection: e.collection, eventId: e.eventId };
      if (at !== expected) flag({ type: 'gap', message: `entry ${expected} is missing: the next one is ${at}`, ...named });
      else if (e.seq !== at || e.account !== a.account || e.prev !== prev || entryHash(e) !== e.hash) flag({ type: 'reordered', message: `entry ${at} is not the one chained after entry ${at - 1}`, ...named });
      const ev = events.get(e.collection)?.get(e.eventId);
      if (!ev) flag({ type: 'removed', message: `the event of entry ${e.seq} is gone`, ...named });
      else {
        found++;
        if (!problem && eventHash(ev) !== e.eventHash) flag({ type: 'altered', message: `the event of entry ${e.seq} was changed after it was chained`, ...named });
      }
      expected = at + 1;
      prev = e.hash;
      while (anchor < anchors.length && anchors[anchor].toSeq < at) anchor++;
      const an = anchors[anchor];
      if (an && at >= an.fromSeq) {
        leaves.push(e.hash);
        if (at === an.toSeq) {
          if (leaves.length !== an.toSeq - an.fromSeq + 1 || merkleRoot(leaves) !== an.root) flag(anchorProblem(an));
          leaves = [];
          anchor++;
        }
      }
    }
  }
  // An anchored range whose last entries are gone.
  if (anchor < anchors.length && anchors[anchor].toSeq >= expected) flag(anchorProblem(anchors[anchor]));
  return { entries, found, anchoredThrough: anchors.length ? anchors[anchors.length - 1].toSeq : 0, ...(problem ? { problem } : {}) };
}

function anchorProblem(an: Anchor): ChainProblem {
  return {
    type: 'anchorMismatch', message: `entries ${an.fromSeq}–${an.toSeq} no longer give the root anchored${an.txHash ? ` in ${an.txHash}` : ''}`,
    seq: an.fromSeq, anchor: { id: an.id, fromSeq: an.fromSeq, toSeq: an.toSeq, ...(an.txHash ? { txHash: an.txHash } : {}) },
  };
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

/**
 * The first event of the kind (in id order, which is time order) that no entry names, when
 * there are more events than chained ones still there. Costs a walk only when one exists.
 */
async function firstUnchained(store: Store, s: ChainSettings, kind: ChainKind, chainedFound: number): Promise<ChainProblem | undefined> {
  const sources = kindSources(kind);
  let total = 0;
  for (const src of sources) total += await store.count(src.collection, src.filter);
  if (total <= chainedFound) return undefined;
  const mine = s.accounts.filter((a) => a.kind === kind).map((a) => a.account);
  for (const src of sources) {
    const chained = new Set<string>();
    let after: Doc | undefined;
    for (;;) {
      const page = await store.find(CHAIN_ENTRY, { filter: { account: { $in: mine }, collection: src.collection }, sort: { id: 1 }, limit: PAGE, projection: { eventId: 1 }, ...(after ? { after } : {}) });
      if (page.length === 0) break;
      after = { id: page[page.length - 1].id };
      for (const e of page) chained.add(e.eventId as string);
    }
    after = undefined;
    for (;;) {
      const page = await store.find(src.collection, { filter: src.filter, sort: { id: 1 }, limit: PAGE, projection: { id: 1 }, ...(after ? { after } : {}) });
      if (page.length === 0) break;
      after = { id: page[page.length - 1].id };
      const loose = page.find((d) => !chained.has(d.id));
      if (loose) return { type: 'unchained', message: `the event ${loose.id} of ${src.collection} is in no chain`, collection: src.collection, eventId: loose.id };
    }
  }
  return undefined;
}
