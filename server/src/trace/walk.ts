/**
 * The trace walk over the stock ledger (`stock_movement`): what a lot became and where it went
 * (forward), and what it was made of and where it came from (backward), hop by hop.
 *
 * The unit it walks is a position: a lot (material + batch number) at a deposit, which is the
 * ledger's `key`. An operation touches positions through its movements, all under one
 * `operation.id`: a transformation removes its input lots and adds new lots; a shipment removes
 * a lot at the sender and adds the same lot at the receiver. So from a position, forward means
 * the operations that removed stock from it (on or after the time the trace reached it), and
 * through each to the positions it added; backward the operations that added stock to it (on or
 * before), and through each to the positions it removed. Each hop level is two batched reads on
 * indexed scalar fields (`key`, `operation.id`) whatever the number of positions in it.
 *
 * A deposit the caller may not see is never walked into: the link is counted against the node
 * it leaves from (`beyond`), and nothing of it is kept.
 */

import type { Direction, EdgeKind, TraceEdge } from '../../../engine/src/index';

export interface Movement {
  id: string;
  key: string;
  material: string;
  batch: string;
  deposit: string;
  quantity: number;
  unit?: string;
  at: string;
  operation: { workflow: string; id: string; transition: string };
}

/** What the walk reads: movements by position key and by operation id, each a batch at once. */
export interface LedgerReader {
  byKeys(keys: readonly string[]): Promise<Movement[]>;
  byOperations(ids: readonly string[]): Promise<Movement[]>;
}

export interface WalkLimits {
  /** Hop levels (position → operation → position); the walk stops there and says so. */
  maxDepth: number;
  /** Edges; checked between levels. */
  maxEdges: number;
}

export const lotKey = (m: { material: string; batch: string }): string => `${m.material}|${m.batch}`;
export const lotNode = (material: string, batch: string): string => `lot:${material}|${batch}`;
export const operationNode = (workflow: string, id: string): string => `op:${workflow}:${id}`;
export const depositNode = (id: string): string => `deposit:${id}`;
export const ibcNode = (id: string): string => `ibc:${id}`;

const LATEST = '\uffff';

/** The sum of distinct movements: a movement reached both ways counts once. */
interface EdgeAcc extends TraceEdge {
  movements: Set<string>;
}

export class LedgerWalk {
  private readonly byKey = new Map<string, Movement[]>();
  private readonly byOp = new Map<string, Movement[]>();
  /** Per position, the earliest time it was walked forward from / the latest it was walked backward from. */
  private readonly forwardFrom = new Map<string, string>();
  private readonly backwardFrom = new Map<string, string>();
  private pendingForward = new Map<string, string>();
  private pendingBackward = new Map<string, string>();
  private readonly expanded = new Set<string>();
  private readonly acc = new Map<string, EdgeAcc>();
  /** Per node, the links leaving it for what the caller may not see (distinct operation, lot and deposit). */
  readonly beyond = new Map<string, Set<string>>();
  /** Operations the walk went through, by id. */
  readonly operations = new Map<string, { workflow: string; id: string }>();
  depth = 0;
  truncated: 'depth' | 'size' | null = null;

  constructor(private readonly reader: LedgerReader, private readonly visible: (deposit: string) => boolean, private readonly limits: WalkLimits) {}

  get edges(): TraceEdge[] {
    return [...this.acc.values()].map(({ movements: _, ...e }) => e);
  }

  /** Positions of a lot to start from (its movements, already read): each walked both or one way, from all time. */
  seedPositions(movements: readonly Movement[], direction: Direction): void {
    this.remember(this.byKey, movements, (m) => m.key);
    const positions = new Map(movements.map((m) => [m.key, m]));
    for (const [key, m] of positions) {
      if (!this.visible(m.deposit)) {
        this.leave(lotNode(m.material, m.batch), `${key}`);
        continue;
      }
      if (direction !== 'backward') this.enqueue('forward', key, '');
      if (direction !== 'forward') this.enqueue('backward', key, LATEST);
    }
  }

