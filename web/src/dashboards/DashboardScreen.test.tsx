// @vitest-environment happy-dom
import { act } from 'react';
import { HashRouter } from 'react-router-dom';
import type { i18n as I18n } from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { buildMenu, buildRouteTable, routesFor, type Lang, type WarehouseGroup, type WidgetData } from '../../../engine/src/index';
import { ApiClient } from '../api/client';
import type { Services } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { createI18n } from '../i18n/i18n';
import { mountRoot } from '../masterdata/domTesting';
import type { ShellValue } from '../shell/shellContext';
import en from '../../../schemas/i18n/en.json';
import es from '../../../schemas/i18n/es.json';
import DashboardScreen from './DashboardScreen';
import { dashboardsApi } from './api';
import { dashboardFeature, localToday } from './model';
import { hashSearch, prefetchWidgets } from './prefetch';
import { InShell } from '../masterdata/InShell';

const registry = requireDefinitions(process.cwd());
const feature = dashboardFeature(registry, 'dashboards')!;
const ACCESS = ['Dashboards', 'Reports'];

type Answer = { status: number; body: unknown };
/**
 * The widget data route as the server answers it (server/src/dashboards proves the server side):
 * each request waits until the test answers it, so the order widgets paint in is the test's.
 */
function widgetServer() {
  const waiting: { url: URL; headers: Headers; answer: (a: Answer) => void }[] = [];
  const fetchFn = (url: RequestInfo | URL, init?: RequestInit) => new Promise<Response>((resolve) => {
    waiting.push({
      url: new URL(String(url), 'http://app.test'), headers: new Headers(init?.headers),
      answer: (a) => resolve(new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } })),
    });
  });
  const widgetOf = (u: URL) => /\/widgets\/([^/]+)\/data$/.exec(u.pathname)?.[1];
  return {
    fetchFn, waiting,
    /** Answers the waiting requests of a widget. */
    answer: async (widget: string, a: Answer) => {
      const hits = waiting.filter((w) => widgetOf(w.url) === widget);
      for (const w of hits) waiting.splice(waiting.indexOf(w), 1);
      await act(async () => { for (const w of hits) w.answer(a); await new Promise((r) => setTimeout(r, 0)); });
      return hits;
    },
    widgets: () => waiting.map((w) => widgetOf(w.url)),
  };
}

const ok = (data: WidgetData & Record<string, unknown>): Answer => ({ status: 200, body: data });
const refused: Answer = { status: 403, body: { error: { code: 'FORBIDDEN', message: 'You do not have the Reports access this needs', details: [], params: { key: 'Reports' } } } };

const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });
const i18ns = new Map<Lang, Promise<I18n>>();
const i18nOf = (lang: Lang) => i18ns.get(lang) ?? i18ns.set(lang, createI18n({ en, es }, lang)).get(lang)!;

/**
 * The screen as the frame draws it. `early` first does what the feature host does when the
 * definitions arrive: it asks the widgets' data from the address `hash`, in the group `early.group`.
 */
async function mount(lang: Lang = 'en', warehouse: WarehouseGroup | null = null, early?: { hash: string; group: string | null }) {
  // Filters live in the frame's address: each test starts at the dashboard's defaults.
  window.location.hash = early?.hash ?? '';
  const server = widgetServer();
  let group = early ? early.group : warehouse?.name ?? null;
  const api = new ApiClient({ deploymentName: 'agro', cacheTtlMs: 0, token: () => 't', warehouseGroup: () => group, storage: null, fetchFn: server.fetchFn as typeof fetch });
  if (early) {
    prefetchWidgets(registry, feature.id, dashboardsApi(api), hashSearch(window.location.hash), group);
    group = warehouse?.name ?? null;
  }
  const services = { api, config: { deployment: { settings: registry.deployment.settings } } } as unknown as Services;
  const routes = buildRouteTable(registry, lang);
  const principal = { access: ACCESS, groups: [], selectedWarehouse: null };
  const allowed = routesFor(routes, principal, registry.access.superadmin);
  const shell: ShellValue = { registry, lang, routes, principal, allowed, menu: buildMenu(registry, routes, principal, lang) };
  const goTos: GoToPayload[] = [];
  const i18n = await i18nOf(lang);
  const root = mountRoot();
  mounted.push(root.unmount);
  const draw = (w: WarehouseGroup | null) => root.render(
    <InShell i18n={i18n} services={services} shell={shell}>
      <HashRouter><DashboardScreen feature={feature} warehouse={w} warehouseName={w?.name ?? null} goTo={(p) => goTos.push(p)} /></HashRouter>
    </InShell>,
  );
  await act(async () => { draw(warehouse); });
  const select = async (w: WarehouseGroup | null) => { group = w?.name ?? null; await act(async () => { draw(w); }); };
  return { ...root, server, goTos, select };
}

