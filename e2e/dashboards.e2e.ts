import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { CONFIGURED_WIDGETS, DASHBOARD_DAYS, DASHBOARD_USERS, HUB_MANAGER, addConfiguredWidgets, seedDashboards } from './harness/dashboardsSeed';
import { actor, startStoryServer, type Actor, type StoryServer } from './operationSteps';
import { openBrowser, screenshot } from './support';

/**
 * Issue 19's dashboards, in Chromium: a quality manager signs in and lands on the home dashboard
 * (/dashboards, the highest home priority) over the demo activity of the last DASHBOARD_DAYS
 * days; its KPIs are what the API says, its chart and map are drawn, and so are the widgets a
 * configurator added to home.json by a JSON edit (the story's server runs on that edited copy).
 * A widget's link opens its report; the maps of order tracking, production and inventory draw;
 * a widget whose report is not the user's says so in its slot; the Spanish reader reads Spanish.
 */
let story: StoryServer;
let browser: Browser;
let manager: Actor;

beforeAll(async () => {
  const t = performance.now();
  story = await startStoryServer(21, 'tm-e2e-dashboards-', seedDashboards, {
    // The sync worker would change the outbox between the screen and the API's answer; no tiles offline.
    env: { SYNC_WORKER: 'off' },
    deployment: (d) => { d.settings.map = { ...d.settings.map, tileUrl: '' }; },
    definitions: addConfiguredWidgets,
  });
  console.log(`dashboards story: ${DASHBOARD_DAYS} days of demo activity seeded, server up after ${((performance.now() - t) / 1000).toFixed(1)} s`);
  browser = await openBrowser();
}, 900_000);

afterAll(async () => {
  if (manager) await screenshot(manager.page, 'dashboards-last').catch(() => undefined);
  await browser?.close();
  await story?.stop();
});

const frameOf = (page: Page) => page.frameLocator('iframe[data-feature]');
const card = (fr: FrameLocator, id: string) => fr.locator(`[data-testid=widget][data-widget=${id}]`);

/** Waits until no widget of the dashboard is still loading. */
async function settled(fr: FrameLocator, key: string): Promise<void> {
  await fr.locator(`[data-testid=dashboard-screen][data-dashboard=${key}]`).waitFor({ timeout: 30_000 });
  await expect.poll(() => fr.locator('[data-testid=widget][data-state=loading]').count(), { timeout: 60_000, interval: 250 }).toBe(0);
}

/** The period the screen shows, as the routes' query. */
async function periodOf(fr: FrameLocator): Promise<string> {
  const from = await fr.locator('[data-testid=dashboard-filter-period-from]').inputValue();
  const to = await fr.locator('[data-testid=dashboard-filter-period-to]').inputValue();
  return `period.from=${from}&period.to=${to}`;
}

