import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MATERIAL_HEADER, materialRow } from '../../server/src/imports/testing/materials';
import { adminStory } from './adminStory';
import { USERS } from './harness/users';
import { env, screenshot } from './support';

/**
 * Issue 7 in the browser: an integrator downloads the material template, dry-runs a file with
 * three mistakes and sees each at its row and column, fixes them, imports with a progress bar,
 * re-imports the same file with nothing changed, and finds both in the logs.
 */
// The integrator fills 100,000 rows (about 75 s here); E2E_IMPORT_ROWS makes a quicker run.
const ROWS = Number(process.env.E2E_IMPORT_ROWS ?? 100_000);
const A = 'extensions.agrochemicalMaterial';
const tag = Date.now().toString(36).slice(-5);

const story = adminStory('imports');
let page: Page;
let companyId: string;
beforeAll(async () => {
  page = story.page;
  // The material rows reference a stored company (by id) and a division (by its import key).
  const signIn = await fetch(`${env.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USERS.admin.email, password: USERS.admin.password }) });
  const { token } = await signIn.json() as { token: string };
  const list = await fetch(`${env.base}/api/v3/masterdata/company?q=${encodeURIComponent('Agro E2E')}`, { headers: { authorization: `Bearer ${token}` } });
  companyId = ((await list.json()) as { data: { id: string }[] }).data[0].id;
});

/** Data row i (1-based) of the file; the spreadsheet row is i + 1 (the header is row 1). */
function row(i: number, mistake?: 'noErp' | 'badType' | 'dupErp'): string {
  let r = materialRow(i, ` ${tag}`).replace(',C000001,', `,${companyId},`).replace(',DIV-001\n', ',D-100\n');
  const n = String(i).padStart(7, '0');
  if (mistake === 'noErp') r = r.replace(`,M${n},`, ',,');
  if (mistake === 'badType') r = r.replace(',formulated_product,', ',pesticide,');
  if (mistake === 'dupErp') r = r.replace(`,M${n},`, `,M${String(i - 1).padStart(7, '0')},`);
  return r;
}
const MISTAKES: Record<number, 'noErp' | 'badType' | 'dupErp'> = { 101: 'noErp', 202: 'badType', 303: 'dupErp' };

function file(withMistakes: boolean): Buffer {
  let s = `${MATERIAL_HEADER.join(',')}\n`;
  for (let i = 1; i <= ROWS; i++) s += row(i, withMistakes ? MISTAKES[i] : undefined);
  return Buffer.from(s);
}

async function upload(content: Buffer, action: 'import-dry-run' | 'import-run', name = 'materials.csv'): Promise<void> {
  await page.locator('[data-testid=import-file]').setInputFiles({ name, mimeType: 'text/csv', buffer: content });
  await page.locator(`[data-testid=${action}]`).click();
}

async function finished(): Promise<Record<string, number>> {
  await page.locator('[data-testid=import-job][data-status=succeeded]').waitFor({ timeout: 240_000 });
  const counts: Record<string, number> = {};
  for (const k of ['insert', 'update', 'unchanged', 'reject']) counts[k] = Number(await page.locator(`[data-testid=import-count-${k}]`).innerText());
  return counts;
}

describe('CSV import screens', () => {
  it('downloads the material template with every importable column', async () => {
    await page.goto('/data-import/import');
    await page.locator('[data-testid=import-entity]').click();
    await page.getByRole('option', { name: 'Materials', exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=import-template]').click()]);
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const header = text.split(/\r?\n/)[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['name', `${A}.erp_id`, `${A}.company_id`, `${A}.material_type`]));
    expect(text.split(/\r?\n/).filter(Boolean)).toHaveLength(2); // the header and an example row
  });

  it('dry-runs a file and shows each mistake at its row and column, writing nothing', async () => {
    await upload(file(true), 'import-dry-run');
    expect(await finished()).toEqual({ insert: ROWS - 3, update: 0, unchanged: 0, reject: 3 });
    const lines = page.locator('[data-testid=import-error-row]');
    const shown = await lines.evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-row')), e.getAttribute('data-column'), e.querySelectorAll('td')[2].textContent]));
    expect(shown).toEqual([
      [102, `${A}.erp_id`, 'ERP ID : A value is mandatory.'],
      [203, `${A}.material_type`, expect.stringContaining('pesticide')],
      [304, `${A}.erp_id`, `ERP ID : M0000302 is already used in row 303 of this file`],
    ]);
    await expect.poll(() => page.locator('[data-testid=import-error-file]').isVisible()).toBe(true);
    await screenshot(page, 'imports-dry-run');
  }, 180_000);

  it('imports the fixed file with a progress bar, then re-imports it with nothing changed', async () => {
    const fixed = file(false);
    await upload(fixed, 'import-run');
    await page.locator('[data-testid=import-progress] .p-progressbar').waitFor();
    expect(await finished()).toEqual({ insert: ROWS, update: 0, unchanged: 0, reject: 0 });
    await upload(fixed, 'import-run');
    await page.locator('[data-testid=import-progress]').waitFor();
    expect(await finished()).toEqual({ insert: 0, update: 0, unchanged: ROWS, reject: 0 });
  }, 300_000);

  it('refuses a file that is not CSV with the reason', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    await upload(png, 'import-dry-run', 'materials.csv');
    await expect.poll(() => page.locator('[data-testid=import-refused]').innerText()).toContain('The file is not a CSV file');
  });

  it('lists every import in the logs with its counts', async () => {
    await page.goto('/data-import/logs');
    const rows = page.locator('[data-testid=import-log-row]');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    expect(texts.filter((t) => t.includes('materials.csv'))).toHaveLength(3);
    expect(texts[0]).toContain(`0 inserted, 0 updated, ${ROWS.toLocaleString('en').replace(/,/g, '')} unchanged, 0 rejected`);
    await rows.first().locator('[data-testid=import-log-open]').click();
    await page.locator('[data-testid=import-job][data-status=succeeded]').waitFor();
    expect(story.session.errors).toEqual([]);
  });
});