  /** An operation to start from (a shipment, an IBC's filling or carrying), for all its lots or those named. */
  async seedOperation(opId: string, direction: Direction, lots?: ReadonlySet<string>): Promise<Movement[]> {
    await this.loadOperations([opId]);
    const ms = this.byOp.get(opId) ?? [];
    const inOp = [...new Set(ms.map(lotKey))].filter((l) => !lots || lots.has(l));
    const removed = new Set(ms.filter((m) => m.quantity < 0).map(lotKey));
    if (direction !== 'forward') for (const l of inOp) this.expand('backward', opId, l);
    if (direction !== 'backward') {
      for (const l of inOp.filter((x) => removed.has(x))) this.expand('forward', opId, l);
      // An operation that only adds (an import): what it made is walked on from where it was made.
      if (removed.size === 0) for (const m of ms.filter((x) => inOp.includes(lotKey(x)))) this.produced(opId, m, true);
    }
    return ms;
  }

  /** Walks level by level until nothing is left or a limit is reached. */
  async run(): Promise<void> {
    while (this.pendingForward.size || this.pendingBackward.size) {
      if (this.depth >= this.limits.maxDepth) { this.truncated = 'depth'; return; }
      if (this.acc.size >= this.limits.maxEdges) { this.truncated = 'size'; return; }
      this.depth++;
      const forward = this.pendingForward;
      const backward = this.pendingBackward;
      this.pendingForward = new Map();
      this.pendingBackward = new Map();
      await this.loadKeys([...new Set([...forward.keys(), ...backward.keys()])]);
      const work: ['forward' | 'backward', string, string][] = [];
      for (const [key, since] of forward) {
        for (const m of this.byKey.get(key) ?? []) if (m.quantity < 0 && m.at >= since) work.push(['forward', m.operation.id, lotKey(m)]);
      }
      for (const [key, until] of backward) {
        for (const m of this.byKey.get(key) ?? []) if (m.quantity > 0 && m.at <= until) work.push(['backward', m.operation.id, lotKey(m)]);
      }
      const fresh = work.filter(([d, op, l]) => !this.expanded.has(`${d}|${op}|${l}`));
      await this.loadOperations([...new Set(fresh.map(([, op]) => op))]);
      for (const [d, op, l] of fresh) this.expand(d, op, l);
    }
  }

  private expand(direction: 'forward' | 'backward', opId: string, lot: string): void {
    const mark = `${direction}|${opId}|${lot}`;
    if (this.expanded.has(mark)) return;
    this.expanded.add(mark);
    const ms = this.byOp.get(opId) ?? [];
    if (ms.length === 0) return;
    const removed = new Set(ms.filter((m) => m.quantity < 0).map(lotKey));
    const moved = removed.has(lot);
    if (direction === 'forward') {
      for (const m of ms) {
        const l = lotKey(m);
        if (m.quantity < 0) { if (l === lot) this.consumed(opId, m, false); continue; }
        if (removed.has(l)) { if (l === lot) this.arrived(opId, m, ms, 'forward'); continue; }
        this.produced(opId, m, true);
      }
      return;
    }
    if (moved) {
      for (const m of ms.filter((x) => lotKey(x) === lot)) {
        if (m.quantity > 0) this.arrived(opId, m, ms, 'backward');
        else this.consumed(opId, m, true);
      }
      return;
    }
    // Made by the operation: it and every input it consumed.
    for (const m of ms) {
      if (m.quantity > 0) { if (lotKey(m) === lot) this.produced(opId, m, false); continue; }
      this.consumed(opId, m, true);
    }
  }

