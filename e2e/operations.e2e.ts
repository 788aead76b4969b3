import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { WorkflowDef } from '../engine/src/index';
import { makeAppRoot } from './harness/appRoot';
import { OPERATION_DATA, seedOperations } from './harness/operationsSeed';
import { startServer, type RunningServer } from './harness/server';
import { OPERATION_GROUPS, OPERATION_USERS, USERS } from './harness/users';
import { openBrowser, screenshot, signIn } from './support';

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
const PORT = (Number(process.env.E2E_PORT_BASE) || 3101) + 3;
type Lang = 'en' | 'es';

const delivery = JSON.parse(readFileSync('schemas/workflows/delivery.json', 'utf8')) as WorkflowDef;
const importWf = JSON.parse(readFileSync('schemas/workflows/product_import.json', 'utf8')) as WorkflowDef;
const declarationWf = JSON.parse(readFileSync('schemas/workflows/product_declaration.json', 'utf8')) as WorkflowDef;
const stateLabel = (wf: WorkflowDef, id: string, lang: Lang) => wf.states.find((s) => s.id === id)!.label[lang];
const transitionLabel = (wf: WorkflowDef, id: string, lang: Lang) => wf.transitions.find((t) => t.id === id)!.label[lang];
const DISTRIBUTOR_LABEL = { en: 'Distributor', es: 'Distribuidor' } as const;

let server: RunningServer;
let appRoot: string;
let dataDir: string;
let browser: Browser;
let token: string;
const ids = { ai: '', product: '', plant: '', distributor: '' };

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as T;
}

async function idOf(entity: string, q: string): Promise<string> {
  const r = await api<{ data: { id: string }[] }>(`/api/v3/masterdata/${entity}?q=${encodeURIComponent(q)}`);
  expect(r.data.length, `${entity} ${q}`).toBeGreaterThan(0);
  return r.data[0].id;
}

/** The API's stock of one material batch at one deposit (0 when it has none). */
async function apiStock(material: string, batch: string, deposit: string): Promise<number> {
  const q = new URLSearchParams({ material, batch, deposit });
  const r = await api<{ data: { quantity: number }[] }>(`/api/v3/stock?${q}`);
  return r.data.reduce((sum, row) => sum + row.quantity, 0);
}

beforeAll(async () => {
  appRoot = makeAppRoot(process.cwd(), () => undefined);
  dataDir = mkdtempSync(join(tmpdir(), 'tm-e2e-ops-'));
  await seedOperations(appRoot, join(dataDir, 'data'));
  server = await startServer(process.cwd(), PORT, {
    DATA_DIR: join(dataDir, 'data'), APP_ROOT: appRoot, ADMIN_EMAIL: USERS.admin.email, ADMIN_PASSWORD: USERS.admin.password,
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  });
  browser = await openBrowser();
  const signed = await fetch(`${server.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USERS.admin.email, password: USERS.admin.password }) });
  token = ((await signed.json()) as { token: string }).token;
  ids.ai = await idOf('material', OPERATION_DATA.activeIngredient);
  ids.product = await idOf('material', OPERATION_DATA.product);
  ids.plant = await idOf('company_division', OPERATION_GROUPS.plant.warehouse);
  ids.distributor = await idOf('company_division', OPERATION_GROUPS.distributor.warehouse);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    if (process.env.E2E_OPS_LOG) console.log(server.output().slice(-4000));
    await server.stop();
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (appRoot) {
    // The copy links web/: unlink it first, so removing the copy never reaches the sources.
    const link = join(appRoot, 'web');
    if (existsSync(link) && lstatSync(link).isSymbolicLink()) unlinkSync(link);
    rmSync(appRoot, { recursive: true, force: true });
  }
});

interface Actor { context: BrowserContext; page: Page; errors: string[] }

async function actor(user: { email: string; password: string }, lang: Lang): Promise<Actor> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 1000 }, baseURL: server.url, locale: lang === 'es' ? 'es-AR' : 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, user.email, user.password);
  return { context, page, errors };
}

/** Opens a feature through the shell and answers its frame once the operation screen is drawn. */
async function openFeature(page: Page, path: string): Promise<FrameLocator> {
  await page.goto(path);
  const frame = page.frameLocator('iframe[data-feature]');
  await frame.locator('[data-testid=operation-screen]').waitFor({ timeout: 30_000 });
  return frame;
}

async function pick(fr: FrameLocator, input: Locator, text: string): Promise<void> {
  await input.fill(text);
  const option = fr.locator('[data-testid=picker-options] li', { hasText: text }).first();
  await option.waitFor({ timeout: 10_000 });
  await option.dispatchEvent('mousedown');
}

const field = (fr: FrameLocator, path: string) => fr.locator(`[id$="root_${path}"]`).first();

/** The first line of an array field, added when the form starts with none. */
async function firstLine(fr: FrameLocator, array: string, probe: string): Promise<void> {
  if (await field(fr, `${array}_0_${probe}`).count()) return;
  await fr.locator(`[id$="root_${array}__add"]`).first().click();
  await field(fr, `${array}_0_${probe}`).waitFor();
}

async function save(fr: FrameLocator): Promise<void> {
  await fr.locator('[data-testid=form-save]').click();
  await fr.locator('[data-testid=operation-detail]').waitFor({ timeout: 15_000 }).catch(async () => {
    throw new Error(`the form was not saved: ${(await fr.locator('[data-testid=form-summary]').allInnerTexts()).join(' | ')}`);
  });
}

/** Takes a transition from the detail: its button reads in the user's language. */
async function take(fr: FrameLocator, wf: WorkflowDef, transition: string, lang: Lang, fill?: () => Promise<void>): Promise<void> {
  const button = fr.locator(`[data-testid=transition][data-transition=${transition}]`);
  await button.waitFor({ timeout: 15_000 });
  expect(await button.innerText()).toContain(transitionLabel(wf, transition, lang));
  await button.click();
  await fr.locator('[data-testid=transition-dialog]').waitFor();
  if (fill) await fill();
  await fr.locator('[data-testid=transition-confirm]').click();
  await fr.locator('[data-testid=transition-dialog]').waitFor({ state: 'detached', timeout: 15_000 }).catch(async () => {
    throw new Error(`the transition ${transition} failed: ${(await fr.locator('[data-testid=transition-error]').allInnerTexts()).join(' | ')}`);
  });
}

async function expectState(fr: FrameLocator, wf: WorkflowDef, state: string, lang: Lang): Promise<void> {
  await expect.poll(() => fr.locator('[data-testid=operation-detail] [data-testid=state-badge]').first().innerText(), { timeout: 15_000 })
    .toBe(stateLabel(wf, state, lang));
}

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
    staff = await actor(people.staff, lang);
    distributor = await actor(people.distributor, lang);
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
