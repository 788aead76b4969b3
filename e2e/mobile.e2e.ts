import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { USERS } from './harness/users';
import { env, openBrowser, screenshot } from './support';

/**
 * Issue 20, smoke: the installable mobile app under /m on a phone. Sign in, accept the mobile
 * terms (version 2), see the features; the service worker registers and controls the page;
 * offline, the app still loads from the service worker with its kept features.
 */
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];
const violations: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, baseURL: env.base, locale: 'en-US', serviceWorkers: 'allow' });
  page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text()); });
});
afterAll(async () => {
  if (page) await screenshot(page, 'mobile-last').catch(() => undefined);
  await browser?.close();
});

describe('the mobile app under /m', () => {
  it('signs in on a phone, asks the mobile terms once, and lists the features held', async () => {
    const res = await page.goto('/m/');
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => page.locator('link[rel=manifest]').getAttribute('href')).toBe('/m/manifest.webmanifest');
    const manifest = await (await page.request.get('/m/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({ start_url: '/m/', scope: '/m/', display: 'standalone' });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);

    await page.getByLabel('E-mail').fill(USERS.admin.email);
    await page.getByLabel('Password').fill(USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Mobile terms' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByText('Version 2', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'I accept the terms' }).click();

    const features = page.getByTestId('feature-list').getByRole('link');
    await features.first().waitFor();
    expect(await features.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('app-version').textContent()).toBe('Version 1.1.0');
    // Asked once: a reload goes straight to the features.
    await page.reload();
    await features.first().waitFor();
    expect(await page.getByRole('heading', { name: 'Mobile terms' }).count()).toBe(0);
  });

  it('registers the service worker, which controls the page', async () => {
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(scriptURL).toBe(`${env.base}/m/sw.js`);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 15_000 }).toBe(`${env.base}/m/sw.js`);
  });

  it('loads from the service worker offline, with the features kept on the device', async () => {
    const names = await page.getByTestId('feature-list').getByRole('link').allTextContents();
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByTestId('feature-list').waitFor();
      expect(await page.getByTestId('feature-list').getByRole('link').allTextContents()).toEqual(names);
      await expect.poll(() => page.getByTestId('connectivity').textContent()).toBe('Offline');
      // A client route too: the service worker answers navigations under /m/ with the app shell.
      await page.goto('/m/sync');
      await page.getByRole('heading', { name: 'Sync' }).waitFor();
    } finally {
      await context.setOffline(false);
    }
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
  });
});