  private consumed(opId: string, m: Movement, walkBack: boolean): void {
    const op = operationNode(m.operation.workflow, opId);
    if (!this.visible(m.deposit)) return this.leave(op, `${lotKey(m)}|${m.deposit}`);
    this.edge('consumed', lotNode(m.material, m.batch), op, m);
    if (walkBack) this.enqueue('backward', m.key, m.at);
  }

  private produced(opId: string, m: Movement, walkOn: boolean): void {
    const op = operationNode(m.operation.workflow, opId);
    if (!this.visible(m.deposit)) return this.leave(op, `${lotKey(m)}|${m.deposit}`);
    this.edge('produced', op, lotNode(m.material, m.batch), m);
    if (walkOn) this.enqueue('forward', m.key, m.at);
  }

  /**
   * A lot the operation moved reaching a deposit. Not a move when the same transition took it
   * out of that deposit (an IBC filling keeps the lot where it was): no edge, nothing to walk.
   */
  private arrived(opId: string, m: Movement, ms: readonly Movement[], direction: 'forward' | 'backward'): void {
    const same = ms.some((x) => x.quantity < 0 && x.key === m.key && x.operation.transition === m.operation.transition);
    if (same) return;
    const op = operationNode(m.operation.workflow, opId);
    if (!this.visible(m.deposit)) return this.leave(op, `${lotKey(m)}|${m.deposit}`);
    this.edge('arrived', op, depositNode(m.deposit), m);
    if (direction === 'forward') this.enqueue('forward', m.key, m.at);
  }

  private edge(kind: EdgeKind, from: string, to: string, m: Movement): void {
    const id = `${kind}|${m.operation.id}|${lotKey(m)}|${m.deposit}`;
    this.operations.set(m.operation.id, { workflow: m.operation.workflow, id: m.operation.id });
    let e = this.acc.get(id);
    if (!e) {
      e = {
        id, from, to, kind, material: m.material, lot: m.batch, quantity: 0, ...(m.unit !== undefined ? { unit: m.unit } : {}), deposit: m.deposit, at: m.at,
        operation: { ...m.operation }, movements: new Set(),
      };
      this.acc.set(id, e);
    }
    if (e.movements.has(m.id)) return;
    e.movements.add(m.id);
    e.quantity = Math.round((e.quantity + Math.abs(m.quantity)) * 1e9) / 1e9;
    if (m.at < e.at) e.at = m.at;
  }

  private leave(node: string, link: string): void {
    let s = this.beyond.get(node);
    if (!s) this.beyond.set(node, (s = new Set()));
    s.add(link);
  }

  private enqueue(direction: 'forward' | 'backward', key: string, at: string): void {
    if (direction === 'forward') {
      const was = this.forwardFrom.get(key);
      if (was !== undefined && was <= at) return;
      this.forwardFrom.set(key, at);
      this.pendingForward.set(key, at);
    } else {
      const was = this.backwardFrom.get(key);
      if (was !== undefined && was >= at) return;
      this.backwardFrom.set(key, at);
      this.pendingBackward.set(key, at);
    }
  }

  private remember(map: Map<string, Movement[]>, ms: readonly Movement[], by: (m: Movement) => string): void {
    for (const m of ms) {
      const k = by(m);
      const list = map.get(k);
      if (!list) map.set(k, [m]);
      else if (!list.some((x) => x.id === m.id)) list.push(m);
    }
  }

  private async loadKeys(keys: string[]): Promise<void> {
    const missing = keys.filter((k) => !this.byKey.has(k));
    if (missing.length === 0) return;
    const found = await this.reader.byKeys(missing);
    for (const k of missing) this.byKey.set(k, []);
    this.remember(this.byKey, found, (m) => m.key);
  }

  private async loadOperations(ids: string[]): Promise<void> {
    const missing = ids.filter((id) => !this.byOp.has(id));
    if (missing.length === 0) return;
    const found = await this.reader.byOperations(missing);
    for (const id of missing) this.byOp.set(id, []);
    this.remember(this.byOp, found, (m) => m.operation.id);
  }
}
