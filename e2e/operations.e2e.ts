import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator } from 'playwright-core';
import { OPERATION_DATA, seedOperations } from './harness/operationsSeed';
import { OPERATION_GROUPS, OPERATION_USERS } from './harness/users';
import {
  actor, expectState, field, firstLine, openFeature, pick, readWorkflow, save, startStoryServer, stateLabel, take, type Actor, type StoryServer,
} from './operationSteps';
import { openBrowser, screenshot } from './support';

/**
 * Issue 15's "done when", in Chromium: a plant's staff member imports an active ingredient,
 * declares a production batch consuming it, ships part of the batch to a distributor; the
 * distributor rejects part of it; the sender accepts the rejection. At each step the stock the
 * screens show (each line's stock on the detail, the batch picker) equals GET /api/v3/stock.
 * Once in English, once in Spanish (the users' profile language), where the states and
 * transitions read in Spanish.
 *
 * The operation screens are the app's own guest inside the feature frame, which the server
 * serves only when the deployment's features origin is its own path; the suite's server points
 * the frame at the test feature page, so this story runs on a second server of its own.
 */
type Lang = 'en' | 'es';

const delivery = readWorkflow('delivery');
const importWf = readWorkflow('product_import');
const declarationWf = readWorkflow('product_declaration');
const DISTRIBUTOR_LABEL = { en: 'Distributor', es: 'Distribuidor' } as const;

let story: StoryServer;
let browser: Browser;
const ids = { ai: '', product: '', plant: '', distributor: '' };

/** The API's stock of one material batch at one deposit (0 when it has none). */
async function apiStock(material: string, batch: string, deposit: string): Promise<number> {
  const q = new URLSearchParams({ material, batch, deposit });
  const r = await story.api<{ data: { quantity: number }[] }>(`/api/v3/stock?${q}`);
  return r.data.reduce((sum, row) => sum + row.quantity, 0);
}

beforeAll(async () => {
  story = await startStoryServer(3, 'tm-e2e-ops-', seedOperations);
  browser = await openBrowser();
  ids.ai = await story.idOf('material', OPERATION_DATA.activeIngredient);
  ids.product = await story.idOf('material', OPERATION_DATA.product);
  ids.plant = await story.idOf('company_division', OPERATION_GROUPS.plant.warehouse);
  ids.distributor = await story.idOf('company_division', OPERATION_GROUPS.distributor.warehouse);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await story?.stop();
});

/**
 * The stock the detail shows for its line at each deposit given: equal to the API's and to
 * what the story expects (the cell reads "…" while it loads).
 */
async function expectLineStock(fr: FrameLocator, material: string, batch: string, expected: Record<string, number>): Promise<void> {
  for (const [deposit, quantity] of Object.entries(expected)) {
    const cell = fr.locator(`[data-testid=line-stock][data-deposit="${deposit}"]`).first();
    await cell.waitFor({ timeout: 15_000 });
    const shown = async () => {
      const m = /-?\d+(?:[.,]\d+)?/.exec(await cell.innerText());
      return m ? Number(m[0].replace(',', '.')) : null;
    };
    await expect.poll(shown, { timeout: 15_000 }).toBe(quantity);
    expect(await apiStock(material, batch, deposit)).toBe(quantity);
  }
}

