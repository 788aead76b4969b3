import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../registry/load';
import { formatProblem } from '../registry/problems';
import { reportPlan } from '../reports/plan';
import { reportSources } from '../testing/reportFixtures';
import type { Registry } from '../registry/registry';
import { mondayOf, resolveDay } from './days';
import { chartData, figuresChart, goalState, groupsOf, mapData, periodsBetween, widgetRead, widgetReportParams, widgetReportQuery } from './reduce';
import { DashboardError, parseDashboardFilters } from './request';
import type { DashboardWidgetDef } from './types';

type Json = Record<string, any>;
const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });
const FILE = 'schemas/dashboards/ops.json';

/** A dashboard over the fixtures' shipments and stock reports, and two named queries. */
const OPS: Json = {
  key: 'ops', label: t('Operations'),
  filters: [
    { id: 'period', label: t('Period'), type: 'date_range', default: { from: 'startOfMonth', to: 'today' } },
    { id: 'deposit', label: t('Deposit'), type: 'reference', ref: 'company_division' },
  ],
  widgets: [
    { id: 'shipped', type: 'kpi', title: t('Shipped'), source: { report: 'shipments_report', filters: { status: ['Accepted'] }, feed: { period: 'sendDate', deposit: 'deposit' } }, goal: { min: 1 } },
    { id: 'amount', type: 'kpi', title: t('Amount'), source: { report: 'shipment_lines' }, measure: { op: 'sum', field: 'lines.amount' } },
    { id: 'batches', type: 'kpi', title: t('Batches'), source: { report: 'shipment_lines' }, measure: { op: 'distinct', field: 'lines.batch' } },
    { id: 'byState', type: 'chart', chart: 'pie', title: t('By state'), source: { report: 'shipments_report', feed: { period: 'sendDate' } }, groupBy: 'status' },
    { id: 'perWeek', type: 'chart', chart: 'line', title: t('Per week'), source: { report: 'shipments_report', feed: { period: 'sendDate' } }, groupBy: 'sendDate', interval: 'week', seriesBy: 'status' },
    { id: 'where', type: 'map', title: t('Where'), source: { report: 'shipments_report' }, locate: { by: 'receiverDeposit', entity: 'company_division' } },
    { id: 'stock', type: 'table', title: t('Stock'), source: { report: 'stock_{host}' } },
    { id: 'overdue', type: 'kpi', title: t('Overdue'), source: { query: 'declarations', feed: { deposit: 'deposit' } }, measure: { op: 'figure', field: 'overdue' }, goal: { max: 0 }, link: { feature: 'shipmentsReport' } },
    { id: 'outbox', type: 'chart', chart: 'bar', title: t('Outbox'), source: { query: 'declarations' }, figures: ['pending', 'overdue'] },
    { id: 'stockMap', type: 'map', title: t('Stock map'), source: { query: 'stockByDeposit' } },
  ],
};

function load(change: (d: Json) => void = () => undefined, over: Record<string, unknown> = {}) {
  const d = structuredClone(OPS);
  change(d);
  return loadRegistry(reportSources({ [FILE]: d, ...over }));
}
const problems = (change: (d: Json) => void, over?: Record<string, unknown>) => load(change, over).problems.map(formatProblem);
const at = (pointer: string, message: string, file = FILE) => `${file}:${pointer}: ${message}`;
const registry = (): Registry => {
  const { registry: reg, problems: p } = load();
  if (!reg) throw new Error(p.map(formatProblem).join('\n'));
  return reg;
};
const widget = (reg: Registry, id: string): DashboardWidgetDef => reg.dashboards.ops.widgets.find((w) => w.id === id)!;

