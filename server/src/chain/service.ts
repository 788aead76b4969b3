import type { Doc, Filter, Store } from '../store/types';
import type { AnchorAdapter } from './adapter';
import { CHAIN_ENTRY, posOf, posRange } from './append';
import { merkleRoot } from './merkle';
import type { ChainAccount, ChainSettings } from './settings';
import { CHAIN_ANCHOR, verifyChains, type VerifyReport } from './verify';

/** One anchoring as chain_anchor keeps it (the /blockchain-sync-logs rows). */
export interface AnchorRecord {
  id: string;
  account: string;
  kind: string;
  environment: string;
  network: string;
  fromSeq: number;
  toSeq: number;
  entries: number;
  root: string;
  status: 'anchored' | 'failed';
  trigger: 'schedule' | 'demand';
  txHash?: string;
  blockNumber?: number;
  error?: string;
  at: string;
  durationMs: number;
}

const NO_ADAPTER = 'no anchoring service is configured (BLOCKCHAIN_ANCHOR_URL)';
const PAGE = 10_000;

/** The ledger's verify and its anchoring, periodic and on demand. */
export class ChainService {
  private running: Promise<AnchorRecord[]> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    readonly settings: ChainSettings,
    private readonly adapter: AnchorAdapter | null,
    /** dataDir: the embedded store's, so a long chain is verified in parts on threads. */
    private readonly options: { dataDir?: string; clock?: () => Date } = {},
  ) {}

  private readonly clock = () => (this.options.clock ?? (() => new Date()))();

  verify(): Promise<VerifyReport> {
    return verifyChains(this.store, this.settings, { dataDir: this.options.dataDir, now: this.clock });
  }

  /**
   * Anchors every account's entries since its last anchored one; one run at a time in this
   * process (a run asked for while one goes answers that one's records). A failed anchoring is
   * recorded with its error and its range is tried again, longer, next time.
   */
  anchorAll(trigger: AnchorRecord['trigger']): Promise<AnchorRecord[]> {
    this.running ??= (async () => {
      try {
        const out: AnchorRecord[] = [];
        for (const a of this.settings.accounts) {
          const r = await this.anchorAccount(a, trigger);
          if (r) out.push(r);
        }
        return out;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async anchorAccount(a: ChainAccount, trigger: AnchorRecord['trigger']): Promise<AnchorRecord | null> {
    const [last] = await this.store.find(CHAIN_ANCHOR, { filter: { account: a.account, status: 'anchored' }, sort: { toSeq: -1 }, limit: 1, projection: { toSeq: 1 } });
    const fromSeq = last ? (last.toSeq as number) + 1 : 1;
    const hashes: string[] = [];
    let toSeq = 0;
    const { start, end } = posRange(a.account);
    let range: Filter = { $gte: posOf(a.account, fromSeq), $lt: end };
    for (;;) {
      const page = await this.store.find(CHAIN_ENTRY, { filter: { pos: range }, sort: { pos: 1 }, limit: PAGE, projection: { pos: 1, hash: 1 } });
      if (page.length === 0) break;
      range = { $gt: page[page.length - 1].pos as string, $lt: end };
      for (const e of page) hashes.push(e.hash as string);
      toSeq = Number((page[page.length - 1].pos as string).slice(start.length));
    }
    if (hashes.length === 0) return null;
    const request = { account: a.account, network: this.settings.network, fromSeq, toSeq, root: merkleRoot(hashes) };
    const t0 = Date.now();
    const base = { ...request, kind: a.kind, environment: a.environment, entries: hashes.length, trigger };
    let record: Omit<AnchorRecord, 'id'>;
    try {
      if (!this.adapter) throw new Error(NO_ADAPTER);
      const receipt = await this.adapter.anchor(request);
      record = { ...base, status: 'anchored', txHash: receipt.txHash, ...(receipt.blockNumber !== undefined ? { blockNumber: receipt.blockNumber } : {}), at: receipt.at, durationMs: Date.now() - t0 };
    } catch (e) {
      record = { ...base, status: 'failed', error: (e as Error).message.slice(0, 500), at: this.clock().toISOString(), durationMs: Date.now() - t0 };
    }
    return (await this.store.insert(CHAIN_ANCHOR, record as unknown as Doc)) as unknown as AnchorRecord;
  }

  /** Anchors every `anchorIntervalMinutes` (none when 0) until stop(). */
  start(onError: (e: unknown) => void): void {
    const ms = this.settings.anchorIntervalMinutes * 60_000;
    if (ms <= 0 || this.timer) return;
    this.timer = setInterval(() => { void this.anchorAll('schedule').catch(onError); }, ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