/** A signed-in user's bearer header. */
async function bearer(user: { email: string; password: string }): Promise<{ authorization: string }> {
  const signed = await fetch(`${story.server.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
  return { authorization: `Bearer ${((await signed.json()) as { token: string }).token}` };
}

/** A dashboard's data as the API answers the same user (within the warehouse group `group`, when given). */
async function apiData(user: { email: string; password: string }, key: string, query: string, group?: string): Promise<Map<string, Record<string, unknown>>> {
  const headers = { ...(await bearer(user)), ...(group ? { 'x-warehouse-group': encodeURIComponent(group) } : {}) };
  const res = await fetch(`${story.server.url}/api/v3/dashboards/${key}/data?${query}`, { headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { widgets: { id: string; status: number; data?: Record<string, unknown> }[] };
  return new Map(body.widgets.map((w) => [w.id, { status: w.status, ...w.data }]));
}

describe('the dashboards story', () => {
  it('the quality manager signs in and lands on the home dashboard: the KPIs are what the API says, a chart and a map are drawn', async () => {
    manager = await actor(browser, story.server.url, DASHBOARD_USERS.manager, 'en');
    const { page } = manager;
    await page.waitForURL((u) => u.pathname === '/dashboards');
    const fr = frameOf(page);
    await settled(fr, 'home');
    const api = await apiData(DASHBOARD_USERS.manager, 'home', await periodOf(fr));
    const kpis = await fr.locator('[data-testid=widget][data-type=kpi]').evaluateAll((els) => els.map((e) => e.getAttribute('data-widget')!));
    expect(kpis).toEqual(expect.arrayContaining(['pendingReceptions', 'declarationsDue', 'declarationsOverdue', 'shipments', 'ibcsAtCustomers', 'ibcsOverdue', 'draftShipments']));
    for (const id of kpis) {
      expect(api.get(id)!.status, id).toBe(200);
      expect(Number(await card(fr, id).locator('[data-testid=widget-kpi]').getAttribute('data-value')), id).toBe(api.get(id)!.value);
    }
    // Some work this month: shipments and IBCs out at customers.
    expect(api.get('shipments')!.value).toBeGreaterThan(0);
    expect(api.get('ibcsAtCustomers')!.value).toBeGreaterThan(0);
    // The overdue count's goal is zero: green at zero, red above.
    const overdue = api.get('declarationsOverdue')!;
    await expect.poll(() => card(fr, 'declarationsOverdue').locator(`.tm-dash-kpi--${overdue.value === 0 ? 'good' : 'bad'}`).count()).toBe(1);

    const chart = card(fr, 'stockByDeposit').locator('[data-testid=widget-chart][data-painted=true]');
    await chart.waitFor({ timeout: 30_000 });
    expect(await chart.locator('svg path').count()).toBeGreaterThan(0);
    const categories = (api.get('stockByDeposit')!.categories as { label: string }[]).map((c) => c.label);
    expect(await chart.getAttribute('aria-label')).toContain(categories[0]);
    const map = card(fr, 'stockMap').locator('[data-testid=widget-map][data-painted=true]');
    await map.waitFor({ timeout: 30_000 });
    const points = api.get('stockMap')!.points as { key: string }[];
    expect(points.length).toBeGreaterThan(0);
    expect(await map.getAttribute('data-points')).toBe(points.map((p) => p.key).join(','));
    expect(await map.locator('path.leaflet-interactive').count()).toBe(points.length);
    await card(fr, 'shipmentsByDay').locator('[data-testid=widget-chart][data-painted=true]').waitFor();
    expect(await card(fr, 'receptionsTable').locator('[data-testid=widget-row]').count()).toBe((api.get('receptionsTable')!.rows as unknown[]).length);
    await screenshot(page, 'dashboards-1-home');
  }, 300_000);

  it('draws the widgets a configurator added to home.json, with no code change', async () => {
    const fr = frameOf(manager.page);
    const api = await apiData(DASHBOARD_USERS.manager, 'home', await periodOf(fr));
    const [kpi, chart] = CONFIGURED_WIDGETS;
    expect(await card(fr, kpi.id).locator('h2').innerText()).toBe(kpi.title.en);
    expect(Number(await card(fr, kpi.id).locator('[data-testid=widget-kpi]').getAttribute('data-value'))).toBe(api.get(kpi.id)!.value);
    const drafts = api.get(chart.id)!.categories as unknown[];
    await expect.poll(() => card(fr, chart.id).locator(drafts.length ? '[data-testid=widget-chart][data-painted=true]' : '[data-testid=widget-empty]').count(), { timeout: 30_000 }).toBe(1);
  });

  it('a widget\'s link opens its report in the reports feature, with the widget\'s filters', async () => {
    const { page } = manager;
    await card(frameOf(page), 'shipments').locator('[data-testid=widget-link]').click();
    await page.waitForURL((u) => u.pathname === '/reports');
    const fr = frameOf(page);
    await fr.locator('[data-testid=report-view][data-report=shipment_history]').waitFor({ timeout: 30_000 });
    const from = await fr.locator('[data-testid=report-filter-date-from]').inputValue();
    expect(from).toMatch(/^\d{4}-\d{2}-01$/);
    await screenshot(page, 'dashboards-2-report');
  }, 120_000);

  it('order tracking, the production map and inventory geotracking draw their maps; the overview says which widgets are not the user\'s', async () => {
    const { page } = manager;
    for (const [path, key, map] of [['/order-tracking', 'order_tracking', 'inTransitMap'], ['/production-map', 'production_map', 'plants'], ['/inventory-geotracking', 'inventory_geotracking', 'ibcMap']] as const) {
      await page.goto(path);
      const fr = frameOf(page);
      await settled(fr, key);
      expect(await card(fr, map).getAttribute('data-state'), key).toBe('ready');
      await card(fr, map).locator('[data-testid=widget-map][data-painted=true]').waitFor();
      await screenshot(page, `dashboards-3-${key}`);
    }
    await page.goto('/operational_overview');
    const fr = frameOf(page);
    await settled(fr, 'operational_overview');
    // Alerts need the Alerts key, which a quality manager here does not hold: refused in its slot, the others drawn.
    expect(await card(fr, 'alertsBySeverity').getAttribute('data-state')).toBe('forbidden');
    expect(await card(fr, 'alertsBySeverity').innerText()).toContain('You do not have access to the data of this widget');
    expect(await card(fr, 'outbox').getAttribute('data-state')).toBe('ready');
  }, 300_000);

  it('a manager in warehouse groups who never chose one sees the first group\'s figures: the one the shell shows, saved for every screen', async () => {
    const groups = await fetch(`${story.server.url}/api/customer/groups`, { headers: await bearer(HUB_MANAGER) }).then((r) => r.json()) as { data: { wareHouses: { name: string }[] } };
    const [first, second] = groups.data.wareHouses.map((g) => g.name);
    expect(second).toBeDefined();
    const hub = await actor(browser, story.server.url, HUB_MANAGER, 'en');
    try {
      const { page } = hub;
      const asked: (string | null)[] = [];
      page.on('request', (r) => {
        if (!r.url().includes('/widgets/')) return;
        const h = r.headers()['x-warehouse-group'];
        asked.push(h ? decodeURIComponent(h) : null);
      });
      await page.goto('/dashboards');
      await page.locator('[data-testid=warehouse-selector]').waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-testid=warehouse-selector] .p-dropdown-label').innerText()).toBe(first);
      expect(await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith('.selectedWarehouse'))?.[1])).toBe(first);
      const fr = frameOf(page);
      await settled(fr, 'home');
      // The figures are the group's, as the API answers within it (and not the company's, which differ).
      const period = await periodOf(fr);
      const mine = await apiData(HUB_MANAGER, 'home', period, first);
      const all = await apiData(HUB_MANAGER, 'home', period);
      const kpis = await fr.locator('[data-testid=widget][data-type=kpi]').evaluateAll((els) => els.map((e) => e.getAttribute('data-widget')!));
      for (const id of kpis) expect(Number(await card(fr, id).locator('[data-testid=widget-kpi]').getAttribute('data-value')), id).toBe(mine.get(id)!.value);
      expect(kpis.some((id) => mine.get(id)!.value !== all.get(id)!.value)).toBe(true);
      // Once saved, the frame starts in the group: after a reload no widget is asked outside it.
      asked.length = 0;
      await page.reload();
      await settled(frameOf(page), 'home');
      expect(asked.length).toBeGreaterThan(0);
      expect(new Set(asked)).toEqual(new Set([first]));
    } finally {
      await hub.context.close();
    }
  }, 300_000);

  it('the Spanish reader lands on the same dashboard in Spanish', async () => {
    const spanish = await actor(browser, story.server.url, DASHBOARD_USERS.spanish, 'es');
    try {
      await spanish.page.waitForURL((u) => u.pathname === '/dashboards');
      const fr = frameOf(spanish.page);
      await settled(fr, 'home');
      expect(await card(fr, 'pendingReceptions').locator('h2').innerText()).toBe('Recepciones pendientes');
      expect(await card(fr, 'declarationsOverdue').locator('h2').innerText()).toBe('Declaraciones vencidas');
      expect(await fr.locator('[data-testid=dashboard-filters] legend').innerText()).toBe('Período');
      expect(await fr.locator('[data-testid=dashboard-reset]').innerText()).toBe('Restablecer');
      expect(await card(fr, 'declarationsOverdue').innerText()).toContain('Objetivo: como máximo 0');
      const chart = card(fr, 'stockByDeposit').locator('[data-testid=widget-chart][data-painted=true]');
      await chart.waitFor({ timeout: 30_000 });
      expect(await chart.getAttribute('aria-label')).toMatch(/^Stock por depósito: /);
      await screenshot(spanish.page, 'dashboards-4-home-es');
    } finally {
      await spanish.context.close();
    }
  }, 300_000);
});