describe('dashboard definitions: sanitised once', () => {
  it('applies every default: access, grid, filters, sizes by type, a count, source filters and feed, a chart\'s limit, a table\'s columns and rows; {host} replaced', () => {
    const d = registry().dashboards.ops;
    expect(d.access).toBe('Dashboards');
    expect(d.columns).toBe(12);
    expect(d.widgets.map((w) => [w.id, w.size])).toEqual([
      ['shipped', { w: 3, h: 1 }], ['amount', { w: 3, h: 1 }], ['batches', { w: 3, h: 1 }], ['byState', { w: 6, h: 2 }], ['perWeek', { w: 6, h: 2 }],
      ['where', { w: 6, h: 2 }], ['stock', { w: 12, h: 2 }], ['overdue', { w: 3, h: 1 }], ['outbox', { w: 6, h: 2 }], ['stockMap', { w: 6, h: 2 }],
    ]);
    const by = (id: string) => d.widgets.find((w) => w.id === id)!;
    expect(by('shipped').measure).toEqual({ op: 'count' });
    expect(by('amount').source).toEqual({ report: 'shipment_lines', filters: {}, feed: {} });
    expect(by('byState').limit).toBe(12);
    // A chart of periods shows every period; one of figures shows the figures it lists.
    expect(by('perWeek').limit).toBeUndefined();
    expect(by('outbox').limit).toBeUndefined();
    expect(by('stock').source.report).toBe('stock_test');
    expect(by('stock').columns).toEqual(['materialName', 'batch', 'quantity']);
    expect(by('stock').rows).toBe(10);
    expect(Object.isFrozen(by('stock').size)).toBe(true);
  });

  it('keeps what a definition says: its own access, sizes, limit, columns and rows', () => {
    const d = load((x) => {
      x.access = 'Reports';
      x.widgets[3] = { ...x.widgets[3], size: { w: 4 }, limit: 3 };
      x.widgets[6] = { ...x.widgets[6], columns: ['batch'], rows: 5 };
    }).registry!.dashboards.ops;
    expect(d.access).toBe('Reports');
    expect(d.widgets[3].size).toEqual({ w: 4, h: 2 });
    expect(d.widgets[3].limit).toBe(3);
    expect([d.widgets[6].columns, d.widgets[6].rows]).toEqual([['batch'], 5]);
  });
});

