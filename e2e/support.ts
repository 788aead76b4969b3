import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './harness/browser';

/** What scripts/e2e.ts hands the tests. */
export const env = {
  base: required('E2E_BASE_URL'),
  features: required('E2E_FEATURES_URL'),
  mailDir: required('E2E_MAIL_DIR'),
  artifacts: process.env.E2E_ARTIFACTS ?? '.ci-artifacts',
};

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser suite with npm run e2e`);
  return v;
}

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Page errors seen so far (a test fails on unexpected ones). */
  errors: string[];
}

export async function openBrowser(): Promise<Browser> {
  return launchChromium();
}

/** A fresh context (empty storage) and page at the given viewport. */
export async function newSession(browser: Browser, viewport = { width: 1366, height: 820 }): Promise<Session> {
  const context = await browser.newContext({ viewport, baseURL: env.base, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { browser, context, page, errors };
}

export async function gotoSignIn(page: Page): Promise<void> {
  await page.goto('/');
  await page.locator('input[name=email]').waitFor();
}

/** Fills the sign-in form on the page and sends it. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}

/** Signs in through the form and waits for the shell. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await gotoSignIn(page);
  await submitSignIn(page, email, password);
  await page.locator('[data-testid=user-button]').waitFor({ timeout: 20_000 });
}

/** A fresh session (newSession) signed in as the user. */
export async function signedInSession(browser: Browser, user: { email: string; password: string }, viewport?: { width: number; height: number }): Promise<Session> {
  const session = await newSession(browser, viewport);
  await signIn(session.page, user.email, user.password);
  return session;
}

/** Answers the page's requests for `url` with the server's own JSON answer, as `edit` changes it. */
export async function editJsonResponse(page: Page, url: string, edit: (body: any) => void): Promise<void> {
  await page.route(url, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    edit(body);
    await route.fulfill({ response: res, json: body });
  });
}

/** A bearer token for the user, signed in through the API. */
export async function bearer(email: string, password: string): Promise<string> {
  const res = await fetch(`${env.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** The language the user's profile holds on the server. */
export async function profileLanguage(token: string): Promise<string | undefined> {
  const res = await fetch(`${env.base}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { detail: { primary_fields?: { language?: string } } }).detail.primary_fields?.language;
}

export async function setProfileLanguage(token: string, language: string): Promise<void> {
  const res = await fetch(`${env.base}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } });
  const { detail } = (await res.json()) as { detail: Record<string, unknown> };
  const put = await fetch(`${env.base}/api/auth/profile`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...detail, primary_fields: { language } }) });
  if (!put.ok) throw new Error(`the profile's language was not saved: ${put.status}`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(env.artifacts, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const require = createRequire(import.meta.url);

/** Runs axe-core in the page and describes each serious or critical violation in one line. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the app's CSP refuses inline scripts.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The text of the sign-in error area. */
export async function signInError(page: Page): Promise<string> {
  const area = page.locator('[data-testid=sign-in-error] .tm-inline-error');
  await area.waitFor({ timeout: 15_000 });
  return (await area.innerText()).trim();
}

/** True when the server answers the path with anything but 404 ROUTE_NOT_FOUND. */
export async function endpointExists(method: string, path: string): Promise<boolean> {
  const res = await fetch(`${env.base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
  if (res.status !== 404) return true;
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
  return body.error?.code !== 'ROUTE_NOT_FOUND';
}

/** Disables the first list row, which asks first naming the record: declining changes nothing, accepting disables. */
export async function disableFirstRowConfirmed(page: Page, title: string): Promise<void> {
  const first = page.locator('[data-testid=list-row]').first();
  await first.locator('[data-testid=row-disable]').click();
  const dialog = page.locator('.p-confirm-dialog');
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain(title);
  await dialog.locator('.p-confirm-dialog-reject').click();
  await dialog.waitFor({ state: 'detached' });
  expect(await page.locator('[data-testid=list-row]').count()).toBe(1);
  await first.locator('[data-testid=row-disable]').click();
  await page.locator('.p-confirm-dialog .p-confirm-dialog-accept').click();
}

/**
 * Clicks a menu link inside its group. The menu comes with the user's access, and the shell opens
 * the group of the page it lands on by itself: a click read against a stale aria-expanded would
 * close it again, so the group is opened until the link shows, however the two interleave.
 */
export async function openMenuLink(page: Page, group: string, link: string): Promise<void> {
  const toggle = page.locator(`.tm-nav > li > button[data-menu-id=${group}]`);
  const target = page.locator(`a[data-menu-id=${link}]`);
  await expect.poll(async () => {
    if (await target.isVisible()) return true;
    if ((await toggle.count()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    return target.isVisible();
  }, { timeout: 60_000, interval: 500 }).toBe(true);
  await target.click();
}
