import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { buildRouteTable, routesFor, type Registry, type ReportDef } from '../../../engine/src/index';
import { reportFeature } from '../guest/featureHost';
import { catalogue, runnableReport } from './catalogue';
import { cellText, reportColumns } from '../../../engine/src/index';
import { exportStep, IDLE, nextPollDelay, progressPercent, RETRY_MS, type ExportEvent, type ExportState } from './exportJob';
import {
  applySaved, defaultSorting, emptyFilters, fromParams, invalidFilters, parseSort, savedFilterBody, searchOf, stateOfSearch, toParams,
} from './filters';
import { actionApplies, actionGoTo, printGoTo, printPathOf } from './links';
import { scheduleBody } from './ScheduleDialog';
import { provisionalTotal } from './useReportRows';

const base = requireDefinitions(process.cwd());
const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });

const report: ReportDef = {
  key: 'deliveries_test', label: t('Deliveries'), description: t('Every delivery'), category: 'product', access: 'Reports',
  source: { entity: 'delivery', query: 'searchProductDeliveriesv1', responseField: 'deliveryData' },
  pipeline: [], depositFields: ['deposit'], statusOf: 'delivery',
  filters: [
    { id: 'sendDate', label: t('Send date'), type: 'date_range', field: 'sendDate', on: 'source' },
    { id: 'status', label: t('Status'), type: 'status', field: 'deliveryStatus', on: 'source', workflow: 'delivery' },
    { id: 'batch', label: t('Batch'), type: 'text', field: 'productData.batchId', on: 'source' },
    { id: 'material', label: t('Material'), type: 'reference', field: 'productData.material', on: 'source', ref: 'material' },
    { id: 'quantity', label: t('Quantity'), type: 'number_range', field: 'quantity', on: 'row' },
    { id: 'synced', label: t('Synced'), type: 'boolean', field: 'synced', on: 'row' },
  ],
  sort: { sendDate: -1 },
  columns: [
    { id: 'sendDate', label: t('Send date'), type: 'date_text', field: 'sendDate', sortable: true },
    { id: 'shipmentID', label: t('Shipment'), type: 'conditional_action', field: 'shipmentID', sortable: true, action: { workflow: 'delivery', idField: 'id', when: { deliveryStatus: ['In-Progress', 'Accepted'] } } },
    { id: 'products', label: t('Batches'), type: 'array', field: 'productData', subField: 'batchId', sortable: false },
    { id: 'deliveryStatus', label: t('Status'), type: 'status', field: 'deliveryStatus', workflow: 'delivery', sortable: true },
  ],
  export: { fileName: 'deliveries_test', format: 'csv' },
};
const registry = { ...base, reports: { [report.key]: report, ibc_only: { ...report, key: 'ibc_only', label: t('IBC fleet'), description: undefined, category: 'ibc', access: 'IBC Reports' } } } as Registry;

