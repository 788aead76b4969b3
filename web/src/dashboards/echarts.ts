/**
 * ECharts as the dashboards use it, tree-shaken: the core, bar, line and pie charts, their grid,
 * tooltip and legend, drawn in SVG (crisp at any zoom, light for a few hundred points). Only the
 * chart widget imports it, so it is a chunk of its own, loaded with the first chart.
 */
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { echarts };
