import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminStory } from './adminStory';
import { USERS } from './harness/users';
import { env, screenshot } from './support';

/**
 * Issue 7 in the browser: an integrator downloads the material template, fills many rows with
 * a few mistakes, dry-runs the file and sees each mistake at its row and column, fixes them,
 * imports with a progress bar, re-imports the same file with nothing changed, and finds every
 * import in the logs. A file that is not CSV is refused with the API's own message.
 *
 * The default is the issue's 100,000 rows (about 80–100 s on the shared 2-core machine, most of
 * it the embedded store writing material documents); E2E_IMPORT_ROWS sets a quicker run.
 */
const ROWS = Number(process.env.E2E_IMPORT_ROWS ?? 100_000);
const A = 'extensions.agrochemicalMaterial';
const tag = Date.now().toString(36).slice(-5).toUpperCase();

const story = adminStory('imports');
let page: Page;
let token: string;
let companyId: string;
let header: string[];

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${env.base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
}

beforeAll(async () => {
  page = story.page;
  const signIn = await fetch(`${env.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USERS.admin.email, password: USERS.admin.password }) });
  token = ((await signIn.json()) as { token: string }).token;
  // The seeded company has no ERP id, so the file names it by id, as the template allows.
  const list = await api(`/api/v3/masterdata/company?q=${encodeURIComponent('Agro E2E')}`);
  companyId = ((await list.json()) as { data: { id: string }[] }).data[0].id;
});

type Mistake = 'noErp' | 'badType' | 'dupErp' | 'noCompany';
/** Data row i is spreadsheet row i + 1 (the header is row 1). */
const MISTAKES = new Map<number, Mistake>([[101, 'noErp'], [202, 'badType'], [303, 'dupErp'], [ROWS - 7, 'noCompany']]);
const erp = (i: number) => `M${tag}${String(i).padStart(7, '0')}`;

/** What the integrator types in row i, by template column; every other column stays empty. */
function values(i: number, mistake?: Mistake): Record<string, string> {
  const n = `${tag}${String(i).padStart(7, '0')}`;
  return {
    name: `Material ${n}`, is_traceable: 'yes', raw: 'no', recycled: 'no', serialized: 'no', critical: 'no', state: '1',
    [`${A}.product_id`]: `P${n}`, [`${A}.product_code_id`]: `PC${n}`, [`${A}.senasa_name`]: `SENASA ${n}`, [`${A}.reg_num`]: `REG-${n}`,
    [`${A}.erp_id`]: mistake === 'noErp' ? '' : erp(mistake === 'dupErp' ? i - 1 : i),
    [`${A}.company_id`]: mistake === 'noCompany' ? 'C999' : companyId,
    [`${A}.material_type`]: mistake === 'badType' ? 'pesticide' : 'formulated_product',
    [`${A}.gtin`]: `0779${String(i).padStart(9, '0')}`, [`${A}.country_origin`]: 'Argentina', [`${A}.plant_origin`]: 'D-100',
    Colour: 'green',
  };
}

/** The template's columns plus one the entity does not have, filled for every row. */
function materialFile(withMistakes: boolean): Buffer {
  const columns = [...header, 'Colour'];
  const lines = [columns.join(',')];
  for (let i = 1; i <= ROWS; i++) {
    const v = values(i, withMistakes ? MISTAKES.get(i) : undefined);
    lines.push(columns.map((c) => v[c] ?? '').join(','));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function choose(file: Buffer, name = 'materials.csv'): Promise<void> {
  const input = page.locator('[data-testid=import-file]');
  // Drawn as the app's outlined button, not the browser's grey one.
  expect(await input.evaluate((el) => getComputedStyle(el, '::file-selector-button').borderTopStyle)).toBe('solid');
  expect(await input.evaluate((el) => getComputedStyle(el, '::file-selector-button').backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  await input.setInputFiles({ name, mimeType: 'text/csv', buffer: file });
}

async function downloadText(click: () => Promise<void>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
}

/** Waits for the job on screen to finish and reads its four counts. */
async function counts(status = 'succeeded', timeout = 240_000): Promise<Record<string, number>> {
  await page.locator(`[data-testid=import-job][data-status=${status}]`).waitFor({ timeout });
  const out: Record<string, number> = {};
  for (const k of ['insert', 'update', 'unchanged', 'reject']) out[k] = Number(await page.locator(`[data-testid=import-count-${k}]`).getAttribute('data-value'));
  return out;
}

/** What the API answers the same upload with: the screen must show its message as given. */
async function apiRefusal(file: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.set('entity', 'material');
  form.set('dryRun', 'true');
  form.set('file', new Blob([new Uint8Array(file)]), name);
  const res = await api('/api/imports', { method: 'POST', body: form });
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: { message: string } }).error.message;
}

describe(`CSV import screens (${ROWS.toLocaleString('en')} rows)`, () => {
  it('downloads the material template with field ids or field names', async () => {
    await page.goto('/data-import/import');
    await page.locator('[data-testid=import-entity]').click();
    await page.getByRole('option', { name: 'Materials', exact: true }).click();
    const ids = await downloadText(() => page.locator('[data-testid=import-template]').click());
    const lines = ids.split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(2); // the header and an example row
    header = lines[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['name', `${A}.erp_id`, `${A}.company_id`, `${A}.material_type`, `${A}.plant_origin`]));

    await page.locator('[data-testid=import-template-headers]').getByText('Field names').click();
    const labels = await downloadText(() => page.locator('[data-testid=import-template]').click());
    expect(labels.split(/\r?\n/)[0]).toContain('Agrochemical product > ERP ID');
  });

  it('dry-runs the filled file: every mistake at its row and column, the unknown column named, nothing written', async () => {
    await choose(materialFile(true));
    await page.locator('[data-testid=import-dry-run]').click();
    expect(await counts()).toEqual({ insert: ROWS - 4, update: 0, unchanged: 0, reject: 4 });

    const lines = await page.locator('[data-testid=import-error-row]').evaluateAll((els) => els.map((e) => [
      Number(e.getAttribute('data-row')), e.getAttribute('data-column'), e.querySelector('[data-column=message]')?.textContent,
    ]));
    expect(lines).toEqual([
      [102, `${A}.erp_id`, expect.stringMatching(/^ERP ID : A value is mandatory/)],
      [203, `${A}.material_type`, 'Material type : pesticide is not one of the allowed values'],
      [304, `${A}.erp_id`, `ERP ID : ${erp(302)} is already used in row 303 of this file`],
      [ROWS - 6, `${A}.company_id`, expect.stringMatching(/^Company : .*C999/)],
    ]);
    await page.locator('[data-testid=import-columns] summary').click();
    await page.locator('[data-testid=import-column-unknown]').waitFor();
    expect(await page.locator('[data-testid=import-column-unknown]').getAttribute('data-header')).toBe('Colour');
    expect(await page.locator('[data-testid=import-file-message]').allInnerTexts()).toEqual([expect.stringContaining('were not imported: Colour')]);
    expect(await page.locator('[data-testid=import-column-mapped]').count()).toBe(header.length);
    await page.locator('[data-testid=import-errors]').scrollIntoViewIfNeeded();
    await screenshot(page, 'imports-dry-run');

    // The error file: the rejected rows as uploaded, with their reasons, ready to fix.
    const errors = (await downloadText(() => page.locator('[data-testid=import-error-file]').click())).split(/\r?\n/).filter(Boolean);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/,Import errors$/);
    expect(errors[1]).toContain('ERP ID : A value is mandatory');

    const stored = await api(`/api/v3/masterdata/material?q=${encodeURIComponent(`SENASA ${tag}`)}&pageSize=1`);
    expect(((await stored.json()) as { total: number }).total).toBe(0);
  }, 180_000);

  it('imports the fixed file with a progress bar, then re-imports it with every row unchanged', async () => {
    const fixed = materialFile(false);
    await choose(fixed);
    await page.locator('[data-testid=import-run]').click();
    await page.locator('[data-testid=import-progress] [role=progressbar]').waitFor();
    expect(await page.locator('[data-testid=import-progress-rows]').innerText()).toMatch(/^[\d,]+ of (about )?[\d,]+ rows$/);
    await screenshot(page, 'imports-progress');
    expect(await counts()).toEqual({ insert: ROWS, update: 0, unchanged: 0, reject: 0 });
    await expect.poll(() => page.locator('[data-testid=import-outcome]').innerText()).toBe('The import is done.');

    await choose(fixed);
    await page.locator('[data-testid=import-run]').click();
    await page.locator('[data-testid=import-progress]').waitFor();
    expect(await counts()).toEqual({ insert: 0, update: 0, unchanged: ROWS, reject: 0 });
  }, 360_000);

  it('refuses a file that is not CSV, lacks required columns or is too large, with the API message as given', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    await choose(png, 'materials.csv');
    await page.locator('[data-testid=import-dry-run]').click();
    const notCsv = await apiRefusal(png, 'materials.csv');
    expect(notCsv).toContain('The file is not a CSV file');
    await expect.poll(() => page.locator('[data-testid=import-refused]').innerText()).toBe(notCsv);

    const noKeys = Buffer.from('name,state\nMaterial X,1\n');
    await choose(noKeys, 'no-keys.csv');
    await page.locator('[data-testid=import-dry-run]').click();
    const missing = await apiRefusal(noKeys, 'no-keys.csv');
    expect(missing).toMatch(/^Required columns are missing: /);
    await expect.poll(() => page.locator('[data-testid=import-refused]').innerText()).toBe(missing);

    // Over the 50 MB an upload may hold (the browser sends it from disk, as a person would).
    const dir = mkdtempSync(join(tmpdir(), 'tm-import-'));
    try {
      const big = Buffer.alloc(51 * 1024 * 1024, 'x,1\n');
      big.write('name,state\n');
      writeFileSync(join(dir, 'big.csv'), big);
      await page.locator('[data-testid=import-file]').setInputFiles(join(dir, 'big.csv'));
      await page.locator('[data-testid=import-dry-run]').click();
      await expect.poll(() => page.locator('[data-testid=import-refused]').innerText(), { timeout: 30_000 }).toBe('The file is larger than the 50 MB an import accepts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('offers only the event entities on the event screen, reached through the menu', async () => {
    // Through the menu from the import screen: the same screen, now for events only.
    await page.goto('/data-import/import');
    await page.locator('[data-testid=import-entity]').waitFor();
    await page.locator('[data-menu-id="data-import/event"]').click();
    await expect.poll(() => page.locator('[data-testid=import-entity] .p-dropdown-label').innerText()).toBe('Object events');
    await page.locator('[data-testid=import-entity]').click();
    expect(await page.locator('.p-dropdown-panel').getByRole('option').allInnerTexts()).toEqual(['Object events', 'Transformation events']);
    await page.keyboard.press('Escape');
  });

  it('lists every import in the logs, newest first, and opens one (in Spanish too)', async () => {
    await page.goto('/data-import/logs');
    const rows = page.locator('[data-testid=import-log-row]');
    await rows.first().waitFor();
    const mine = rows.filter({ hasText: 'materials.csv' });
    expect(await mine.count()).toBe(3);
    const count = (row: number, k: string) => mine.nth(row).locator(`[data-testid=import-log-${k}]`).getAttribute('data-value');
    expect([await mine.nth(0).getAttribute('data-dry-run'), await count(0, 'unchanged')]).toEqual(['false', String(ROWS)]);
    expect([await mine.nth(1).getAttribute('data-dry-run'), await count(1, 'insert')]).toEqual(['false', String(ROWS)]);
    expect([await mine.nth(2).getAttribute('data-dry-run'), await count(2, 'reject')]).toEqual(['true', '4']);
    expect(await mine.nth(0).innerText()).toContain('Platform Admin');
    // Only the dry run rejected rows: its error file is the one offered.
    expect(await mine.locator('[data-testid=import-log-error-file]').count()).toBe(1);
    const errors = await downloadText(() => mine.nth(2).locator('[data-testid=import-log-error-file]').click());
    expect(errors.split(/\r?\n/).filter(Boolean)).toHaveLength(5);
    await screenshot(page, 'imports-logs');

    // The file name is styled as the app's link, and the whole row opens the job.
    const link = mine.nth(2).locator('[data-testid=import-log-open]');
    expect(await link.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe('none');
    expect(await link.evaluate((a) => getComputedStyle(a).fontWeight)).toBe('600');
    await mine.nth(2).locator('td[data-column=entity]').click();
    await page.locator('[data-testid=import-job][data-status=succeeded][data-dry-run=true]').waitFor();
    expect(await page.locator('[data-testid=import-error-row]').count()).toBe(4);
    // In Spanish the messages are translated from their code and values, labels included.
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Spanish' }).click();
    const first = page.locator('[data-testid=import-error-row]').first().locator('[data-column=message]');
    await expect.poll(() => first.innerText()).toMatch(/^ID de ERP : Un valor es obligatorio/);
    await page.locator('[data-testid=language-button]').click();
    await page.getByRole('menuitem', { name: 'Inglés' }).click();
    await expect.poll(() => first.innerText()).toMatch(/^ERP ID : A value is mandatory/);
    await page.locator('[data-testid=import-log-back]').click();
    await rows.first().waitFor();
    expect(story.session.errors).toEqual([]);
  });
});
