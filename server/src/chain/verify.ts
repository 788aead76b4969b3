import { availableParallelism } from 'node:os';
import type { Doc, Filter, Store } from '../store/types';
import { startThread, threadModule } from '../threads';
import { CHAIN_ENTRY, GENESIS, headOf } from './append';
import { merkleRootOf } from './merkle';
import { activeAccount, EPCIS_EVENTS, IBC_EVENTS, TRUE_BULK_WORKFLOWS, type ChainAccount, type ChainKind, type ChainSettings } from './settings';
import { gap, reordered, walkSlice, type ChainProblem, type SliceResult } from './walk';

export type { ChainProblem, ProblemType } from './walk';

export const CHAIN_ANCHOR = 'chain_anchor';

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

/** Pages of the unchained walk. */
/** The thread walking one part of a long chain. */
const VERIFY_WORKER = threadModule(new URL('./verifyWorker.ts', import.meta.url));

const PAGE = 5_000;

export interface VerifyOptions {
  /** The embedded store's directory: a long chain is then walked in parts on threads, each with a read-only connection of its own. */
  dataDir?: string;
  /** Chains this long or longer are walked in parts (default 100,000). */
  parallelFrom?: number;
  /**
   * How many parts (default: one a core). At a million events on the 2-core bench machine, two
   * threads took 6.2–7.7 s where one walk took 11.0–13.3 s while its disk was quiet
   * (scripts/bench/chain.ts prints both; docs/chain.md, Speed); under other load two threads
   * have been slower than one.
   */
  parts?: number;
  now?: () => Date;
}

/** The event collections and filters that make up one kind's events. */
export function kindSources(kind: ChainKind): { collection: string; filter: Filter }[] {
  return kind === 'ibc'
    ? [{ collection: IBC_EVENTS, filter: {} }]
    : EPCIS_EVENTS.map((collection) => ({ collection, filter: { 'operation.workflow': { $in: [...TRUE_BULK_WORKFLOWS] } } }));
}

/** Walks every account's chain and the events it names; each account's first problem, named. */
export async function verifyChains(store: Store, s: ChainSettings, o: VerifyOptions = {}): Promise<VerifyReport> {
  const t0 = Date.now();
  const accounts: AccountReport[] = [];
  const found = new Map<ChainKind, number>();
  for (const a of s.accounts) {
    const walk = await walkAccount(store, a, o);
    found.set(a.kind, (found.get(a.kind) ?? 0) + walk.found);
    accounts.push({ ...a, active: a.account === activeAccount(s, a.kind), entries: walk.entries, anchoredThrough: walk.anchoredThrough, ok: !walk.problem, ...(walk.problem ? { problem: walk.problem } : {}) });
  }
  for (const kind of new Set(s.accounts.map((a) => a.kind))) {
    const report = accounts.find((r) => r.kind === kind && r.active)!;
    if (report.problem) continue;
    const problem = await firstUnchained(store, s, kind, found.get(kind) ?? 0);
    if (problem) Object.assign(report, { ok: false, problem });
  }
  return { ok: accounts.every((a) => a.ok), checkedAt: (o.now ?? (() => new Date()))().toISOString(), durationMs: Date.now() - t0, accounts };
}

interface Anchor { id: string; fromSeq: number; toSeq: number; root: string; txHash?: string }

/**
 * One account's chain: walked in one part, or for a long chain on the embedded store in
 * several parts at once on threads; the parts joined (each part's first entry must follow the
 * previous part's last), then every anchored root recomputed from the entries' hashes. The
 * problem reported is the first one a walk in seq order meets.
 */
