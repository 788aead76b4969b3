import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { GROUPS, USERS } from './harness/users';
import { env, newSession, openBrowser, signedInSession, signIn, type Session } from './support';

interface Logged {
  origin: string;
  data: { type?: string; payload?: Record<string, unknown> };
}

let browser: Browser;
let s: Session;

beforeAll(async () => {
  browser = await openBrowser();
  s = await signedInSession(browser, USERS.admin);
});
afterAll(async () => {
  await browser?.close();
});

/** The test feature page loaded for a feature id (served by the features origin). */
async function featureFrame(page: Page, id: string): Promise<Frame> {
  await page.locator(`iframe[data-feature="${id}"]`).waitFor();
  const handle = await page.locator(`iframe[data-feature="${id}"]`).elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForFunction(() => Array.isArray((window as unknown as { __messages?: unknown[] }).__messages));
  return frame!;
}

const messages = (frame: Frame) => frame.evaluate(() => (window as unknown as { __messages: Logged[] }).__messages);
const send = (frame: Frame, message: unknown) => frame.evaluate((m) => (window as unknown as { __send: (x: unknown) => void }).__send(m), message);
const ofType = async (frame: Frame, type: string) => (await messages(frame)).filter((m) => m.data?.type === type);

async function toast(page: Page): Promise<{ summary: string; detail: string; severity: string }> {
  const t = page.locator('.p-toast-message').last();
  await t.waitFor({ timeout: 10_000 });
  const cls = (await t.getAttribute('class')) ?? '';
  return {
    summary: (await t.locator('.p-toast-summary').innerText()).trim(),
    detail: (await t.locator('.p-toast-detail').innerText()).trim(),
    severity: /p-toast-message-(\w+)/.exec(cls)?.[1] ?? '',
  };
}

