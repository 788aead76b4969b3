import { useEffect, useRef } from 'react';
import type { ChartData, Lang } from '../../../engine/src/index';
import { chartOption, chartTheme } from './chartOption';
import { echarts } from './echarts';

export interface ChartWidgetProps {
  kind: 'bar' | 'line' | 'pie';
  /** The categories are periods (an interval chart). */
  dated: boolean;
  data: ChartData;
  lang: Lang;
  /** What the chart shows, in words (its accessible name): the title and each category's figures. */
  label: string;
}

/**
 * A widget's chart, drawn by ECharts in SVG with the app's colours; it follows its frame's size
 * (a resized window, a sidebar folding). `data-painted` says the chart is drawn (the bench and
 * the browser suite wait for it).
 */
export default function ChartWidget({ kind, dated, data, lang, label }: ChartWidgetProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);

  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el, undefined, { renderer: 'svg' });
    chart.current = c;
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => c.resize());
    resized?.observe(el);
    return () => {
      resized?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const el = box.current!;
    // setOption draws at once (no lazy update): the SVG is in the page when it returns.
    chart.current?.setOption(chartOption(kind, data, lang, chartTheme(getComputedStyle(el)), dated), { notMerge: true });
    el.dataset.painted = 'true';
  }, [kind, dated, data, lang]);

  return <div ref={box} className="tm-dash-chart" role="img" aria-label={label} data-testid="widget-chart" data-kind={kind} data-categories={data.categories.length} />;
}