async function walkAccount(store: Store, a: ChainAccount, o: VerifyOptions): Promise<{ entries: number; found: number; anchoredThrough: number; problem?: ChainProblem }> {
  const anchors = (await store.find(CHAIN_ANCHOR, { filter: { account: a.account, status: 'anchored' }, sort: { fromSeq: 1 } })) as unknown as Anchor[];
  const head = await headOf(store, a.account);
  const n = Math.max(1, Math.min(o.parts ?? availableParallelism(), availableParallelism() * 2, 64));
  const split = o.dataDir && store.kind === 'embedded' && head && head.seq >= (o.parallelFrom ?? 100_000) && n > 1;
  const parts = split
    ? await Promise.all(Array.from({ length: n }, (_, i) => {
      const size = Math.ceil(head.seq / n);
      return walkOnThread(o.dataDir!, a.account, i * size + 1, i === n - 1 ? Infinity : (i + 1) * size);
    }))
    : [await walkSlice(store, a.account, 1, Infinity)];
  // Each problem with where a walk in seq order meets it (a gap: at the first seq missing).
  const met: { at: number; problem: ChainProblem }[] = [];
  let expected = 1;
  let prev = GENESIS;
  let entries = 0;
  let found = 0;
  for (const p of parts) {
    entries += p.entries;
    found += p.found;
    if (!p.first || !p.last) continue;
    const named = { seq: p.first.seq, collection: p.first.collection, eventId: p.first.eventId };
    if (p.first.seq !== expected) met.push({ at: expected, problem: gap(expected, named) });
    else if (p.first.prev !== prev) met.push({ at: p.first.seq, problem: reordered(p.first.seq, named) });
    if (p.problem) met.push({ at: p.problem.missing ?? p.problem.seq ?? p.first.seq, problem: p.problem });
    expected = p.last.seq + 1;
    prev = p.last.hash;
  }
  const firstAt = () => Math.min(Infinity, ...met.map((m) => m.at));
  // The anchored roots, over entries contiguous from 1 (a gap is met before any range it cuts).
  const hashes = joined(parts.map((p) => p.hashes));
  for (const an of anchors) {
    // A record that cannot be a range of this chain (written by hand, or damaged) is a mismatch, not a crash.
    const range = Number.isInteger(an.fromSeq) && Number.isInteger(an.toSeq) && an.fromSeq >= 1 && an.toSeq >= an.fromSeq;
    if (!range) {
      met.push({ at: Number.isInteger(an.fromSeq) && an.fromSeq >= 1 ? an.fromSeq : 1, problem: anchorProblem(an) });
      break;
    }
    if (an.toSeq >= firstAt()) break;
    if (an.toSeq >= expected || merkleRootOf(hashes, an.fromSeq - 1, an.toSeq - an.fromSeq + 1) !== an.root) {
      met.push({ at: Math.min(an.toSeq, expected), problem: anchorProblem(an) });
      break;
    }
  }
  met.sort((x, y) => x.at - y.at);
  return { entries, found, anchoredThrough: anchors.length ? anchors[anchors.length - 1].toSeq : 0, ...(met.length ? { problem: met[0].problem } : {}) };
}

function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** walkSlice on a thread of its own (verifyWorker.ts). */
function walkOnThread(dataDir: string, account: string, fromSeq: number, toSeq: number): Promise<SliceResult> {
  return new Promise((resolve, reject) => {
    // A young generation larger than the default: the walk makes two short-lived documents an entry, and scavenges were a fifth of its time.
    const w = startThread(VERIFY_WORKER, { workerData: { dataDir, account, fromSeq, toSeq }, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
    w.once('message', (m: { result?: SliceResult; error?: string }) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`a verify thread stopped (${code})`)));
  });
}

function anchorProblem(an: Anchor): ChainProblem {
  return {
    type: 'anchorMismatch', message: `entries ${an.fromSeq}–${an.toSeq} no longer give the root anchored${an.txHash ? ` in ${an.txHash}` : ''}`,
    seq: an.fromSeq, anchor: { id: an.id, fromSeq: an.fromSeq, toSeq: an.toSeq, ...(an.txHash ? { txHash: an.txHash } : {}) },
  };
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