describe('embedded feature frame', () => {
  it('loads the landing page\'s feature on a port other than 3000, and the warehouse selector appears', async () => {
    expect(new URL(env.base).port).not.toBe('3000');
    const { page, context } = await newSession(browser);
    try {
      await signIn(page, USERS.warehouse.email, USERS.warehouse.password);
      const iframe = page.locator('iframe[data-feature]').first();
      await iframe.waitFor();
      const id = (await iframe.getAttribute('data-feature'))!;
      const frame = await featureFrame(page, id);
      expect(frame.url()).toBe(`${env.features}/agro/${id.replace(/\//g, '.')}.localhost/index.html`);
      // The selector waits for the frame's guestIsReady: it shows once the shell trusted the frame's origin.
      await page.locator('[data-testid=warehouse-selector]').waitFor({ timeout: 15_000 });
      expect(await page.locator('[data-testid=warehouse-selector] .p-dropdown-label').innerText()).toBe(GROUPS[0].name);
    } finally {
      await context.close();
    }
  });

  it('loads the feature from the features origin and answers guestIsReady with parentFrameData', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    const src = await s.page.locator('iframe[data-feature=imports]').getAttribute('src');
    expect(src).toBe(`${env.features}/agro/imports.localhost/index.html`);
    await expect.poll(async () => (await ofType(frame, 'parentFrameData')).length).toBe(1);
    const [data] = await ofType(frame, 'parentFrameData');
    expect(data.origin).toBe(env.base);
    expect(data.data.payload).toHaveProperty('warehouse');
    expect(Array.isArray(data.data.payload?.warehouseList)).toBe(true);
  });

  it('does not send parentFrameData to features without frame data', async () => {
    await s.page.goto('/dashboard');
    const frame = await featureFrame(s.page, 'dashboard');
    await send(frame, { type: 'guestIsReady' });
    await s.page.waitForTimeout(500);
    expect(await ofType(frame, 'parentFrameData')).toEqual([]);
  });

  it('answers requestLanguagePref, and tells the frame when the language changes', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    await send(frame, { type: 'requestLanguagePref' });
    await expect.poll(async () => (await ofType(frame, 'languagePref')).map((m) => m.data.payload?.language)).toEqual(['en']);
    await s.page.locator('[data-testid=language-button]').click();
    await s.page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect.poll(async () => (await ofType(frame, 'languagePref')).map((m) => m.data.payload?.language)).toEqual(['en', 'es']);
    await s.page.locator('[data-testid=language-button]').click();
    await s.page.getByRole('menuitem', { name: 'Inglés' }).click();
  });

  it('shows the error toast for a goTo with an invalid query, and does not navigate', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    await send(frame, { type: 'goTo', payload: { type: 'lot', query: { lot: 42 } } });
    expect(await toast(s.page)).toEqual({ severity: 'error', summary: 'Error', detail: 'This action could not be performed due to invalid data.' });
    expect(new URL(s.page.url()).pathname).toBe('/imports');
  });

  it('shows the Unavailable warning for a goTo no route declares', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    await send(frame, { type: 'goTo', payload: { type: 'no_such_type', query: {} } });
    expect(await toast(s.page)).toEqual({ severity: 'warn', summary: 'Unavailable', detail: 'This action could not be performed, you may not have the required access.' });
  });

  it('navigates a valid goTo to the lowest-ordered route for the type', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    await send(frame, { type: 'goTo', payload: { type: 'lot', query: { lot: 'L-2026-001' } } });
    await s.page.waitForURL((u) => u.pathname === '/product-history' && u.searchParams.get('lot') === 'L-2026-001');
    // The query reaches the frame of the target feature.
    expect(await s.page.locator('iframe[data-feature=product-history]').getAttribute('src')).toContain('lot=L-2026-001');
  });

  it('shows the help icon when the frame announces help, and asks the frame to start it', async () => {
    await s.page.goto('/imports');
    const frame = await featureFrame(s.page, 'imports');
    expect(await s.page.locator('[data-testid=help-button]').count()).toBe(0);
    await send(frame, { type: 'helpStatus', payload: { enabled: true } });
    await s.page.locator('[data-testid=help-button]').click();
    await expect.poll(async () => (await ofType(frame, 'startHelp')).length).toBe(1);
  });

  it('ignores messages from origins it does not trust', async () => {
    // The same page on another origin (localhost instead of 127.0.0.1) is not a configured origin.
    const untrusted = `${env.features.replace('127.0.0.1', 'localhost')}/agro/imports.localhost/index.html`;
    await s.page.goto('/imports');
    // The shell's Content-Security-Policy (frame-src) refuses to load it in the frame at all…
    await expect((await featureFrame(s.page, 'imports')).goto(untrusted)).rejects.toThrow(/ERR_BLOCKED_BY_CSP/);
    // …and were it loaded (here with the policy bypassed), the shell would ignore its messages.
    const context = await browser.newContext({ bypassCSP: true, baseURL: env.base, viewport: { width: 1366, height: 820 }, locale: 'en-US' });
    try {
      const page = await context.newPage();
      await signIn(page, USERS.admin.email, USERS.admin.password);
      await page.goto('/imports');
      const frame = await featureFrame(page, 'imports');
      await frame.goto(untrusted);
      await frame.waitForFunction(() => Array.isArray((window as unknown as { __messages?: unknown[] }).__messages));
      await send(frame, { type: 'goTo', payload: { type: 'lot', query: { lot: 42 } } });
      await send(frame, { type: 'helpStatus', payload: { enabled: true } });
      await page.waitForTimeout(800);
      expect(await page.locator('.p-toast-message').count()).toBe(0);
      expect(await page.locator('[data-testid=help-button]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('forgets the selected warehouse and reloads on clearSelectedWarehouse', async () => {
    await s.page.goto('/imports');
    await s.page.evaluate(() => localStorage.setItem('agro.selectedWarehouse', 'North Hub'));
    const frame = await featureFrame(s.page, 'imports');
    await Promise.all([s.page.waitForEvent('load'), send(frame, { type: 'clearSelectedWarehouse' })]);
    expect(await s.page.evaluate(() => localStorage.getItem('agro.selectedWarehouse'))).toBeNull();
  });

  it('takes the interface language from the profile and tells the frame about a second later', async () => {
    const { page, context } = await signedInSession(browser, USERS.spanish);
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    // html[lang] is set before React renders the menu again.
    await expect.poll(() => page.locator('.tm-nav > li > [data-menu-id=dashboards]').innerText()).toBe('Paneles');
    const frame = await featureFrame(page, 'dashboards');
    await expect.poll(async () => (await ofType(frame, 'languagePref')).map((m) => m.data.payload?.language)).toEqual(['es']);
    await context.close();
  });
});