describe('filter bar state and query parameters', () => {
  const values = {
    ...emptyFilters(report.filters),
    sendDate: { from: '2024-01-01', to: '2024-01-31' }, status: ['Draft', 'Accepted'], batch: ' L-7 ', material: 'mat-1', quantity: { from: '', to: '10' }, synced: 'false',
  };

  it('writes each filter as the report routes read it, leaving empty ones out', () => {
    expect(toParams(report.filters, values)).toEqual({
      'sendDate.from': '2024-01-01', 'sendDate.to': '2024-01-31', status: 'Draft,Accepted', batch: 'L-7', material: 'mat-1', 'quantity.max': '10', synced: 'false',
    });
    expect(toParams(report.filters, emptyFilters(report.filters))).toEqual({});
  });

  it('reads the parameters back to the same bar, ignoring parameters the report does not declare', () => {
    const params = new URLSearchParams({ ...toParams(report.filters, values), page: '3', customer: 'x' });
    expect(fromParams(report.filters, params)).toEqual({ ...values, batch: 'L-7' });
    expect(fromParams(report.filters, {})).toEqual(emptyFilters(report.filters));
  });

  it('keeps the sort in the address only when it is not the default, and reads the default back when absent', () => {
    expect(defaultSorting(report)).toEqual([{ id: 'sendDate', desc: true }]);
    expect(searchOf(report, values, defaultSorting(report))).not.toContain('sort=');
    const search = searchOf(report, values, [{ id: 'deliveryStatus', desc: false }, { id: 'shipmentID', desc: true }]);
    expect(new URLSearchParams(search).get('sort')).toBe('deliveryStatus,-shipmentID');
    expect(stateOfSearch(report, new URLSearchParams(search))).toEqual({ values: { ...values, batch: 'L-7' }, sorting: [{ id: 'deliveryStatus', desc: false }, { id: 'shipmentID', desc: true }] });
    expect(stateOfSearch(report, new URLSearchParams('')).sorting).toEqual([{ id: 'sendDate', desc: true }]);
  });

  it('drops sort columns that are unknown or not sortable', () => {
    expect(parseSort(report, '-products,nope,-sendDate')).toEqual([{ id: 'sendDate', desc: true }]);
  });

  it('flags inverted ranges and numbers that are not numbers before anything is sent', () => {
    expect(invalidFilters(report.filters, values)).toEqual([]);
    expect(invalidFilters(report.filters, { ...values, sendDate: { from: '2024-02-01', to: '2024-01-31' }, quantity: { from: '20', to: '10' } })).toEqual(['sendDate', 'quantity']);
    expect(invalidFilters(report.filters, { ...values, quantity: { from: 'abc', to: '' } })).toEqual(['quantity']);
    expect(invalidFilters(report.filters, { ...values, sendDate: { from: '2024-01-31', to: '2024-01-31' } })).toEqual([]);
  });
});

describe('saved filters', () => {
  it('saves the applied filters and sort under the trimmed name, and applying one restores exactly that', () => {
    const values = { ...emptyFilters(report.filters), status: ['Draft'], sendDate: { from: '2024-03-01', to: '' } };
    const body = savedFilterBody(report, '  March drafts ', values, [{ id: 'deliveryStatus', desc: true }]);
    expect(body).toEqual({ name: 'March drafts', filters: { status: 'Draft', 'sendDate.from': '2024-03-01' }, sort: '-deliveryStatus' });
    expect(applySaved(report, body)).toEqual({ values, sorting: [{ id: 'deliveryStatus', desc: true }] });
  });

  it('clears every filter the saved one does not name, ignores one the report dropped, and falls back to the default sort', () => {
    const applied = applySaved(report, { filters: { batch: 'L-1', gone: 'x' } });
    expect(applied.values).toEqual({ ...emptyFilters(report.filters), batch: 'L-1' });
    expect(applied.sorting).toEqual(defaultSorting(report));
  });
});

