import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { actor, startStoryServer, type Actor, type StoryServer } from './operationSteps';
import { USERS } from './harness/users';
import { openBrowser, screenshot } from './support';

/**
 * Issue 18's operations view in Chromium: /cache-manager lists the server's caches and the
 * answers this browser keeps, and clears them; /inbound-messages lists what an integration
 * recorded through the API.
 */
let story: StoryServer;
let browser: Browser;
let admin: Actor;

beforeAll(async () => {
  story = await startStoryServer(15, 'tm-e2e-monitoring-', async () => undefined);
  browser = await openBrowser();
  admin = await actor(browser, story.server.url, USERS.admin, 'en');
}, 300_000);

afterAll(async () => {
  if (admin) await screenshot(admin.page, 'monitoring-last').catch(() => undefined);
  await browser?.close();
  await story?.stop();
});

describe('the operations view', () => {
  it('/cache-manager lists the server caches and this browser\'s answers, and clears them', async () => {
    const { page } = admin;
    await page.goto('/cache-manager');
    const fr = page.frameLocator('iframe[data-feature]');
    await fr.locator('[data-testid=cache-manager]').waitFor({ timeout: 30_000 });
    await fr.locator('[data-cache=store-search]').waitFor();
    expect(await fr.locator('[data-cache]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-cache')))).toEqual(['dashboard-groups', 'ibc-event-summary', 'oidc-discovery', 'store-search']);
    // The shipped deployment caches nothing (apiCache.ttlMs 0): the screen says so, and still
    // lists and clears answers an earlier setting left in this browser's storage.
    await fr.locator('[data-testid=browser-off]').waitFor();
    const { deployment } = await story.api<{ deployment: { name: string } }>('/api/config/public');
    await page.evaluate((key) => localStorage.setItem(key, JSON.stringify({ expiresAt: Date.now() + 60_000, data: { left: true } })), `${deployment.name}.apiCache./api/config`);
    await fr.locator('[data-testid=cache-refresh]').click();
    await fr.locator('[data-answer="/api/config"]').waitFor();
    await screenshot(page, 'cache-manager');
    await fr.locator('[data-testid=clear-server-caches]').click();
    await expect.poll(() => fr.locator('[data-testid=entries]').allInnerTexts()).toEqual(['0', '0', '0', '0']);
    await fr.locator('[data-testid=clear-browser]').click();
    await fr.locator('[data-testid=browser-empty]').waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), `${deployment.name}.apiCache./api/config`)).toBeNull();
    expect(admin.errors).toEqual([]);
  });

  it('/inbound-messages shows what an integration recorded', async () => {
    const posted = await story.post<{ id: string }>('/api/v3/inbound-messages', { source: 'authority', kind: 'confirmation', reference: 'TX-E2E-1', summary: 'Reception confirmed by the receiver' });
    expect(posted.status).toBe(201);
    const { page } = admin;
    await page.goto('/inbound-messages');
    const fr = page.frameLocator('iframe[data-feature]');
    await fr.locator('[data-testid=report-view][data-report=get_inbound_messages]').waitFor({ timeout: 30_000 });
    await fr.locator('[data-testid=list-row]', { hasText: 'TX-E2E-1' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => fr.locator('[data-testid=list-row]').first().innerText()).toContain('Reception confirmed by the receiver');
    await screenshot(page, 'inbound-messages');
    expect(admin.errors).toEqual([]);
  });
});