describe.each(['en', 'es'] as const)('the operations story in %s', (lang) => {
  const people = OPERATION_USERS[lang];
  const L = lang.toUpperCase();
  const aiLot = `AI-${L}-${Date.now().toString(36).slice(-4).toUpperCase()}`;
  const productLot = `PR-${L}-${Date.now().toString(36).slice(-4).toUpperCase()}`;
  const remito = `R-0001-${L}${Date.now().toString(36).slice(-5)}`;
  let staff: Actor;
  let distributor: Actor;

  beforeAll(async () => {
    staff = await actor(browser, story.server.url, people.staff, lang);
    distributor = await actor(browser, story.server.url, people.distributor, lang);
  });
  afterAll(async () => {
    if (staff) await screenshot(staff.page, `operations-${lang}-staff-last`).catch(() => undefined);
    if (distributor) await screenshot(distributor.page, `operations-${lang}-distributor-last`).catch(() => undefined);
    await staff?.context.close();
    await distributor?.context.close();
  });

  it('imports an active ingredient: the line\'s stock at the deposit is the API\'s', async () => {
    const fr = await openFeature(staff.page, '/imports');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'importDate').fill('2026-03-02');
    await field(fr, 'importID').fill(`IMP-${aiLot}`);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=company_division] input').first(), OPERATION_GROUPS.plant.warehouse);
    await firstLine(fr, 'productData', 'batchId');
    // The unit is left empty: the server takes the material's.
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=material] input').first(), OPERATION_DATA.activeIngredient);
    await field(fr, 'productData_0_batchId').fill(aiLot);
    await field(fr, 'productData_0_quantity').fill('1000');
    await field(fr, 'productData_0_expirationDate').fill('2028-06-30');
    await save(fr);
    await expectState(fr, importWf, 'Draft', lang);
    await expectLineStock(fr, ids.ai, aiLot, { [ids.plant]: 0 });
    await take(fr, importWf, 'confirm', lang);
    await expectState(fr, importWf, 'Imported', lang);
    await expectLineStock(fr, ids.ai, aiLot, { [ids.plant]: 1000 });
  });

  it('declares a production batch consuming it: the batch picker and both lines agree with the API', async () => {
    const fr = await openFeature(staff.page, '/product-declaration');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'productionDate').fill('2026-03-05');
    await field(fr, 'productDeclarationId').fill(`PD-${productLot}`);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=company_division] input').first(), OPERATION_GROUPS.plant.warehouse);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=material] input').first(), OPERATION_DATA.product);
    await field(fr, 'batchId').fill(productLot);
    await field(fr, 'quantity').fill('400');
    await field(fr, 'elaborationDate').fill('2026-03-05');
    await field(fr, 'expirationDate').fill('2028-03-05');
    await firstLine(fr, 'consumption', 'batchId');
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=material] input').nth(1), OPERATION_DATA.activeIngredient);
    await fr.locator('[data-testid=batch-picker] input').first().focus();
    const option = fr.locator(`[data-testid=batch-options] li[data-batch="${aiLot}"]`);
    await option.waitFor({ timeout: 10_000 });
    expect(await option.innerText()).toContain(String(await apiStock(ids.ai, aiLot, ids.plant)));
    expect(await option.innerText()).toContain('1000');
    await option.dispatchEvent('mousedown');
    await field(fr, 'consumption_0_quantity').fill('250');
    await save(fr);
    await take(fr, declarationWf, 'declare', lang);
    await expectState(fr, declarationWf, 'Declared', lang);
    expect(await apiStock(ids.ai, aiLot, ids.plant)).toBe(750);
    await expectLineStock(fr, ids.product, productLot, { [ids.plant]: 400 });
  });

  it('ships part of the batch to a distributor: the picker shows the batch\'s stock, confirming takes it out', async () => {
    const fr = await openFeature(staff.page, '/deliveries');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'sendDate').fill('2026-03-06');
    await field(fr, 'shipmentID').fill(remito);
    const divisions = fr.locator('[data-testid=reference-picker][data-ref=company_division] input');
    await pick(fr, divisions.nth(0), OPERATION_GROUPS.plant.warehouse);
    await pick(fr, divisions.nth(1), OPERATION_GROUPS.distributor.warehouse);
    await field(fr, 'receiverCompanyType').click();
    await fr.locator('li[role=option]', { hasText: DISTRIBUTOR_LABEL[lang] }).first().click();
    await firstLine(fr, 'productData', 'batchId');
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=material] input').first(), OPERATION_DATA.product);
    await fr.locator('[data-testid=batch-picker] input').first().focus();
    const option = fr.locator(`[data-testid=batch-options] li[data-batch="${productLot}"]`);
    await option.waitFor({ timeout: 10_000 });
    expect(await option.innerText()).toContain(String(await apiStock(ids.product, productLot, ids.plant)));
    expect(await option.innerText()).toContain('400');
    await option.dispatchEvent('mousedown');
    await field(fr, 'productData_0_amount').fill('150');
    await save(fr);
    await expectState(fr, delivery, 'Draft', lang);
    await take(fr, delivery, 'confirm', lang);
    await expectState(fr, delivery, 'In-Progress', lang);
    await expectLineStock(fr, ids.product, productLot, { [ids.plant]: 250 });
    // The receiver's deposit is not in the sender's warehouse: its stock is not shown here, and it holds none yet.
    expect(await fr.locator(`[data-testid=line-stock][data-deposit="${ids.distributor}"]`).count()).toBe(0);
    expect(await apiStock(ids.product, productLot, ids.distributor)).toBe(0);
  });

  it('the distributor rejects part of it from the work tray: what was accepted is in its deposit', async () => {
    const fr = await openFeature(distributor.page, '/active-receptions');
    const row = fr.locator('[data-testid=list-row]', { hasText: remito });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain(stateLabel(delivery, 'In-Progress', lang));
    await row.click();
    await fr.locator('[data-testid=operation-detail]').waitFor();
    await expectState(fr, delivery, 'In-Progress', lang);
    await take(fr, delivery, 'partialReject', lang, async () => {
      await fr.locator('[data-testid=input-rejected-0]').fill('40');
      if (await fr.locator('[data-testid=transition-comment]').count()) await fr.locator('[data-testid=transition-comment]').fill(lang === 'es' ? 'tambores dañados' : 'damaged drums');
    });
    await expectState(fr, delivery, 'Partial Reject', lang);
    await expectLineStock(fr, ids.product, productLot, { [ids.distributor]: 110 });
    expect(await apiStock(ids.product, productLot, ids.plant)).toBe(250);
  });

  it('the sender accepts the rejection: the rejected quantity is back at its deposit, and the history tells the story', async () => {
    const fr = await openFeature(staff.page, '/deliveries');
    const row = fr.locator('[data-testid=list-row]', { hasText: remito });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain(stateLabel(delivery, 'Partial Reject', lang));
    await row.click();
    await fr.locator('[data-testid=operation-detail]').waitFor();
    await take(fr, delivery, 'acceptRejection', lang);
    await expectState(fr, delivery, 'Rejection Accepted', lang);
    await expectLineStock(fr, ids.product, productLot, { [ids.plant]: 290 });
    // The receiver's stock is its own warehouse's: the sender's screens are narrowed to theirs (SPEC 6), the API as admin sees it.
    expect(await apiStock(ids.product, productLot, ids.distributor)).toBe(110);
    const history = await fr.locator('[data-testid=history-entry]').allInnerTexts();
    expect(history.length).toBe(3);
    // Each entry reads from → to in the user's language.
    ['In-Progress', 'Partial Reject', 'Rejection Accepted'].forEach((to, i) => expect(history[i]).toContain(stateLabel(delivery, to, lang)));
    expect(staff.errors).toEqual([]);
    expect(distributor.errors).toEqual([]);
  });
});
