import { useEffect, useMemo, useRef } from 'react';
import { GraphChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { layered, quantityText, type NodeKind, type TraceAnswer, type TraceNode } from './model';

// Only the parts drawn here; this module (and so ECharts) loads only where a trace graph shows.
echarts.use([GraphChart, TooltipComponent, LegendComponent, SVGRenderer]);

const KINDS: readonly NodeKind[] = ['lot', 'operation', 'ibc', 'deposit'];
const COLOR: Record<NodeKind | 'beyond', string> = { lot: '#2563eb', operation: '#16a34a', ibc: '#d97706', deposit: '#7c3aed', beyond: '#9ca3af' };
const SYMBOL: Record<NodeKind | 'beyond', string> = { lot: 'circle', operation: 'roundRect', ibc: 'diamond', deposit: 'pin', beyond: 'circle' };
const COLUMN = 210;
const ROW = 74;
const LABELLED_LINKS = 60;
const MARGIN = { top: 40, bottom: 40, left: 70, right: 110 };

export interface TraceGraphProps {
  answer: TraceAnswer;
  lang: string;
  label: string;
  /** The names of the kinds and of the links beyond access, in the user's language. */
  kindLabel: (kind: NodeKind) => string;
  beyondLabel: (count: number) => string;
  /** A node clicked: opened where a feature shows it (MapView decides). */
  onOpen: (node: TraceNode) => void;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The trace as a graph (Apache ECharts, SVG): lots, operations, IBCs and the deposits goods
 * reached, laid out in layers from inputs to what they became (model.ts `layered`), each link
 * labelled with the quantity; a grey node for the links that continue beyond the user's access.
 * The node ids are mirrored in the container's `data-nodes` for tests and tools.
 */
export default function TraceGraph({ answer, lang, label, kindLabel, beyondLabel, onOpen }: TraceGraphProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const live = useRef({ onOpen, answer });
  live.current = { onOpen, answer };

  const drawn = useMemo(() => {
    const beyond = answer.nodes.filter((n) => n.beyond).map((n) => ({ id: `beyond:${n.id}`, of: n.id, count: n.beyond! }));
    const all = [...answer.nodes.map((n) => ({ id: n.id })), ...beyond.map((b) => ({ id: b.id }))];
    const links = [...answer.edges.map((e) => ({ from: e.from, to: e.to })), ...beyond.map((b) => ({ from: b.of, to: b.id }))];
    const at = new Map(layered(all, links).map((p) => [p.id, p]));
    const rows = Math.max(1, ...[...at.values()].map((p) => p.row + 1));
    const layers = Math.max(1, ...[...at.values()].map((p) => p.layer + 1));
    return { beyond, at, rows, layers };
  }, [answer]);

  useEffect(() => {
    const c = echarts.init(box.current!, undefined, { renderer: 'svg' });
    chart.current = c;
    c.on('click', (p) => {
      const id = (p.data as { id?: string } | undefined)?.id;
      const node = p.dataType === 'node' && id ? live.current.answer.nodes.find((n) => n.id === id) : undefined;
      if (node) live.current.onOpen(node);
    });
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => c.resize());
    resized?.observe(box.current!);
    return () => { resized?.disconnect(); c.dispose(); chart.current = null; };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const index = new Map<string, number>();
    const data = [
      ...answer.nodes.map((n) => {
        const p = drawn.at.get(n.id)!;
        index.set(n.id, index.size);
        return {
          id: n.id, name: n.label, x: p.layer * COLUMN, y: p.row * ROW, category: KINDS.indexOf(n.kind), symbol: SYMBOL[n.kind], symbolSize: n.start ? 26 : n.kind === 'operation' ? [22, 16] : 18,
          itemStyle: n.start ? { borderColor: '#111827', borderWidth: 3 } : undefined,
          label: { show: true, position: 'bottom' as const, fontSize: 10, lineHeight: 13, width: COLUMN - 30, overflow: 'truncate' as const, formatter: n.kind === 'lot' ? `${n.lot}\n${n.materialName ?? ''}` : n.kind === 'operation' ? `${n.document ?? ''}\n${n.workflowLabel ?? ''}` : n.label },
          tooltip: { formatter: () => tooltipOf(n, kindLabel) },
        };
      }),
      ...drawn.beyond.map((b) => {
        const p = drawn.at.get(b.id)!;
        index.set(b.id, index.size);
        return {
          id: b.id, name: beyondLabel(b.count), x: p.layer * COLUMN, y: p.row * ROW, category: KINDS.length, symbol: SYMBOL.beyond, symbolSize: 14,
          label: { show: true, position: 'bottom' as const, fontSize: 10, formatter: beyondLabel(b.count) }, tooltip: { formatter: () => esc(beyondLabel(b.count)) },
        };
      }),
    ];
    const links = [
      ...answer.edges.filter((e) => index.has(e.from) && index.has(e.to)).map((e) => ({
        // Quantities on the links while they can be read; on a large trace, in each link's tooltip.
        source: index.get(e.from)!, target: index.get(e.to)!, label: { show: answer.edges.length <= LABELLED_LINKS, fontSize: 9, formatter: quantityText(e, lang) },
        tooltip: { formatter: () => esc(`${e.lot}: ${quantityText(e, lang)}`) },
      })),
      ...drawn.beyond.map((b) => ({ source: index.get(b.of)!, target: index.get(b.id)!, lineStyle: { type: 'dashed' as const, color: COLOR.beyond } })),
    ];
    c.setOption({
      animation: false,
      tooltip: { confine: true },
      legend: { top: 0, data: [...KINDS.map(kindLabel)], selectedMode: false },
      series: [{
        type: 'graph', layout: 'none', roam: true, ...MARGIN,
        categories: [...KINDS.map((k) => ({ name: kindLabel(k), itemStyle: { color: COLOR[k] } })), { name: 'beyond', itemStyle: { color: COLOR.beyond } }],
        data, links, edgeSymbol: ['none', 'arrow'], edgeSymbolSize: 7,
        lineStyle: { color: '#94a3b8', width: 1.3, curveness: 0.08 },
        emphasis: { focus: 'adjacency' },
      }],
    }, true);
    if (box.current) box.current.dataset.nodes = answer.nodes.map((n) => n.id).join(',');
  }, [answer, drawn, lang, kindLabel, beyondLabel]);

  // Drawn at its own scale (one column per layer, one row per node), scrolled when larger than the pane.
  const height = Math.max(320, (drawn.rows - 1) * ROW + MARGIN.top + MARGIN.bottom + 40);
  const width = (drawn.layers - 1) * COLUMN + MARGIN.left + MARGIN.right + 40;
  return (
    <div className="tm-trace-graph" data-testid="trace-graph-pane">
      <div ref={box} style={{ height, width, minWidth: '100%' }} role="img" aria-label={label} data-testid="trace-graph" />
    </div>
  );
}

function tooltipOf(n: TraceNode, kindLabel: (k: NodeKind) => string): string {
  const lines = [`<strong>${esc(n.label)}</strong>`, esc(kindLabel(n.kind))];
  if (n.kind === 'lot') lines.push(...[n.gtin && `GTIN ${n.gtin}`, n.expirationDate && `⌛ ${n.expirationDate}`].filter(Boolean).map((x) => esc(String(x))));
  if (n.kind === 'operation') lines.push(...[n.date, n.state, ...(n.companies ?? []).map((c) => c.name), ...(n.countries ?? []).map((c) => c.name)].filter(Boolean).map((x) => esc(String(x))));
  if (n.kind === 'deposit' && n.companyName) lines.push(esc(n.companyName));
  return lines.join('<br/>');
}
