import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildMenu, buildRouteTable, routesFor, type Registry } from '../engine/src/index';
import { USERS } from './harness/users';
import { bearer, editJsonResponse, env, newSession, openBrowser, profileLanguage, screenshot, seriousViolations, setProfileLanguage, signedInSession, signIn } from './support';

let browser: Browser;
let registry: Registry;

beforeAll(async () => {
  browser = await openBrowser();
  const res = await fetch(`${env.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USERS.admin.email, password: USERS.admin.password }) });
  const { token } = (await res.json()) as { token: string };
  registry = (await (await fetch(`${env.base}/api/config`, { headers: { authorization: `Bearer ${token}` } })).json()) as Registry;
});
/** Users whose profile language a test changes: set back to English after it, even when it failed half way. */
let touched: { email: string; password: string }[] = [];
afterEach(async () => {
  for (const user of touched) await setProfileLanguage(await bearer(user.email, user.password), 'en');
  touched = [];
});
afterAll(async () => {
  await browser?.close();
});

const topLevelIds = (page: Page) => page.locator('.tm-nav > li > [data-menu-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-id')));

describe('shell', () => {
  it('shows the header, the menu and the home feature after sign-in, with no serious accessibility violations', async () => {
    const { page, context, errors } = await signedInSession(browser, USERS.admin);
    await page.waitForURL('**/dashboards');
    await page.locator('iframe[data-feature=dashboards]').waitFor();
    await page.locator('.tm-progress[data-state=idle]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.tm-progress .p-progressbar-determinate, .tm-progress.p-progressbar-determinate').count()).toBeGreaterThan(0);
    expect(await page.locator('.tm-nav > li > [data-menu-id=dashboards]').getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'shell');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('builds a limited user\'s menu from their access, unlike the superadmin\'s', async () => {
    const routes = buildRouteTable(registry, 'en');
    const expected = (access: string[]) => buildMenu(registry, routes, { access }, 'en').map((m) => m.id);
    const admin = await signedInSession(browser, USERS.admin);
    expect(await topLevelIds(admin.page)).toEqual(expected(['superadmin']));
    await admin.context.close();

    const limited = await signedInSession(browser, USERS.limited);
    const ids = await topLevelIds(limited.page);
    expect(ids).toEqual(expected([...USERS.limited.access]));
    expect(ids).not.toContain('administration');
    expect(ids.length).toBeLessThan(expected(['superadmin']).length);
    // A route outside the user's access is not found.
    await limited.page.goto('/masterdata');
    await limited.page.locator('[data-testid=not-found]').waitFor();
    await limited.context.close();
  });

  it('reaches every deployed feature\'s route from the menu', async () => {
    const { page, context, errors } = await signedInSession(browser, USERS.admin);
    const routes = routesFor(buildRouteTable(registry, 'en'), { access: ['superadmin'] });
    const menu = buildMenu(registry, buildRouteTable(registry, 'en'), { access: ['superadmin'] }, 'en');
    let visited = 0;
    for (const group of menu) {
      const items = group.children ?? [group];
      if (group.children) {
        const toggle = page.locator(`.tm-nav > li > [data-menu-id="${group.id}"]`);
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      }
      for (const item of items) {
        const route = routes.find((r) => r.id === item.id)!;
        if (route.newTab) continue;
        await page.locator(`a[data-menu-id="${item.id}"]`).click();
        await page.waitForURL((u) => u.pathname === route.path);
        if (route.render === 'external') await page.locator(`iframe[data-feature="${route.id}"]`).waitFor();
        // Generated screens: the placeholder, the master-data catalogue or list, or any other registered screen's page frame.
        else if (route.render === 'generated') await page.locator('[data-testid=placeholder-screen], [data-testid=catalogue], [data-testid=catalogue-empty], [data-testid=entity-list], .tm-page').first().waitFor();
        else await page.locator('.tm-page, .tm-empty').first().waitFor();
        visited++;
      }
    }
    const deployed = routes.filter((r) => r.kind === 'feature' && !r.noMenu && !r.newTab).length;
    expect(visited).toBeGreaterThanOrEqual(deployed);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches the interface to Spanish from the language menu', async () => {
    touched.push(USERS.admin);
    const { page, context } = await signedInSession(browser, USERS.admin);
    expect(await page.locator('.tm-nav > li > [data-menu-id=dashboards]').innerText()).toBe('Dashboards');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/profile') && r.request().method() === 'PUT');
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect.poll(() => page.locator('.tm-nav > li > [data-menu-id=dashboards]').innerText()).toBe('Paneles');
    expect((await saved).ok()).toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.locator('[data-testid=user-button]').click();
    expect(await page.getByRole('menuitem', { name: 'Cerrar sesión' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    // French falls back to English where it has no translation.
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Francés' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('[data-testid=language-button]').innerText()).toContain('FR');
    // The menu saved Spanish to the admin's profile; French is no profile language (SPEC 3.3:
    // English or Spanish), so it stays this browser's. Back to English for the tests after this one.
    const token = await bearer(USERS.admin.email, USERS.admin.password);
    expect(await profileLanguage(token)).toBe('es');
    await setProfileLanguage(token, 'en');
    await context.close();
  });

  it('opens the menu with the burger and closes it with the mask on a small screen', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin, { width: 390, height: 844 });
    const nav = page.locator('[data-testid=side-menu]');
    expect(await nav.isVisible()).toBe(false);
    await page.locator('[data-testid=burger]').click();
    await page.locator('[data-testid=menu-mask]').waitFor();
    await expect.poll(() => nav.isVisible()).toBe(true);
    await page.locator('.tm-nav > li > [data-menu-id=productTraceability]').click();
    await page.waitForTimeout(300); // the menu slides in
    await screenshot(page, 'menu-open');
    await page.locator('[data-testid=menu-mask]').click({ position: { x: 370, y: 400 } });
    await expect.poll(() => nav.isVisible()).toBe(false);
    await context.close();
  });

  it('shows the user menu open', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin);
    await page.locator('[data-testid=user-button]').click();
    await page.waitForURL('**/dashboards');
    await page.locator('.tm-progress[data-state=idle]').waitFor({ timeout: 15_000 });
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    await page.waitForTimeout(400); // the menu fades in
    await screenshot(page, 'user-menu-open');
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.locator('[data-testid=profile-form]').waitFor();
    await context.close();
  });

  it('goes to /dashboard from the logo, and says the help module is disabled before navigating', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin);
    await page.evaluate(() => {
      const w = window as unknown as { __notices: number };
      w.__notices = 0;
      window.addEventListener('message', (e) => {
        if ((e.data as { type?: string })?.type === 'helpDisabled') w.__notices++;
      });
    });
    await page.locator('.tm-header__logo').click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __notices: number }).__notices)).toBeGreaterThan(0);
    await context.close();
  });

  it('shows the not-found page for an unknown path, and hides the header where the route says so', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin);
    await page.goto('/no/such/page');
    await page.locator('[data-testid=not-found]').waitFor();
    expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    await page.goto('/generate-report');
    await page.locator('iframe[data-feature=generate-report]').waitFor();
    expect(await page.locator('.tm-header').count()).toBe(0);
    await context.close();
  });

  it('shows the three terms documents with their commitments', async () => {
    const { page, context } = await newSession(browser);
    await page.goto('/terms-and-conditions');
    await page.locator('[data-testid=terms]').waitFor();
    expect(await page.locator('article').innerText()).toContain('30 days');
    await page.getByRole('tab', { name: 'General Conditions' }).click();
    expect(await page.locator('article').innerText()).toContain('3 years');
    await page.getByRole('tab', { name: 'Privacy Policy' }).click();
    expect(await page.locator('article').innerText()).toContain('45 days');
    await context.close();
  });

  it('honours the custom menu, hidden icons, the version label and new-tab entries', async () => {
    const { page, context } = await newSession(browser);
    await editJsonResponse(page, '**/api/config', (body) => {
      Object.assign(body.deployment.settings, {
        showIcons: false,
        version: { show: true, label: '2.0' },
        customMenu: [
          { id: 'tracing', label: { en: 'Tracing', es: 'Trazado', fr: 'Traçage' }, children: [{ id: 'imports', path: '/imports' }, { id: 'deliveries', path: '/deliveries' }] },
          { id: 'handbook', path: 'https://example.org/handbook', label: { en: 'Handbook', es: 'Manual', fr: 'Manuel' } },
        ],
      });
    });
    await signIn(page, USERS.admin.email, USERS.admin.password);
    expect(await topLevelIds(page)).toEqual(['tracing', 'handbook']);
    expect(await page.locator('.tm-nav__icon').count()).toBe(0);
    expect(await page.locator('a[data-menu-id=handbook]').getAttribute('target')).toBe('_blank');
    expect(await page.locator('.tm-brand__version').innerText()).toBe('Version 2.0');
    await context.close();
  });

  it('searches the master data of the global-search entities', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin);
    await page.locator('a[data-menu-id=globalsearch]').click();
    const box = page.locator('.tm-search input');
    await box.fill('Agro E2E');
    await page.locator('.tm-search__group[data-entity=company]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.tm-search__group[data-entity=company]').innerText()).toContain('Agro E2E S.A.');
    // A result opens that record's form, not the catalogue.
    await page.locator('.tm-search__group[data-entity=company] .tm-search__item').first().click();
    await page.locator('[data-testid=entity-form][data-entity=company][data-purpose=edit]').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('#root_company_name').inputValue()).toBe('Agro E2E S.A.');
    expect(new URL(page.url()).pathname).toMatch(/^\/masterdata\/company\/[^/]+$/);
    await context.close();
  });

  it('opens an entity list filtered by the q of its deep link', async () => {
    const { page, context } = await signedInSession(browser, USERS.admin);
    await page.goto('/masterdata/company?q=Agro%20E2E');
    await page.locator('[data-testid=entity-list][data-entity=company]').waitFor();
    expect(await page.locator('[data-testid=list-search]').inputValue()).toBe('Agro E2E');
    const rows = page.locator('[data-testid=list-row]');
    await expect.poll(async () => (await rows.count()) > 0 && (await rows.allInnerTexts()).every((t) => t.includes('Agro E2E')), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('saves the language chosen in the header to the profile: the next sign-in elsewhere uses it', async () => {
    const user = USERS.noName;
    touched.push(user);
    const first = await signedInSession(browser, user);
    await first.page.locator('[data-testid=language-button]').click();
    await first.page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect.poll(() => first.page.locator('html').getAttribute('lang')).toBe('es');
    const token = await bearer(user.email, user.password);
    await expect.poll(() => profileLanguage(token), { timeout: 10_000 }).toBe('es');
    await first.context.close();
    // A fresh browser (nothing remembered locally) signs in in Spanish: the profile says so.
    const second = await signedInSession(browser, user);
    await expect.poll(() => second.page.locator('html').getAttribute('lang')).toBe('es');
    await second.context.close();
    await setProfileLanguage(token, 'en');
  });

  it('saves the latest of two languages chosen while the first was being saved, and shows it', async () => {
    const user = USERS.noName;
    touched.push(user);
    const session = await signedInSession(browser, user);
    const { page } = session;
    // The first save waits until the second choice is made: a slow server.
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const puts: string[] = [];
    await page.route('**/api/auth/profile', async (route) => {
      if (route.request().method() === 'PUT') {
        puts.push(JSON.parse(route.request().postData() ?? '{}').primary_fields?.language);
        if (puts.length === 1) await held;
      }
      await route.continue();
    });
    const token = await bearer(user.email, user.password);
    await expect.poll(() => profileLanguage(token)).toBe('en');
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect.poll(() => puts).toEqual(['es']);
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Inglés' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    const second = page.waitForResponse((r) => r.url().endsWith('/api/auth/profile') && r.request().method() === 'PUT' && r.request().postData()?.includes('"en"') === true);
    release();
    await second;
    expect(puts).toEqual(['es', 'en']);
    expect(await profileLanguage(token)).toBe('en');
    // The first save answered before the second left: its answer did not take the interface back to Spanish.
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await session.context.close();
  });

  it('keeps and saves a language chosen before the profile has arrived', async () => {
    const user = USERS.noName;
    touched.push(user);
    const session = await newSession(browser);
    const { page } = session;
    // Hold the profile's first answer until the user has chosen: a slow server, as in a loaded CI.
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let holding = true;
    await page.route('**/api/auth/profile', async (route) => {
      if (route.request().method() === 'GET' && holding) await held;
      await route.continue();
    });
    await signIn(page, user.email, user.password);
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    const saved = page.waitForRequest((r) => r.url().endsWith('/api/auth/profile') && r.method() === 'PUT');
    holding = false;
    release();
    expect(JSON.parse((await saved).postData() ?? '{}').primary_fields?.language).toBe('es');
    const token = await bearer(user.email, user.password);
    await expect.poll(() => profileLanguage(token), { timeout: 10_000 }).toBe('es');
    // The profile's own language (en) did not take the interface back.
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await session.context.close();
    await setProfileLanguage(token, 'en');
  });
});