describe('export progress', () => {
  const run = (events: ExportEvent[], from: ExportState = IDLE) => events.reduce(exportStep, from);
  const job = (status: 'queued' | 'running' | 'done' | 'failed', extra = {}) => ({ id: 'e1', status, ...extra });

  it('starts, polls quickly then every second, and ends with the file', () => {
    let s = run([{ type: 'start' }]);
    expect(s.phase).toBe('starting');
    expect(nextPollDelay(s)).toBeNull();
    s = exportStep(s, { type: 'accepted', job: job('queued') });
    expect(s).toMatchObject({ phase: 'polling', attempt: 0 });
    expect(nextPollDelay(s)).toBe(250);
    s = exportStep(s, { type: 'polled', job: job('running', { rows: 500, total: 1000, progress: 0.5 }) });
    expect(nextPollDelay(s)).toBe(500);
    expect(s.phase === 'polling' && progressPercent(s.job)).toBe(50);
    s = run([{ type: 'polled', job: job('running', { rows: 900 }) }, { type: 'polled', job: job('running') }], s);
    expect(nextPollDelay(s)).toBe(1000);
    expect(s.phase === 'polling' && s.job.rows).toBe(900);
    s = exportStep(s, { type: 'polled', job: job('done', { rows: 1000, total: 1000, progress: 1, fileName: 'x' }) });
    expect(s).toMatchObject({ phase: 'done', job: { rows: 1000, fileName: 'x' } });
    expect(nextPollDelay(s)).toBeNull();
    expect(exportStep(s, { type: 'reset' })).toEqual(IDLE);
  });

  it('shows a failed job with its reason, and a refused start', () => {
    expect(run([{ type: 'start' }, { type: 'accepted', job: job('queued') }, { type: 'polled', job: job('failed', { error: 'interrupted' }) }]))
      .toMatchObject({ phase: 'failed', error: 'interrupted' });
    expect(run([{ type: 'start' }, { type: 'startFailed', error: 'You may not export this report' }])).toEqual({ phase: 'failed', error: 'You may not export this report' });
  });

  it('retries a lost poll after a pause but stops on a refused one', () => {
    const polling = run([{ type: 'start' }, { type: 'accepted', job: job('running') }]);
    const lost = exportStep(polling, { type: 'pollFailed', error: 'Network error', retry: true });
    expect(lost).toMatchObject({ phase: 'polling', retryError: 'Network error' });
    expect(nextPollDelay(lost)).toBe(RETRY_MS);
    expect(nextPollDelay(exportStep(lost, { type: 'polled', job: job('running') }))).toBe(1000);
    expect(exportStep(polling, { type: 'pollFailed', error: 'Export not found', retry: false })).toMatchObject({ phase: 'failed', error: 'Export not found' });
  });

  it('ignores a second start while one runs, a poll of another job, and a reset while running', () => {
    const polling = run([{ type: 'start' }, { type: 'accepted', job: job('running') }]);
    expect(exportStep(polling, { type: 'start' })).toBe(polling);
    expect(exportStep(polling, { type: 'polled', job: { id: 'other', status: 'done' } })).toBe(polling);
    expect(exportStep(polling, { type: 'reset' })).toBe(polling);
    expect(exportStep(IDLE, { type: 'accepted', job: job('queued') })).toBe(IDLE);
  });

  it('takes the share from rows and total when the server gives none', () => {
    expect(progressPercent({ id: 'x', status: 'running', rows: 1, total: 3 })).toBe(33);
    expect(progressPercent({ id: 'x', status: 'queued' })).toBe(0);
    expect(progressPercent({ id: 'x', status: 'running', progress: 1.2 })).toBe(100);
  });
});

describe('catalogue and links', () => {
  const manager = { access: ['Reports', 'Deliveries', 'Master Data'], groups: [], selectedWarehouse: null };

  it('lists only the reports the user may run, by category, searched without case or accents', () => {
    expect(catalogue(registry, manager, 'en').map((g) => [g.category, g.items.map((i) => i.key)])).toEqual([['product', ['deliveries_test']]]);
    expect(catalogue(registry, { ...manager, access: ['superadmin'] }, 'en').map((g) => g.category)).toEqual(['product', 'ibc']);
    expect(catalogue(registry, manager, 'fr', 'DÉLIVERIES (fr)').map((g) => g.items.length)).toEqual([1]);
    expect(catalogue(registry, manager, 'en', 'every delivery')[0].items[0]).toEqual({ key: 'deliveries_test', label: 'Deliveries', description: 'Every delivery' });
    expect(catalogue(registry, manager, 'en', 'nothing like it')).toEqual([]);
    expect(runnableReport(registry, manager, 'ibc_only')).toBeUndefined();
    expect(runnableReport(registry, { access: [] }, 'deliveries_test')).toBeUndefined();
  });

  it('opens a conditional action in the workflow feature that lists all its states, only when the row meets `when`', () => {
    const routes = buildRouteTable(registry);
    const allowed = routesFor(routes, manager, registry.access.superadmin);
    const action = report.columns[1].action;
    const target = actionGoTo({ registry, allowed }, action, { id: 'd-1', deliveryStatus: 'Accepted' });
    const feature = registry.features.features.find((f) => f.id === target?.type);
    expect(feature?.operation).toMatchObject({ workflow: 'delivery' });
    expect(feature?.operation?.states).toBeUndefined();
    expect(target?.query).toEqual({ id: 'd-1' });
    expect(actionGoTo({ registry, allowed }, action, { id: 'd-1', deliveryStatus: 'Draft' })).toBeNull();
    expect(actionGoTo({ registry, allowed }, action, { deliveryStatus: 'Accepted' })).toBeNull();
    expect(actionGoTo({ registry, allowed: [] }, action, { id: 'd-1', deliveryStatus: 'Accepted' })).toBeNull();
    expect(actionApplies({ 'a.b': 1 }, { a: { b: 1 } })).toBe(true);
  });

  it('hands the print view the report and its filters, and reads them back as its own address', () => {
    const allowed = routesFor(buildRouteTable(registry), manager, registry.access.superadmin);
    const go = printGoTo({ registry, allowed }, 'deliveries_test', 'status=Draft&sendDate.from=2024-01-01');
    expect(go).toEqual({ type: 'generate-report', query: { report: 'deliveries_test', status: 'Draft', 'sendDate.from': '2024-01-01' } });
    expect(printPathOf('?report=deliveries_test&status=Draft&sendDate.from=2024-01-01')).toBe('/deliveries_test?status=Draft&sendDate.from=2024-01-01');
    expect(printPathOf('?status=Draft')).toBeNull();
    expect(printGoTo({ registry, allowed: [] }, 'deliveries_test', '')).toBeNull();
  });

  it('finds the report features of the definitions', () => {
    expect(reportFeature(registry, 'reports')?.report).toEqual({ view: 'catalogue' });
    expect(reportFeature(registry, 'alerts')?.report).toEqual({ view: 'single', key: 'get_alerts_data' });
    expect(reportFeature(registry, 'imports')).toBeNull();
  });
});

