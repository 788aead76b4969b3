import type { ChartData, Lang } from '../../../engine/src/index';
import { figure, labelText } from './model';

/** The look a chart takes from the app's theme (CSS custom properties of styles/base.css). */
export interface ChartTheme { palette: string[]; text: string; muted: string; grid: string; font: string }

/** Colours after the theme's primary one: distinct, and readable on white. */
const PALETTE = ['#2563eb', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#65a30d', '#db2777', '#475569'];

/** The theme read from the page's CSS (fallbacks when a variable is not set, as in a test document). */
export function chartTheme(style: Pick<CSSStyleDeclaration, 'getPropertyValue'>): ChartTheme {
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { palette: [v('--tm-primary', '#10b981'), ...PALETTE], text: v('--tm-text', '#1f2937'), muted: v('--tm-muted', '#4b5563'), grid: v('--tm-border', '#e3e8ee'), font: v('--tm-font', 'sans-serif') };
}

/**
 * An ECharts option for a widget's chart data: bars (stacked when several series; across for
 * named categories, upright for periods when `dated`), lines, or a pie of the categories (its
 * series added up); labels in the reader's language, numbers as the
 * reader writes them (an axis's ticks in their short form). No animation: the chart is painted once, as soon as its data arrives.
 */
export function chartOption(kind: 'bar' | 'line' | 'pie', data: ChartData, lang: Lang, theme: ChartTheme, dated = false): Record<string, unknown> {
  const categories = data.categories.map((c) => labelText(c.label, lang));
  const fmt = (v: unknown) => (typeof v === 'number' ? figure(v, lang) : String(v ?? ''));
  // An axis's ticks in the reader's short form (50M, 50 M): written out, large ones run into each other.
  const compact = new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 });
  const tick = (v: unknown) => (typeof v === 'number' ? compact.format(v) : String(v ?? ''));
  const base = {
    animation: false,
    color: theme.palette,
    textStyle: { fontFamily: theme.font, color: theme.text },
    tooltip: { trigger: kind === 'pie' ? 'item' : 'axis', valueFormatter: fmt, confine: true },
  };
  if (kind === 'pie') {
    const totals = data.categories.map((_, i) => data.series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
    return {
      ...base,
      legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle', textStyle: { color: theme.muted } },
      series: [{
        type: 'pie', radius: ['38%', '68%'], center: ['38%', '50%'], label: { show: false },
        data: categories.map((name, i) => ({ name, value: totals[i], ...(data.categories[i].color ? { itemStyle: { color: data.categories[i].color } } : {}) })),
      }],
    };
  }
  const several = data.series.length > 1;
  const whole = data.series.every((s) => s.values.every((v) => Number.isInteger(v)));
  const values = { type: 'value', minInterval: whole ? 1 : undefined, axisLabel: { color: theme.muted, formatter: tick, hideOverlap: true }, splitLine: { lineStyle: { color: theme.grid } } };
  // Named categories (deposits, products) read best as horizontal bars, largest on top; periods run left to right.
  const across = kind === 'bar' && !dated;
  const order = <T>(xs: T[]): T[] => (across ? [...xs].reverse() : xs);
  const names = {
    type: 'category', data: order(categories), axisLine: { lineStyle: { color: theme.grid } },
    axisLabel: { color: theme.muted, hideOverlap: true, ...(across ? { width: 150, overflow: 'truncate' } : {}) },
  };
  return {
    ...base,
    ...(several ? { legend: { type: 'scroll', top: 0, textStyle: { color: theme.muted } } } : {}),
    // The axes' labels inside the card's edges (ECharts 6's form of the old containLabel).
    grid: { left: 8, right: 16, top: several ? 32 : 12, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    xAxis: across ? values : names,
    yAxis: across ? names : values,
    series: data.series.map((s) => ({
      type: kind, name: labelText(s.label, lang), barMaxWidth: 28,
      // A state's colour: the series' own, or each bar's when the categories are states.
      data: order(s.values.map((v, i) => (!several && data.categories[i].color ? { value: v, itemStyle: { color: data.categories[i].color } } : v))),
      ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
      ...(kind === 'bar' && several ? { stack: 'total' } : {}),
      ...(kind === 'line' ? { showSymbol: s.values.length <= 31, areaStyle: several ? undefined : { opacity: 0.12 } } : {}),
    })),
  };
}
