import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { GROUPS, USERS } from './harness/users';
import { endpointExists, openBrowser, signedInSession } from './support';

let browser: Browser;
let groupsApi = false;

beforeAll(async () => {
  browser = await openBrowser();
  groupsApi = await endpointExists('GET', '/api/customer/groups');
});
afterAll(async () => {
  await browser?.close();
});

async function frameOf(page: Page, id: string): Promise<Frame> {
  const handle = await page.locator(`iframe[data-feature="${id}"]`).elementHandle();
  const frame = (await handle!.contentFrame())!;
  await frame.waitForFunction(() => Array.isArray((window as unknown as { __messages?: unknown[] }).__messages));
  return frame;
}

const selectorText = (page: Page) => page.locator('[data-testid=warehouse-selector] .p-dropdown-label').innerText();

describe('warehouse selector', () => {
  it('restores the first group, keeps a new choice across a reload and sends it with every request', async (ctx) => {
    if (!groupsApi) ctx.skip(); // GET /api/customer/groups is not on the server yet
    const { page, context } = await signedInSession(browser, USERS.warehouse);
    // Deliveries is open to both groups, so narrowing by either keeps the feature (SPEC 6).
    await page.goto('/deliveries');
    await page.locator('[data-testid=warehouse-selector]').waitFor({ timeout: 15_000 });
    expect(await selectorText(page)).toBe(GROUPS[0].name);

    await page.locator('[data-testid=warehouse-selector]').click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('option', { name: GROUPS[1].name }).click()]);
    await page.locator('[data-testid=warehouse-selector]').waitFor();
    expect(await selectorText(page)).toBe(GROUPS[1].name);
    expect(await page.evaluate(() => localStorage.getItem('agro.selectedWarehouse'))).toBe(GROUPS[1].name);

    const sent: string[] = [];
    page.on('request', (r) => {
      const h = r.headers()['x-warehouse-group'];
      if (h) sent.push(decodeURIComponent(h));
    });
    await page.reload();
    await page.locator('[data-testid=warehouse-selector]').waitFor();
    expect(await selectorText(page)).toBe(GROUPS[1].name);
    expect(sent).toContain(GROUPS[1].name);
    const frame = await frameOf(page, 'deliveries');
    await expect.poll(async () => {
      const m = await frame.evaluate(() => (window as unknown as { __messages: { data: { type: string; payload: { warehouse: { name: string } | null } } }[] }).__messages);
      return m.find((x) => x.data.type === 'parentFrameData')?.data.payload.warehouse?.name;
    }).toBe(GROUPS[1].name);
    // Imports is not in South Hub's access: the selection narrows it away.
    await page.goto('/imports');
    await page.locator('[data-testid=not-found]').waitFor();
    await context.close();
  });

  it('is hidden on /return-requests', async (ctx) => {
    if (!groupsApi) ctx.skip(); // GET /api/customer/groups is not on the server yet
    const { page, context } = await signedInSession(browser, USERS.warehouse);
    await page.evaluate((name) => localStorage.setItem('agro.selectedWarehouse', name), GROUPS[0].name);
    await page.goto('/return-requests');
    const frame = await frameOf(page, 'return-requests');
    await frame.evaluate(() => (window as unknown as { __send: (m: unknown) => void }).__send({ type: 'guestIsReady' }));
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid=warehouse-selector]').count()).toBe(0);
    await context.close();
  });
});
