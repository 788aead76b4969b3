import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { USERS } from './harness/users';
import { bearer, editJsonResponse, env, gotoSignIn, newSession, openBrowser, profileLanguage, screenshot, seriousViolations, setProfileLanguage, signedInSession, signInError, submitSignIn } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function attempt(email: string, password: string): Promise<string> {
  const { page, context } = await newSession(browser);
  try {
    await gotoSignIn(page);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(password);
    await page.locator('input[name=password]').press('Enter');
    return await signInError(page);
  } finally {
    await context.close();
  }
}

describe('sign-in screen', () => {
  it('shows the welcome heading, the prompt, the providers and the forgot-password link', async () => {
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    await expect.poll(() => page.locator('[role=status] .p-progress-spinner').count()).toBe(0);
    expect(await page.locator('h1').innerText()).toBe('Welcome');
    expect(await page.getByText('Please sign-in below').count()).toBe(1);
    const providers = await page.locator('[data-provider]').evaluateAll((els) => els.map((e) => e.getAttribute('data-provider')));
    expect(providers).toEqual(['google', 'github', 'facebook', 'twitter', 'saml']);
    expect(await page.locator('[data-provider=saml]').innerText()).toContain('Company SSO');
    await screenshot(page, 'sign-in');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/requestPasswordReset');
    await context.close();
  });

  it('shows the spinner overlay for about 0.8 s when it opens', async () => {
    const { page, context } = await newSession(browser);
    await page.goto('/');
    await page.locator('.tm-overlay .p-progress-spinner').waitFor({ state: 'visible', timeout: 2000 });
    const start = Date.now();
    await page.locator('.tm-overlay').waitFor({ state: 'detached', timeout: 5000 });
    expect(Date.now() - start).toBeLessThan(2000);
    await context.close();
  });

  it('keeps Login disabled until both e-mail and password are filled', async () => {
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    const login = page.locator('button[type=submit]');
    expect(await login.isDisabled()).toBe(true);
    await page.locator('input[name=email]').fill(USERS.admin.email);
    expect(await login.isDisabled()).toBe(true);
    await page.locator('input[name=password]').fill('x');
    expect(await login.isEnabled()).toBe(true);
    await page.locator('input[name=email]').fill('');
    expect(await login.isDisabled()).toBe(true);
    await context.close();
  });

  it('keeps Login disabled while a sign-in runs', async () => {
    const { page, context } = await newSession(browser);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/api/auth/sign-in', async (route) => {
      await held;
      await route.continue();
    });
    await gotoSignIn(page);
    await submitSignIn(page, USERS.admin.email, USERS.admin.password);
    await expect.poll(() => page.locator('button[type=submit]').isDisabled()).toBe(true);
    expect(await page.locator('button[type=submit]').innerText()).toContain('Signing in');
    release();
    await page.locator('[data-testid=user-button]').waitFor();
    await context.close();
  });

  it('has no serious accessibility violations', async () => {
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    await page.locator('.tm-overlay').waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('signs in with Enter, remembers the e-mail and shows the initials in the avatar', async () => {
    const { page, context, errors } = await newSession(browser);
    await gotoSignIn(page);
    await page.locator('input[name=email]').fill(USERS.admin.email);
    await page.locator('input[name=password]').fill(USERS.admin.password);
    await page.locator('input[name=email]').press('Enter');
    await page.locator('[data-testid=user-button]').waitFor();
    expect(await page.locator('[data-testid=user-button] [data-testid=avatar]').innerText()).toBe(USERS.admin.initials);
    // The user menu shows the name and e-mail; Logout signs out.
    await page.locator('[data-testid=user-button]').click();
    expect(await page.locator('[data-testid=user-name]').innerText()).toBe(USERS.admin.name);
    expect(await page.locator('[data-testid=user-email]').innerText()).toBe(USERS.admin.email);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.locator('input[name=email]').waitFor();
    expect(await page.locator('input[name=email]').inputValue()).toBe(USERS.admin.email);
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.endsWith('.session')));
    expect(stored).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows initials from the e-mail when the user has no display name', async () => {
    const { page, context } = await signedInSession(browser, USERS.noName);
    expect(await page.locator('[data-testid=user-button] [data-testid=avatar]').innerText()).toBe(USERS.noName.initials);
    await context.close();
  });

  it('keeps the language chosen at sign-in after sign-in and reload, and saves it to the profile', async () => {
    const user = USERS.noName;
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    await page.locator('.tm-langswitch__item[lang=es]').click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    await submitSignIn(page, user.email, user.password);
    await page.locator('[data-testid=user-button]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('[data-testid=language-button]').innerText(), { timeout: 10_000 }).toContain('ES');
    await page.reload();
    await page.locator('[data-testid=user-button]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('[data-testid=language-button]').innerText()).toContain('ES');
    const res = await fetch(`${env.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });
    const { token } = (await res.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const profile = async () => ((await (await fetch(`${env.base}/api/auth/profile`, { headers: auth })).json()) as { detail: Record<string, unknown> & { primary_fields: { language: string } } }).detail;
    await expect.poll(async () => (await profile()).primary_fields.language, { timeout: 10_000 }).toBe('es');
    await fetch(`${env.base}/api/auth/profile`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ ...(await profile()), primary_fields: { language: 'en' } }) });
    await context.close();
  });

  it('saves the language chosen at sign-in at the next load when the first save did not reach the server', async () => {
    const user = USERS.noName;
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    await page.locator('.tm-langswitch__item[lang=es]').click();
    let aborted = 0;
    await page.route('**/api/auth/profile', async (route) => {
      if (route.request().method() === 'PUT' && aborted === 0) { aborted += 1; await route.abort('connectionreset'); return; }
      await route.continue();
    });
    await submitSignIn(page, user.email, user.password);
    await page.locator('[data-testid=user-button]').waitFor({ timeout: 20_000 });
    await expect.poll(() => aborted).toBe(1);
    const token = await bearer(user.email, user.password);
    expect(await profileLanguage(token)).toBe('en');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/profile') && r.request().method() === 'PUT');
    await page.reload();
    expect((await saved).ok()).toBe(true);
    expect(await profileLanguage(token)).toBe('es');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await setProfileLanguage(token, 'en');
    await context.close();
  });

  it('shows each sign-in error of the catalogue in the error area', async () => {
    expect(await attempt(USERS.admin.email, 'wrong-password')).toBe('The password is invalid');
    expect(await attempt('nobody@e2e.local', 'whatever')).toBe('Account does not exist');
    expect(await attempt(USERS.disabled.email, USERS.disabled.password)).toBe('Account disabled. Contact your admin.');
    expect(await attempt(USERS.ssoOnly.email, USERS.ssoOnly.password)).toBe('Email not configured for this organization');
    expect(await attempt(USERS.outsider.email, USERS.outsider.password)).toBe('This domain is not authorized.');
    expect(await attempt(USERS.expired.email, USERS.expired.password)).toBe('Your account has expired. Please contact your admin for further support.');
  });

  it('says the authentication popup closed when a provider popup is closed', async () => {
    const { page, context } = await newSession(browser);
    // A provider page that never answers, so only closing the popup can end the sign-in.
    await context.route('**/api/auth/provider/google/start', (route) => route.fulfill({ contentType: 'text/html', body: '<p>Provider</p>' }));
    await gotoSignIn(page);
    await page.locator('.tm-overlay').waitFor({ state: 'detached' });
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('[data-provider=google]').click()]);
    await popup.close();
    expect(await signInError(page)).toBe('Authentication popup closed');
    await context.close();
  });

  it('shows the error a provider popup reports', async () => {
    const { page, context } = await newSession(browser);
    await gotoSignIn(page);
    await page.locator('.tm-overlay').waitFor({ state: 'detached' });
    await page.locator('[data-provider=github]').click();
    // The server has no GitHub client configured in the tests: the popup reports it.
    expect(await signInError(page)).toContain('GitHub');
    await context.close();
  });

  it('checks the account state when the deployment sets an expiry date, and hides the form when it expired', async () => {
    const { page, context } = await newSession(browser);
    // The deployment has no expiry date; the test gives it one and answers the status call as expired.
    await editJsonResponse(page, '**/api/config/public', (body) => {
      body.deployment.settings.signIn.accountExpiry = '2020-01-01';
    });
    await page.route('**/api/public/checkOrganizationAccountStatus', (route) => route.fulfill({ json: { data: { accountExpired: true } } }));
    await page.goto('/');
    expect(await signInError(page)).toBe('Your account has expired. Please contact your admin for further support.');
    expect(await page.locator('input[name=password]').count()).toBe(0);
    await context.close();
  });
});