describe('dashboard definitions: checked with file and JSON pointer', () => {
  it('accepts the fixture', () => {
    expect(load().problems).toEqual([]);
  });

  it('meta-schema: a text lacking a language, an unknown widget type, a source with both a report and a query', () => {
    expect(problems((d) => { delete d.widgets[0].title.fr; })).toEqual([at('/widgets/0/title', 'missing fr (every text needs en, es, fr)')]);
    expect(problems((d) => { d.widgets[1].type = 'gauge'; })).toContain(at('/widgets/1/type', 'must be one of: "kpi", "chart", "map", "table"'));
    expect(problems((d) => { d.widgets[1].source.query = 'declarations'; }).length).toBeGreaterThan(0);
    expect(problems((d) => { d.key = 'other'; })).toEqual([at('/key', 'key "other" must equal the file name "ops"')]);
  });

  it('names what does not exist: the report, the named query, the access key, the filter entity, the link\'s feature, a table column', () => {
    expect(problems((d) => { d.widgets[1].source.report = 'shipment_line'; })).toEqual([at('/widgets/1/source/report', 'report "shipment_line" does not exist in reports/')]);
    expect(problems((d) => { d.widgets[7].source.query = 'declaration'; })).toEqual([at('/widgets/7/source/query', '"declaration" is not a named query; the named queries: declarations, ibcFleet, stockByDeposit, ibcsByDeposit')]);
    expect(problems((d) => { d.access = 'Dashboard'; })).toEqual([at('/access', 'access key "Dashboard" is not declared in schemas/access.json')]);
    expect(problems((d) => { d.filters[1].ref = 'deposit'; })).toEqual([at('/filters/1/ref', 'entity "deposit" does not exist')]);
    expect(problems((d) => { d.widgets[7].link.feature = 'nowhere'; })).toEqual([at('/widgets/7/link/feature', 'feature "nowhere" is not in schemas/features.json')]);
    expect(problems((d) => { d.widgets[6].columns = ['batch', 'price']; })).toEqual([at('/widgets/6/columns/1', '"price" is not a column of report stock_test')]);
  });

  it('checks every row path against the report\'s rows (the output of its pipeline)', () => {
    expect(problems((d) => { d.widgets[3].groupBy = 'state'; })).toEqual([at('/widgets/3/groupBy', 'field "state" is not in the rows of report shipments_report')]);
    expect(problems((d) => { d.widgets[1].measure.field = 'amount'; })).toEqual([at('/widgets/1/measure/field', 'field "amount" is not in the rows of report shipment_lines')]);
    expect(problems((d) => { d.widgets[5].locate.by = 'receiver.id'; })).toEqual([]);
    expect(problems((d) => { d.widgets[5].locate.by = 'receiverDepot'; })).toEqual([at('/widgets/5/locate/by', 'field "receiverDepot" is not in the rows of report shipments_report')]);
    expect(problems((d) => { delete d.widgets[3].groupBy; })).toEqual([at('/widgets/3', 'a chart of a report names the row path it groups by (groupBy)')]);
    expect(problems((d) => { delete d.widgets[5].locate; })).toEqual([at('/widgets/5', 'a map of a report names the record its rows are placed at (locate)')]);
  });

  it('checks fixed filter values as the rows route would, and what feeds what', () => {
    expect(problems((d) => { d.widgets[0].source.filters.status = ['Shipped']; })).toEqual([
      at('/widgets/0/source/filters/status', 'status : Shipped is not a valid state (Draft, In-Progress, Accepted, Partial Reject, Total Reject, Rejection Accepted, Cancelled)'),
    ]);
    expect(problems((d) => { d.widgets[0].source.filters.colour = 'red'; })).toEqual([
      at('/widgets/0/source/filters/colour', '"colour" is not a filter of report shipments_report; its filters: sendDate, status, deposit, batch, amount, uom, urgent, receiver'),
    ]);
    expect(problems((d) => { d.widgets[0].source.filters.sendDate = { from: 'today', to: 'today-1d' }; })).toEqual([
      at('/widgets/0/source/filters/sendDate', 'sendDate : the range ends (2026-01-14) before it starts (2026-01-15)'),
      at('/widgets/0/source/feed/period', 'sendDate is also a fixed filter of the widget: a filter is fixed or fed, not both'),
    ]);
    expect(problems((d) => { d.widgets[0].source.feed.period = 'status'; })).toEqual([
      at('/widgets/0/source/feed/period', 'filter "period" (date_range) cannot set status (status)'),
      at('/widgets/0/source/feed/period', 'status is also a fixed filter of the widget: a filter is fixed or fed, not both'),
    ]);
    expect(problems((d) => { d.widgets[3].source.feed.period = 'urgent'; })).toEqual([at('/widgets/3/source/feed/period', 'filter "period" (date_range) cannot set urgent (boolean)')]);
    expect(problems((d) => { d.widgets[0].source.feed.season = 'sendDate'; })).toContain(at('/widgets/0/source/feed/season', '"season" is not a filter of the dashboard'));
    expect(problems((d) => { d.widgets[7].source.feed = { period: 'deposit' }; })).toEqual([at('/widgets/7/source/feed/period', 'filter "period" (date_range) cannot set deposit of declarations')]);
  });

  it('checks what a named query gives against what the widget shows', () => {
    expect(problems((d) => { d.widgets[7].measure.field = 'late'; })).toEqual([at('/widgets/7/measure/field', '"late" is not a figure of declarations; its figures: pending, dueSoon, overdue, failed, synced')]);
    expect(problems((d) => { d.widgets[7].measure = { op: 'count' }; })).toEqual([at('/widgets/7/measure', 'a KPI of the named query declarations shows one of its figures: {"op": "figure", "field": …}')]);
    expect(problems((d) => { d.widgets[9].type = 'kpi'; })).toEqual([at('/widgets/9/type', 'the named query stockByDeposit gives located groups: a chart or a map shows them, not a kpi')]);
    expect(problems((d) => { d.widgets[9].type = 'table'; })).toEqual([at('/widgets/9/source', 'missing required property "report"')]);
    expect(problems((d) => { d.widgets[8].figures = ['pending', 'late']; })).toEqual([at('/widgets/8/figures/1', '"late" is not a figure of declarations; its figures: pending, dueSoon, overdue, failed, synced')]);
    expect(problems((d) => { d.widgets[0].measure = { op: 'figure', field: 'overdue' }; })).toEqual([at('/widgets/0/measure/op', 'figure measures a named query\'s figures; a report widget counts, counts distinct values or sums')]);
  });

  it('a feature names an existing dashboard, with the access the dashboard needs', () => {
    const over = (feature: Json) => {
      const base = Object.fromEntries(reportSources().map((s) => [s.path, JSON.parse(s.text)]));
      const features = base['schemas/features.json'];
      features.features.push(feature);
      return { 'schemas/features.json': features };
    };
    const dash = { id: 'opsBoard', path: '/ops-board', name: t('Ops'), access: 'Dashboards', render: 'external', dashboard: { key: 'ops' } };
    expect(problems(() => undefined, over(dash))).toEqual([]);
    const file = 'schemas/features.json';
    const i = JSON.parse(reportSources().find((s) => s.path === file)!.text).features.length;
    expect(problems(() => undefined, over({ ...dash, dashboard: { key: 'opz' } }))).toEqual([at(`/features/${i}/dashboard/key`, 'dashboard "opz" does not exist in schemas/dashboards/', file)]);
    expect(problems(() => undefined, over({ ...dash, access: 'Reports' }))).toEqual([
      at(`/features/${i}/dashboard/key`, 'dashboard "ops" needs Dashboards access, the feature Reports: users who may open it would be refused', file),
    ]);
  });
});