describe('cells, pager and schedules', () => {
  it('shows each column type as its text, a status by its label in the language', () => {
    const cols = reportColumns(registry, report, 'en');
    const row = { sendDate: '2024-01-05T10:00:00.000Z', shipmentID: 'S-1', productData: [{ batchId: 'L1' }, { batchId: 'L2' }], deliveryStatus: 'Accepted' };
    const received = registry.workflows.delivery.states.find((s) => s.id === 'Accepted');
    expect(received).toBeDefined();
    expect(cols.map((c) => cellText(c, row))).toEqual(['2024-01-05', 'S-1', 'L1; L2', received?.label.en]);
    expect(cols.map((c) => cellText(c, {}))).toEqual(['', '', '', '']);
    expect(cellText(reportColumns(registry, report, 'es')[3], row)).toBe(received?.label.es);
  });

  it('counts the rows proven so far until the count arrives, one more when the server has more', () => {
    expect(provisionalTotal(0, 20, true)).toBe(21);
    expect(provisionalTotal(2, 7, false)).toBe(47);
  });

  it('schedules with a weekday only when weekly', () => {
    expect(scheduleBody('daily', 3, 6, { status: 'Draft' })).toEqual({ frequency: 'daily', hour: 6, filters: { status: 'Draft' } });
    expect(scheduleBody('weekly', 3, 6, {}, '-sendDate')).toEqual({ frequency: 'weekly', weekday: 3, hour: 6, filters: {}, sort: '-sendDate' });
  });
});

describe('report screen texts', () => {
  it('has every key the screens use in English, Spanish and French', () => {
    const dir = 'web/src/reports';
    const sources = readdirSync(dir).filter((f) => f.endsWith('.tsx')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    const literal = [...sources.matchAll(/'(reports\.[\w.]+)'/g)].map((m) => m[1]);
    const built = [...['product', 'ibc', 'bulk', 'other'].map((c) => `reports.category.${c}`), ...[0, 1, 2, 3, 4, 5, 6].map((d) => `reports.schedule.weekday.${d}`)];
    expect(literal.length).toBeGreaterThan(40);
    for (const lang of ['en', 'es', 'fr']) {
      const b = JSON.parse(readFileSync(`schemas/i18n/${lang}.json`, 'utf8')) as Record<string, string>;
      expect([...new Set([...literal, ...built])].filter((k) => b[k] === undefined), lang).toEqual([]);
    }
  });
});
