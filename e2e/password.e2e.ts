import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { waitForMail } from './harness/mail';
import { USERS } from './harness/users';
import { endpointExists, env, newSession, openBrowser, signIn } from './support';

let browser: Browser;
let resetApi = false;
beforeAll(async () => {
  browser = await openBrowser();
  resetApi = await endpointExists('POST', '/api/auth/request-password-reset');
});
afterAll(async () => {
  await browser?.close();
});

describe('password screens', () => {
  it('rates a new password weak, medium or strong', async () => {
    const { page, context } = await newSession(browser);
    await page.goto('/resetPassword?token=not-a-real-token');
    const input = page.locator('input[autocomplete=new-password]').first();
    const strength = page.locator('.tm-strength');
    await input.fill('abc');
    expect(await strength.getAttribute('data-strength')).toBe('weak');
    await input.fill('abcde1');
    expect(await strength.getAttribute('data-strength')).toBe('medium');
    await input.fill('Abcdefg1');
    expect(await strength.getAttribute('data-strength')).toBe('strong');
    expect(await strength.innerText()).toContain('Strong');
    await context.close();
  });

  it('resets a forgotten password with the link from the mail', async (ctx) => {
    if (!resetApi) ctx.skip(); // POST /api/auth/request-password-reset is not on the server yet
    const { page, context } = await newSession(browser);
    await page.goto('/');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/requestPasswordReset');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.locator('input[type=email]').fill(USERS.reset.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.locator('[data-testid=reset-sent]').waitFor();
    const mail = await waitForMail(env.mailDir, USERS.reset.email);
    const link = /https?:\/\/[^\s"'<>]*\/resetPassword\?token=[^\s"'<>]+/.exec(mail)?.[0];
    expect(link, 'the mail holds a /resetPassword?token= link').toBeTruthy();
    const url = new URL(link!.replace(/&amp;/g, '&'));
    await page.goto(`${url.pathname}${url.search}`);
    const fresh = 'Fresh-pass-2026';
    await page.locator('input[autocomplete=new-password]').nth(0).fill(fresh);
    await page.locator('input[autocomplete=new-password]').nth(1).fill(fresh);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.locator('[data-testid=reset-done]').waitFor();
    await context.close();
    const again = await newSession(browser);
    await signIn(again.page, USERS.reset.email, fresh);
    await again.context.close();
  });
});
