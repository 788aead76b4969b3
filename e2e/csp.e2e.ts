import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { requireDefinitions } from '../definitions/read';
import { USERS } from './harness/users';
import { env, gotoSignIn, newSession, openBrowser, screenshot, signIn } from './support';

/**
 * Issue 13: the app and the API docs work under the server's Content-Security-Policy. Every
 * `securitypolicyviolation` event (reported by an init script, on every page the tab loads)
 * and every console error naming the policy is collected; each screen must add none.
 */
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let browser: Browser;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  ({ page } = await newSession(browser));
  await page.exposeFunction('__cspViolation', (v: string) => { violations.push(v); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { __cspViolation: (v: string) => Promise<void> }).__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} on ${location.pathname}`);
    });
  });
  page.on('console', (m) => { if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`); });
  // The deployment's map tiles (the suite runs offline), answered here so the map draws them.
  const template = requireDefinitions(process.cwd()).deployment.settings.map?.tileUrl ?? '';
  if (template) await page.route(new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[zxys]\\?\}/g, '[^/]+')}$`), (r) => r.fulfill({ contentType: 'image/png', body: PNG_1PX }));
});
afterAll(async () => {
  if (page) await screenshot(page, 'csp-last').catch(() => undefined);
  await browser?.close();
});

/** The violations a step added, after the page had time to report them. */
async function newViolations(step: () => Promise<void>): Promise<string[]> {
  const before = violations.length;
  await step();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  return violations.slice(before);
}

describe('Content-Security-Policy in the browser', () => {
  it('sends the policy with the app', async () => {
    const res = await page.goto('/');
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
  });

  it('reports no violation on the sign-in screen and the shell', async () => {
    expect(await newViolations(() => gotoSignIn(page))).toEqual([]);
    expect(await newViolations(() => signIn(page, USERS.admin.email, USERS.admin.password))).toEqual([]);
  });

  it('reports no violation on the master-data list and a company form with its map', async () => {
    expect(await newViolations(async () => {
      await page.goto('/masterdata');
      await page.locator('[data-testid=catalogue-entry][data-entity=company]').click();
      await page.locator('[data-testid=entity-list][data-entity=company]').waitFor();
      await page.locator('[data-testid=list-new]').click();
      await page.locator('[data-testid=entity-form]').waitFor();
      await page.locator('.leaflet-container').first().waitFor({ timeout: 10_000 });
    })).toEqual([]);
  });

  it('reports no violation on the import screen, the import logs and a framed feature', async () => {
    expect(await newViolations(async () => {
      await page.goto('/data-import/import');
      await page.locator('[data-testid=import-entity]').waitFor();
      await page.goto('/data-import/logs');
      await page.goto('/imports');
      await page.locator('iframe[data-feature=imports]').waitFor();
    })).toEqual([]);
    expect(await page.locator('iframe[data-feature=imports]').getAttribute('src')).toContain(env.features);
  });

  it('reports no violation on the API docs', async () => {
    expect(await newViolations(async () => {
      await page.goto('/api/docs');
      await page.locator('.swagger-ui .info').waitFor({ timeout: 20_000 });
      await page.locator('.opblock').first().waitFor();
    })).toEqual([]);
  });
});