describe('relative days', () => {
  it('resolves anchors and moves', () => {
    expect(resolveDay('today', '2026-03-31')).toBe('2026-03-31');
    expect(resolveDay('startOfMonth', '2026-03-31')).toBe('2026-03-01');
    expect(resolveDay('startOfMonth-1m', '2026-03-31')).toBe('2026-02-01');
    expect(resolveDay('today-1m', '2026-03-31')).toBe('2026-02-28');
    expect(resolveDay('today-1m', '2024-03-31')).toBe('2024-02-29');
    expect(resolveDay('today-30d', '2026-03-01')).toBe('2026-01-30');
    expect(resolveDay('startOfYear+1y', '2026-07-04')).toBe('2027-01-01');
    expect(resolveDay('startOfWeek', '2026-03-01')).toBe('2026-02-23');
    expect(resolveDay('startOfWeek-2w', '2026-03-02')).toBe('2026-02-16');
    expect(resolveDay('2025-12-24', '2026-03-01')).toBe('2025-12-24');
  });

  it('a week starts on the Monday on or before the day, fewer than seven days before', () => {
    const days = fc.integer({ min: 0, max: 40_000 }).map((n) => new Date(Date.UTC(1990, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    fc.assert(fc.property(days, (day) => {
      const monday = mondayOf(day);
      const gap = (Date.parse(day) - Date.parse(monday)) / 86_400_000;
      return new Date(`${monday}T00:00:00Z`).getUTCDay() === 1 && gap >= 0 && gap < 7;
    }));
  });

  it('every period between two days, once each, in order', () => {
    expect(periodsBetween('week', '2026-02-25', '2026-03-10')).toEqual(['2026-02-23', '2026-03-02', '2026-03-09']);
    expect(periodsBetween('month', '2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(periodsBetween('day', '2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });
});

describe('a dashboard request\'s filters', () => {
  const def = () => registry().dashboards.ops;
  const fails = (q: Record<string, unknown>) => {
    try {
      parseDashboardFilters(def(), q, '2026-03-18');
    } catch (e) {
      return e instanceof DashboardError ? `${e.code} ${e.message}` : String(e);
    }
    return 'no error';
  };

  it('applies a period\'s default when the request names neither end, takes the ends given, an empty end open', () => {
    expect(parseDashboardFilters(def(), {}, '2026-03-18')).toEqual({ period: { from: '2026-03-01', to: '2026-03-18' } });
    expect(parseDashboardFilters(def(), { 'period.from': '2026-01-01', 'period.to': '2026-01-31', deposit: 'd1' }, '2026-03-18'))
      .toEqual({ period: { from: '2026-01-01', to: '2026-01-31' }, deposit: 'd1' });
    expect(parseDashboardFilters(def(), { 'period.from': '', 'period.to': '' }, '2026-03-18')).toEqual({});
    expect(parseDashboardFilters(def(), { 'period.from': '2026-02-01' }, '2026-03-18')).toEqual({ period: { from: '2026-02-01' } });
  });

  it('refuses what is not a filter or not a day, an inverted period, a list or an operator object, naming the parameter', () => {
    expect(fails({ colour: 'red' })).toBe('DASHBOARD_FILTER_UNKNOWN colour is not a filter of the dashboard ops; its filters: period.from, period.to, deposit');
    expect(fails({ 'period.from': '2026-02-30' })).toBe('DASHBOARD_FILTER_INVALID period.from : 2026-02-30 is not a valid date (YYYY-MM-DD)');
    expect(fails({ 'period.from': '2026-03-10', 'period.to': '2026-03-01' })).toBe('REPORT_RANGE_INVERTED period : the range ends (2026-03-01) before it starts (2026-03-10)');
    expect(fails({ deposit: ['a', 'b'] })).toBe('DASHBOARD_FILTER_INVALID deposit : ["a","b"] is not a valid record id');
    expect(fails({ deposit: { $gt: '' } })).toBe('DASHBOARD_FILTER_INVALID deposit : {"$gt":""} is not a valid record id');
  });
});

describe('a widget\'s read, composed after its report\'s plan', () => {
  const reg = registry();
  const scope = { deposit: { $in: ['d1'] } };
  const filters = { period: { from: '2026-03-01', to: '2026-03-18' }, deposit: 'd1' };

  it('feeds the report its fixed values and the dashboard filters, checked as the rows route checks them', () => {
    const w = widget(reg, 'shipped');
    expect(widgetReportParams(w, filters, '2026-03-18')).toEqual({ status: 'Accepted', 'sendDate.from': '2026-03-01', 'sendDate.to': '2026-03-18', deposit: 'd1' });
    expect(widgetReportQuery(reg, reg.reports.shipments_report, w, filters, '2026-03-18').filters)
      .toEqual({ status: ['Accepted'], sendDate: { from: '2026-03-01', to: '2026-03-18' }, deposit: 'd1' });
  });

  it('a KPI count is the report\'s own count, within the scope', () => {
    const w = widget(reg, 'shipped');
    const q = widgetReportQuery(reg, reg.reports.shipments_report, w, filters, '2026-03-18');
    const read = widgetRead(reg, reg.reports.shipments_report, w, q, scope);
    expect(read).toEqual({ read: 'total', plan: reportPlan(reg, reg.reports.shipments_report, q, scope) });
  });

  it('a sum or a distinct count folds the report\'s unordered rows in one more stage', () => {
    const lines = reg.reports.shipment_lines;
    const q = widgetReportQuery(reg, lines, widget(reg, 'amount'), {}, '2026-03-18');
    const rows = reportPlan(reg, lines, q).unordered;
    expect(widgetRead(reg, lines, widget(reg, 'amount'), q)).toEqual({ read: 'aggregate', collection: 'shipment', pipeline: [...rows, { $group: { _id: null, v: { $sum: '$lines.amount' } } }] });
    expect(widgetRead(reg, lines, widget(reg, 'batches'), q)).toEqual({
      read: 'aggregate', collection: 'shipment', pipeline: [...rows, { $group: { _id: '$lines.batch' } }, { $group: { _id: null, v: { $sum: 1 } } }],
    });
    // No sort and no page: a fold needs every row, in no order.
    expect(rows.some((s) => '$sort' in s || '$limit' in s || '$skip' in s)).toBe(false);
  });

  it('a chart groups by its category and series paths, a map by the record it places rows at, a table reads the first page', () => {
    const r = reg.reports.shipments_report;
    const q = widgetReportQuery(reg, r, widget(reg, 'perWeek'), filters, '2026-03-18');
    const read = widgetRead(reg, r, widget(reg, 'perWeek'), q, scope);
    expect(read.read === 'aggregate' && read.pipeline.at(-1)).toEqual({ $group: { _id: { k: '$sendDate', s: '$status' }, v: { $sum: 1 }, l: { $first: null }, sl: { $first: null } } });
    expect(read.read === 'aggregate' && read.pipeline[0]).toEqual(reportPlan(reg, r, q, scope).unordered[0]);
    const map = widgetRead(reg, r, widget(reg, 'where'), widgetReportQuery(reg, r, widget(reg, 'where'), {}, '2026-03-18'));
    expect(map.read === 'aggregate' && map.pipeline.at(-1)).toEqual({ $group: { _id: { k: '$receiverDeposit' }, v: { $sum: 1 }, l: { $first: null }, sl: { $first: null } } });
    const stock = reg.reports.stock_test;
    const tq = widgetReportQuery(reg, stock, widget(reg, 'stock'), {}, '2026-03-18');
    expect(tq.pageSize).toBe(10);
    expect(widgetRead(reg, stock, widget(reg, 'stock'), tq)).toEqual({ read: 'page', collection: 'stock_balance', pipeline: reportPlan(reg, stock, tq).rows, pagedInStore: reportPlan(reg, stock, tq).pagedInStore, take: 10 });
  });

  it('folds the source records straight when each is one row and the paths it groups by are theirs; else after the whole pipeline', () => {
    const r = reg.reports.shipments_report;
    const q = widgetReportQuery(reg, r, widget(reg, 'perWeek'), filters, '2026-03-18');
    const plan = reportPlan(reg, r, q, scope);
    // The join of the receiver adds nothing the chart reads: the rows are the shipments matched.
    expect(widgetRead(reg, r, widget(reg, 'perWeek'), q, scope)).toEqual({
      read: 'aggregate', collection: 'shipment',
      pipeline: [plan.unordered[0], { $group: { _id: { k: '$sendDate', s: '$status' }, v: { $sum: 1 }, l: { $first: null }, sl: { $first: null } } }],
    });
    expect(plan.unordered.some((s) => '$lookup' in s)).toBe(true);
    // Grouped by what the join wrote: the pipeline runs.
    const byReceiver = { ...widget(reg, 'byState'), groupBy: 'receiver.division_name' };
    expect(widgetRead(reg, r, byReceiver, q, scope)).toMatchObject({ pipeline: [...plan.unordered, { $group: { _id: { k: '$receiver.division_name' } } }] });
    // A row filter (on the joined receiver) drops rows after the pipeline: it runs too.
    const filtered = { ...q, filters: { ...q.filters, receiver: 'North' } };
    const rowPlan = reportPlan(reg, r, filtered, scope);
    expect(rowPlan.direct).toBeUndefined();
    expect(widgetRead(reg, r, widget(reg, 'perWeek'), filtered, scope)).toMatchObject({ pipeline: [...rowPlan.unordered, { $group: { _id: { k: '$sendDate', s: '$status' } } }] });
    // Lines unwound are many rows a record: a sum over them folds them all.
    const lines = reg.reports.shipment_lines;
    expect(reportPlan(reg, lines, widgetReportQuery(reg, lines, widget(reg, 'amount'), {}, '2026-03-18')).direct).toBeUndefined();
  });
});

describe('groups shaped for the screen', () => {
  const reg = registry();
  const perWeek = widget(reg, 'perWeek');
  const byState = widget(reg, 'byState');

  it('reads grouped documents whichever way the store left a missing key out', () => {
    expect(groupsOf([{ _id: { k: 'a', s: 'x' }, v: 2, l: 'A', sl: null }, { _id: {}, v: 1 }, { _id: { k: null, s: null }, v: 'x' }])).toEqual([
      { key: 'a', series: 'x', value: 2, label: 'A', seriesLabel: undefined },
      { key: null, series: null, value: 1, label: undefined, seriesLabel: undefined },
      { key: null, series: null, value: 0, label: undefined, seriesLabel: undefined },
    ]);
  });

  it('an interval chart puts days in weeks, shows every week of the period at 0 when empty, a series per state with its label and colour', () => {
    const groups = [
      { key: '2026-03-03', series: 'Accepted', value: 2 }, { key: '2026-03-04', series: 'Accepted', value: 1 },
      { key: '2026-03-17', series: 'Draft', value: 4 }, { key: null, series: 'Draft', value: 9 },
    ];
    const labels = { series: { Accepted: t('Accepted'), Draft: t('Draft') }, colors: { series: { Accepted: '#3a3' } } };
    expect(chartData(perWeek, groups, labels, { from: '2026-02-25', to: '2026-03-18' })).toEqual({
      kind: 'chart', more: 0,
      categories: ['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16'].map((k) => ({ key: k, label: k })),
      series: [
        { key: 'Draft', label: t('Draft'), values: [0, 0, 0, 4] },
        { key: 'Accepted', label: t('Accepted'), values: [0, 3, 0, 0], color: '#3a3' },
      ],
    });
  });

  it('a chart of categories shows the largest first, at most its limit, and says how many it left out', () => {
    const w = { ...byState, limit: 2 };
    const groups = [{ key: 'Draft', value: 1 }, { key: 'Accepted', value: 5 }, { key: null, value: 3 }, { key: 'Cancelled', value: 1 }];
    const data = chartData(w, groups, { categories: { Accepted: t('Accepted') }, colors: { categories: { Accepted: '#3a3' } } });
    expect(data.categories).toEqual([{ key: 'Accepted', label: t('Accepted'), color: '#3a3' }, { key: '', label: { en: 'None', es: 'Ninguno', fr: 'Aucun' } }]);
    expect(data.series).toEqual([{ key: '', label: byState.title, values: [5, 3] }]);
    expect(data.more).toBe(2);
  });

  it('a chart of figures draws those it lists; a KPI goal is bad above its max or below its min', () => {
    expect(figuresChart(widget(reg, 'outbox'), { pending: 4, overdue: 1, failed: 7 }, { pending: t('Pending'), overdue: t('Overdue') }).series[0].values).toEqual([4, 1]);
    expect([goalState({ max: 0 }, 0), goalState({ max: 0 }, 1), goalState({ min: 1 }, 0), goalState(undefined, 5)]).toEqual(['good', 'bad', 'bad', undefined]);
  });

  it('a map adds up a place\'s groups and their series, and counts what has no place', () => {
    const place = (k: string) => (k === 'd1' ? { label: 'Depósito 1', lat: -33, lng: -60 } : undefined);
    expect(mapData([{ key: 'd1', series: 'kg', seriesLabel: 'Kilogram', value: 5 }, { key: 'd1', series: 'l', value: 2 }, { key: 'd2', value: 7 }, { key: null, value: 1 }], place, { l: 'Litre' })).toEqual({
      kind: 'map', unplaced: 8,
      points: [{ key: 'd1', label: 'Depósito 1', lat: -33, lng: -60, value: 7, series: [{ key: 'kg', label: 'Kilogram', value: 5 }, { key: 'l', label: 'Litre', value: 2 }] }],
    });
  });
});