const card = (c: HTMLElement, id: string) => c.querySelector<HTMLElement>(`[data-testid=widget][data-widget=${id}]`)!;
const home = registry.dashboards.home;

describe('a dashboard in the feature frame', () => {
  it('asks every widget\'s data at once, with this month as the period, and paints each as it comes, skeletons meanwhile', async () => {
    const { container, server } = await mount();
    expect(server.widgets().sort()).toEqual(home.widgets.map((w) => w.id).sort());
    const today = localToday();
    for (const w of server.waiting) expect(Object.fromEntries(w.url.searchParams)).toEqual({ 'period.from': `${today.slice(0, 7)}-01`, 'period.to': today });
    expect(container.querySelectorAll('[data-testid=widget-skeleton]')).toHaveLength(home.widgets.length);

    await server.answer('declarationsOverdue', ok({ kind: 'kpi', value: 3, state: 'bad' }));
    const overdue = card(container, 'declarationsOverdue');
    expect(overdue.dataset.state).toBe('ready');
    expect(overdue.querySelector('[data-testid=widget-kpi]')!.textContent).toBe('3');
    expect(overdue.querySelector('.tm-dash-kpi--bad')).not.toBeNull();
    expect(overdue.textContent).toContain('Goal: at most 0');
    // The others still wait, each in its own skeleton.
    expect(container.querySelectorAll('[data-testid=widget-skeleton]')).toHaveLength(home.widgets.length - 1);

    await server.answer('ibcsOverdue', ok({ kind: 'kpi', value: 0, state: 'good' }));
    expect(card(container, 'ibcsOverdue').querySelector('.tm-dash-kpi--good')).not.toBeNull();
    await server.answer('shipments', refused);
    expect(card(container, 'shipments').dataset.state).toBe('forbidden');
    expect(card(container, 'shipments').querySelector('[data-testid=widget-forbidden]')!.textContent).toContain('You do not have access to the data of this widget');
  });

  it('draws a chart with ECharts, a map with Leaflet and a table with the report\'s cells', async () => {
    const { container, server } = await mount();
    await server.answer('stockByDeposit', ok({
      kind: 'chart', more: 2,
      categories: [{ key: 'd1', label: 'Depósito Norte' }, { key: 'd2', label: 'Depósito Sur' }],
      series: [{ key: 'kg', label: 'Kilogram', values: [1200, 300] }, { key: 'l', label: 'Litre', values: [50, 0] }],
    }));
    const chart = await waitFor(() => card(container, 'stockByDeposit').querySelector<HTMLElement>('[data-testid=widget-chart][data-painted=true]'));
    expect(chart.getAttribute('aria-label')).toBe('Stock by deposit: Depósito Norte 1,200 / 50, Depósito Sur 300 / 0');
    expect(chart.querySelector('svg')).not.toBeNull();
    expect(card(container, 'stockByDeposit').textContent).toContain('2 smaller categories not shown');

    await server.answer('stockMap', ok({ kind: 'map', unplaced: 40, points: [{ key: 'd1', label: 'Depósito Norte', lat: -32.9, lng: -60.6, value: 1250, series: [] }, { key: 'd2', label: 'Depósito Sur', lat: -38.7, lng: -62.3, value: 300, series: [] }] }));
    const map = await waitFor(() => card(container, 'stockMap').querySelector<HTMLElement>('[data-testid=widget-map][data-painted=true]'));
    expect(map.dataset.points).toBe('d1,d2');
    expect(map.querySelectorAll('path.leaflet-interactive')).toHaveLength(2);
    expect(card(container, 'stockMap').querySelector('[data-testid=widget-unplaced]')!.textContent).toBe('40 more at places with no coordinates');

    await server.answer('receptionsTable', ok({
      kind: 'table', hasMore: true,
      rows: [{ id: 'x1', sendDate: '2026-03-02T10:00:00Z', remitoNo: 'R-1', productName: 'Glifosato 48%', amount: 1200, uom: 'L', sourceDepositName: 'Planta', receiverDepositName: 'Norte', deliveryStatus: 'In-Progress' }],
    }));
    const table = card(container, 'receptionsTable').querySelector('[data-testid=widget-table]')!;
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Send date', 'Remito no.', 'Product', 'Sent', 'Unit', 'Source deposit', 'Receiver deposit']);
    expect([...table.querySelectorAll('[data-testid=widget-row] td')].map((td) => td.textContent)).toEqual(['2026-03-02', 'R-1', 'Glifosato 48%', '1200', 'L', 'Planta', 'Norte']);
    expect(table.textContent).toContain('The first row; open the report for all');
  });

  it('applies the filter bar: every widget asks again with the period chosen; an inverted period is not applied', async () => {
    const { container, server } = await mount();
    for (const id of home.widgets.map((w) => w.id)) await server.answer(id, ok({ kind: 'kpi', value: 1 }));
    const input = (id: string) => container.querySelector<HTMLInputElement>(`[data-testid=dashboard-filter-period-${id}]`)!;
    await act(async () => { setInput(input('from'), '2026-02-10'); setInput(input('to'), '2026-02-01'); });
    expect(container.querySelector('[data-testid=dashboard-filters] [role=alert]')).not.toBeNull();
    expect(container.querySelector<HTMLButtonElement>('[data-testid=dashboard-apply]')!.disabled).toBe(true);
    await act(async () => { setInput(input('to'), '2026-02-28'); });
    await act(async () => { container.querySelector<HTMLButtonElement>('[data-testid=dashboard-apply]')!.click(); });
    expect(server.widgets().sort()).toEqual(home.widgets.map((w) => w.id).sort());
    for (const w of server.waiting) expect(w.url.searchParams.get('period.from')).toBe('2026-02-10');
    // The frame's address keeps them: a reload asks the same.
    expect(window.location.hash).toContain('period.from=2026-02-10&period.to=2026-02-28');
    expect(container.querySelectorAll('[data-testid=widget-skeleton]')).toHaveLength(home.widgets.length);
  });

  it('asks again in the warehouse group selected, whose deposits fill the deposit filter', async () => {
    const { container, server, select } = await mount();
    for (const id of home.widgets.map((w) => w.id)) await server.answer(id, ok({ kind: 'kpi', value: 1 }));
    expect(server.waiting).toHaveLength(0);
    await select({ name: 'North Hub', warehouseList: [{ id: 'd1', optchainId: 'd1', name: 'Norte', label: 'Norte (D1)', plantId: null }] });
    expect(server.waiting).toHaveLength(home.widgets.length);
    for (const w of server.waiting) expect(decodeURIComponent(w.headers.get('x-warehouse-group')!)).toBe('North Hub');
    expect(container.querySelector('[data-testid=dashboard-filter-deposit]')!.className).toContain('p-dropdown');
  });

  it('a link opens the widget\'s report with the widget\'s filters (goTo)', async () => {
    const { container, goTos } = await mount();
    await act(async () => { card(container, 'shipments').querySelector<HTMLButtonElement>('[data-testid=widget-link]')!.click(); });
    const today = localToday();
    expect(goTos).toEqual([{ type: 'reports', query: { report: 'shipment_history', 'date.from': `${today.slice(0, 7)}-01`, 'date.to': today } }]);
    // A feature this user may not open gets no link (the IBC fleet needs Assets).
    expect(card(container, 'ibcsAtCustomers').querySelector('[data-testid=widget-link]')).toBeNull();
  });

  it('takes the answers the frame asked for before it mounted: each widget asked once, with the address\'s period, and painted from that answer', async () => {
    const { container, server } = await mount('en', null, { hash: '#/?period.from=2026-02-10&period.to=2026-02-28', group: null });
    expect(server.widgets().sort()).toEqual(home.widgets.map((w) => w.id).sort());
    for (const w of server.waiting) expect(Object.fromEntries(w.url.searchParams)).toEqual({ 'period.from': '2026-02-10', 'period.to': '2026-02-28' });
    await server.answer('declarationsOverdue', ok({ kind: 'kpi', value: 7, state: 'bad' }));
    expect(card(container, 'declarationsOverdue').querySelector('[data-testid=widget-kpi]')!.textContent).toBe('7');
    await server.answer('shipments', refused);
    expect(card(container, 'shipments').dataset.state).toBe('forbidden');
    // Taken once: a later change of the bar asks every widget again, as without the early answers.
    await act(async () => { container.querySelector<HTMLButtonElement>('[data-testid=dashboard-reset]')!.click(); });
    const month = `${localToday().slice(0, 7)}-01`;
    expect(server.waiting.filter((w) => w.url.searchParams.get('period.from') === month).map((w) => /\/widgets\/([^/]+)\//.exec(w.url.pathname)![1]).sort())
      .toEqual(home.widgets.map((w) => w.id).sort());
  });

  it('does not take early answers asked in another warehouse group: it asks again in its own', async () => {
    const north = { name: 'North Hub', warehouseList: [] };
    const { container, server } = await mount('en', north, { hash: '', group: 'South Hub' });
    const asked = (g: string) => server.waiting.filter((w) => decodeURIComponent(w.headers.get('x-warehouse-group') ?? '') === g).length;
    expect(asked('South Hub')).toBe(home.widgets.length);
    expect(asked('North Hub')).toBe(home.widgets.length);
    await server.answer('declarationsOverdue', ok({ kind: 'kpi', value: 2 }));
    expect(card(container, 'declarationsOverdue').querySelector('[data-testid=widget-kpi]')!.textContent).toBe('2');
  });

  it('reads in Spanish: the definition\'s titles, the screen\'s texts, a chart\'s state labels', async () => {
    const { container, server } = await mount('es');
    expect(card(container, 'declarationsOverdue').querySelector('h2')!.textContent).toBe('Declaraciones vencidas');
    await server.answer('shipments', refused);
    expect(card(container, 'shipments').textContent).toContain('No tiene acceso a los datos de este indicador');
    await server.answer('shipmentsByDay', ok({
      kind: 'chart', more: 0, categories: [{ key: '2026-03-01', label: '2026-03-01' }],
      series: [{ key: 'In-Progress', label: { en: 'In progress', es: 'En curso', fr: 'En cours' }, values: [1500] }],
    }));
    const chart = await waitFor(() => card(container, 'shipmentsByDay').querySelector<HTMLElement>('[data-testid=widget-chart][data-painted=true]'));
    expect(chart.getAttribute('aria-label')).toBe('Envíos por día: 2026-03-01 1500');
    expect(container.querySelector('[data-testid=dashboard-reset]')!.textContent).toBe('Restablecer');
  });
});

/** Types into a controlled input as a user does (React listens to the native setter). */
function setInput(el: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Lets lazy chunks load and effects run until `find` finds its element. */
async function waitFor<T>(find: () => T | null | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const hit = find();
    if (hit) return hit;
    if (Date.now() > end) throw new Error('not found in time');
    await act(async () => { await new Promise((r) => setTimeout(r, 20)); });
  }
}
