import { describe, expect, it } from 'vitest';
import type { ChartData } from '../../../engine/src/index';
import { chartOption, type ChartTheme } from './chartOption';

const theme: ChartTheme = { palette: ['#10b981'], text: '#111', muted: '#555', grid: '#eee', font: 'sans-serif' };
const stock: ChartData = {
  kind: 'chart', more: 0,
  categories: [{ key: 'd1', label: 'Depósito Rosario 1-2' }, { key: 'd2', label: 'Depósito Sur' }],
  series: [{ key: 'l', label: 'Litre', values: [312_500_000, 1_250] }],
};
type Axis = { type: string; axisLabel: { formatter: (v: unknown) => string; hideOverlap?: boolean } };
type Option = { xAxis: Axis; yAxis: Axis; tooltip: { valueFormatter: (v: unknown) => string }; grid: Record<string, unknown> };

describe('a chart widget\'s ECharts option', () => {
  it('writes the value axis\'s ticks short, in the reader\'s language, and the tooltip in full', () => {
    const en = chartOption('bar', stock, 'en', theme) as unknown as Option;
    // Named categories lie across: the values run along x.
    expect(en.xAxis.type).toBe('value');
    expect([0, 1_500, 50_000_000, 250_000_000, 1_250_000_000].map(en.xAxis.axisLabel.formatter)).toEqual(['0', '1.5K', '50M', '250M', '1.3B']);
    expect(en.xAxis.axisLabel.hideOverlap).toBe(true);
    expect(en.tooltip.valueFormatter(312_500_000)).toBe('312,500,000');
    const es = chartOption('bar', stock, 'es', theme) as unknown as Option;
    expect(es.xAxis.axisLabel.formatter(50_000_000)).toBe(new Intl.NumberFormat('es', { notation: 'compact' }).format(50_000_000));
    expect(es.xAxis.axisLabel.formatter(50_000_000)).not.toBe('50.000.000');
    expect(es.tooltip.valueFormatter(312_500_000)).toBe('312.500.000');
  });

  it('keeps the axes\' labels inside the card without ECharts 6\'s legacy containLabel', () => {
    const line = chartOption('line', stock, 'fr', theme, true) as unknown as Option;
    expect(line.yAxis.type).toBe('value');
    expect(line.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' });
    expect(line.grid).not.toHaveProperty('containLabel');
  });
});
