/**
 * The trace screens' model, without React, ECharts or Leaflet: what a trace starts from (read
 * from and written to the address), the answers of the trace routes, where a node opens, and the
 * graph's layered layout. The drawing (TraceGraph.tsx, TraceMap.tsx) reads only what is here.
 */
import { resolveGoTo, type Direction, type Registry, type RouteEntry, type SearchHit, type TraceAnswer, type TraceNode } from '../../../engine/src/index';
import type { GoToPayload } from '../frame/messages';
import { featureOfWorkflow } from '../reports/links';

// The answers of the trace routes are the engine's (engine/src/trace/types.ts), shared with the server.
export type {
  Direction, LotHistory, NodeKind, SearchHit, TraceAnswer, TraceNode, TraceRow,
} from '../../../engine/src/index';

export const DIRECTIONS: readonly Direction[] = ['backward', 'both', 'forward'];

/** What a trace starts from: one of a lot (and its material), an IBC serial or a shipment. */
export interface TraceParams {
  lot?: string;
  material?: string;
  ibc?: string;
  shipment?: string;
  direction: Direction;
}

const START_KEYS = ['lot', 'material', 'ibc', 'shipment'] as const;

/** The start named by an address query (`?lot=…&material=…`, `?ibc=…`, `?shipment=…`, `&direction=`); null without one. */
export function paramsOf(search: string | URLSearchParams): TraceParams | null {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const value = (k: string) => { const v = q.get(k); return v !== null && v.trim() !== '' ? v.trim() : undefined; };
  const direction = (DIRECTIONS as readonly string[]).includes(q.get('direction') ?? '') ? (q.get('direction') as Direction) : 'both';
  const lot = value('lot');
  const ibc = value('ibc');
  const shipment = value('shipment');
  if (lot) return { lot, ...(value('material') ? { material: value('material') } : {}), direction };
  if (ibc) return { ibc, direction };
  if (shipment) return { shipment, direction };
  return null;
}

/** The query of a start, for the address and the trace routes. */
export function queryOf(p: TraceParams, extra: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const k of START_KEYS) if (p[k]) q.set(k, p[k]!);
  if (p.direction !== 'both') q.set('direction', p.direction);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') q.set(k, String(v));
  return q.toString();
}

/** The same start, for a goTo query (the shell checks a lot's `lot` is a string). */
export function goToQuery(p: TraceParams): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(queryOf(p)));
}

/** The start a search hit names. */
export function paramsOfHit(hit: SearchHit, direction: Direction): TraceParams {
  if (hit.kind === 'lot') return { lot: hit.lot ?? hit.label, ...(hit.material ? { material: hit.material } : {}), direction };
  if (hit.kind === 'ibc') return { ibc: hit.ibc ?? hit.label, direction };
  return { shipment: hit.shipment ?? hit.label, direction };
}

/**
 * Where a node opens, among the features this user may open: an operation or an IBC in the
 * feature showing its workflow's records (`?id=`), a lot in the feature taking lots (its
 * history); a deposit nowhere.
 */
export function nodeGoTo(ctx: { registry: Registry; allowed: RouteEntry[] }, node: TraceNode): GoToPayload | null {
  if ((node.kind === 'operation' || node.kind === 'ibc') && node.record) {
    const workflow = node.kind === 'ibc' ? Object.values(ctx.registry.workflows).find((w) => w.entity === 'ibc_container')?.name : node.workflow;
    const feature = workflow ? featureOfWorkflow(ctx.registry, ctx.allowed, workflow) : null;
    return feature ? { type: feature, query: { id: node.record } } : null;
  }
  if (node.kind === 'lot' && node.lot && resolveGoTo(ctx.allowed, 'lot')) return { type: 'lot', query: { lot: node.lot, ...(node.material ? { material: node.material } : {}) } };
  return null;
}

/** The feature of a trace view (`map`, `events`, `history`) this user may open, for a goTo. */
export function traceFeature(ctx: { registry: Registry; allowed: RouteEntry[] }, view: 'map' | 'events' | 'history'): string | null {
  return ctx.registry.features.features.find((f) => f.trace?.view === view && resolveGoTo(ctx.allowed, f.id))?.id ?? null;
}

export interface Positioned {
  id: string;
  /** The layer: 0 for what nothing in the trace comes before, then one more per link. */
  layer: number;
  /** The row within the layer. */
  row: number;
}

/**
 * A layered layout of the trace (it flows left to right, as goods do): each node in the layer
 * after the furthest of its predecessors, rows ordered by their predecessors' rows so links
 * cross little. A cycle (which the ledger does not make) is broken, not looped on.
 */
export function layered(nodes: readonly Pick<TraceNode, 'id'>[], edges: readonly Pick<TraceAnswer['edges'][number], 'from' | 'to'>[]): Positioned[] {
  const ids = new Set(nodes.map((n) => n.id));
  const preds = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  const succs = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of edges) {
    if (!ids.has(e.from) || !ids.has(e.to) || e.from === e.to) continue;
    preds.get(e.to)!.push(e.from);
    succs.get(e.from)!.push(e.to);
  }
  const indegree = new Map(nodes.map((n) => [n.id, preds.get(n.id)!.length]));
  const layer = new Map<string, number>();
  let ready = nodes.filter((n) => indegree.get(n.id) === 0).map((n) => n.id);
  const placed = new Set<string>();
  while (placed.size < nodes.length) {
    if (ready.length === 0) {
      // A cycle: take the unplaced node with the fewest links waiting, as if they were none.
      const rest = nodes.filter((n) => !placed.has(n.id)).sort((a, b) => indegree.get(a.id)! - indegree.get(b.id)!);
      ready = [rest[0].id];
    }
    const next: string[] = [];
    for (const id of ready) {
      if (placed.has(id)) continue;
      placed.add(id);
      const l = Math.max(0, ...preds.get(id)!.filter((p) => layer.has(p)).map((p) => layer.get(p)! + 1));
      layer.set(id, l);
      for (const s of succs.get(id)!) {
        indegree.set(s, indegree.get(s)! - 1);
        if (indegree.get(s) === 0) next.push(s);
      }
    }
    ready = next;
  }
  const byLayer = new Map<number, string[]>();
  for (const n of nodes) byLayer.set(layer.get(n.id)!, [...(byLayer.get(layer.get(n.id)!) ?? []), n.id]);
  const row = new Map<string, number>();
  for (const l of [...byLayer.keys()].sort((a, b) => a - b)) {
    const here = byLayer.get(l)!;
    const weight = (id: string) => {
      const ps = preds.get(id)!.filter((p) => row.has(p));
      return ps.length ? ps.reduce((s, p) => s + row.get(p)!, 0) / ps.length : Number.MAX_SAFE_INTEGER;
    };
    here.sort((a, b) => weight(a) - weight(b) || (a < b ? -1 : 1)).forEach((id, i) => row.set(id, i));
  }
  return nodes.map((n) => ({ id: n.id, layer: layer.get(n.id)!, row: row.get(n.id)! }));
}

/** An edge's label: the quantity and unit that went along it. */
export function quantityText(e: Pick<TraceAnswer['edges'][number], 'quantity' | 'unit'>, lang: string): string {
  return `${e.quantity.toLocaleString(lang)} ${e.unit}`.trim();
}

/** The customers, suppliers and countries of a summary as one line each, for the notice above the graph. */
export function names(list: readonly { name: string }[]): string {
  return list.map((x) => x.name).join(', ');
}
