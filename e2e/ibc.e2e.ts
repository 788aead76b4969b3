import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator } from 'playwright-core';
import { IBC_DATA, seedIbc } from './harness/ibcSeed';
import { IBC_GROUPS, IBC_USERS } from './harness/users';
import {
  actor, expectState, field, openFeature, openTransition, pick, readWorkflow, save, startStoryServer, stateLabel, take, type Actor, type StoryServer,
} from './operationSteps';
import { openBrowser, screenshot } from './support';

/**
 * Issue 16's "done when", in Chromium: the filler's staff member prepares a batch of IBCs from
 * a product lot (the confirmation refuses an IBC past its periodic inspection, naming it and
 * the date), ships them to a customer; the customer receives them and asks for their return;
 * the staff member takes them back, one fails its QC and is quarantined from its own page; the
 * customer holdings and fleet measures on /ibc-inventory move at each step (the figures shown
 * are asserted, and equal the API's). Then the fleet reads in Spanish and French.
 */
const prep = readWorkflow('ibc_batch_preparation');
const delivery = readWorkflow('ibc_delivery');
const request = readWorkflow('return_request');
const ibc = readWorkflow('ibc');

const today = new Date().toISOString().slice(0, 10);
const tag = Date.now().toString(36).slice(-5).toUpperCase();
const LOT = `LOT-HC-${tag}`;
const BATCH = `PREP-${tag}`;
const REMITO = `R-IBC-${tag}`;
const RETURN = `DEV-${tag}`;
const [FAILED] = IBC_DATA.serials;

let story: StoryServer;
let browser: Browser;
let staff: Actor;
let customer: Actor;
const ids = { product: '', filler: '', customerDeposit: '', customer: '' };
let overdueDate = '';

interface Measures { fleetSize: number; byStatus: Record<string, number>; pastInspection: number; fillCountDistribution: { uses: number; count: number }[] }
interface Holding { customer: string; totalIbcTaken: number; totalIbcReturned: number; ibcToReturn: number; avgReturnTime: number | null }

beforeAll(async () => {
  story = await startStoryServer(5, 'tm-e2e-ibc-', seedIbc);
  browser = await openBrowser();
  ids.product = await story.idOf('material', IBC_DATA.product);
  ids.filler = await story.idOf('company_division', IBC_GROUPS.filler.warehouse);
  ids.customerDeposit = await story.idOf('company_division', IBC_GROUPS.customer.warehouse);
  ids.customer = await story.idOf('company', IBC_DATA.customer);
  overdueDate = (await story.api<{ nextInspectionDate: string }>(`/api/v3/ibc/lookup?serial=${IBC_DATA.overdue}`)).nextInspectionDate;
  // The lot the IBCs are filled from: imported and confirmed at the filler's deposit, as any stock arrives.
  const made = await story.post<{ id: string }>('/api/v3/operations/product_import', {
    importDate: today, importID: `IMP-${tag}`, deposit: ids.filler, productData: [{ material: ids.product, batchId: LOT, quantity: 5000 }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const confirmed = await story.post(`/api/v3/operations/product_import/${made.body.id}/transitions/confirm`, {});
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  staff = await actor(browser, story.server.url, IBC_USERS.staff, 'en');
  customer = await actor(browser, story.server.url, IBC_USERS.customer, 'en');
}, 180_000);

afterAll(async () => {
  if (staff) await screenshot(staff.page, 'ibc-staff-last').catch(() => undefined);
  if (customer) await screenshot(customer.page, 'ibc-customer-last').catch(() => undefined);
  await browser?.close();
  await story?.stop();
});

/** The number a measure's figure shows. */
const shown = (fr: FrameLocator, measure: string) => fr.locator(`[data-testid=fleet-figures] [data-measure=${measure}] dd`).innerText();
const barCount = async (fr: FrameLocator, bars: string, key: string) => {
  const bar = fr.locator(`[data-testid=${bars}] li[data-key="${key}"]`);
  return (await bar.count()) ? Number(await bar.locator('.tm-op-bars__count').innerText()) : 0;
};

/**
 * The measures panel of /ibc-inventory as the staff member sees it: the status and fill-count
 * bars and the figures expected, each equal to the API's; the customer's holdings row.
 */
async function expectFleet(expected: { byStatus: Record<string, number>; uses: Record<number, number>; holding?: [number, number, number] }): Promise<FrameLocator> {
  const fr = await openFeature(staff.page, '/ibc-inventory');
  await fr.locator('[data-testid=fleet-figures]').waitFor({ timeout: 15_000 });
  const api = await story.api<Measures>('/api/v3/ibc/measures');
  for (const [status, count] of Object.entries(expected.byStatus)) {
    expect(await barCount(fr, 'by-status', status), status).toBe(count);
    expect(api.byStatus[status] ?? 0, status).toBe(count);
  }
  for (const [uses, count] of Object.entries(expected.uses)) {
    expect(await barCount(fr, 'fill-counts', uses), `uses ${uses}`).toBe(count);
    expect(api.fillCountDistribution.find((d) => d.uses === Number(uses))?.count ?? 0).toBe(count);
  }
  expect(await shown(fr, 'fleetSize')).toBe(String(api.fleetSize));
  expect(api.fleetSize).toBe(5);
  expect(await shown(fr, 'pastInspection')).toBe('1');
  const holdings = (await story.api<{ data: Holding[] }>('/api/v3/ibc/holdings')).data;
  if (!expected.holding) {
    await fr.locator('[data-testid=holdings-empty]').waitFor();
    expect(holdings).toEqual([]);
    return fr;
  }
  const row = fr.locator(`[data-testid=holding][data-customer="${ids.customer}"]`);
  const cell = (c: string) => row.locator(`td[data-column=${c}]`).innerText();
  expect(await cell('customerName')).toBe(IBC_DATA.customer);
  const [taken, returned, toReturn] = expected.holding;
  expect([await cell('totalIbcTaken'), await cell('totalIbcReturned'), await cell('ibcToReturn')]).toEqual([taken, returned, toReturn].map(String));
  expect(holdings).toMatchObject([{ customer: ids.customer, totalIbcTaken: taken, totalIbcReturned: returned, ibcToReturn: toReturn }]);
  // Days held, one decimal; a dash until one came back.
  expect(await cell('avgReturnTime')).toBe(returned ? holdings[0].avgReturnTime!.toFixed(1) : '—');
  return fr;
}

/** Adds IBCs to the form's container widget by serial (a scanner types it and presses Enter). */
async function scan(fr: FrameLocator, serials: readonly string[]): Promise<void> {
  for (const serial of serials) {
    await fr.locator('[data-testid=container-scan]').fill(serial);
    await fr.locator('[data-testid=container-scan]').press('Enter');
    await fr.locator(`[data-testid=container-line][data-serial="${serial}"]`).waitFor({ timeout: 10_000 });
  }
}

/** Opens a list's row by the text it shows. */
async function openRow(fr: FrameLocator, text: string): Promise<void> {
  const row = fr.locator('[data-testid=list-row]', { hasText: text });
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await fr.locator('[data-testid=operation-detail]').waitFor();
}

describe('the IBC story', () => {
  it('the fleet starts empty in stock: five IBCs, one past its inspection, no holdings', async () => {
    await expectFleet({ byStatus: { in_stock_empty: 5, prepared: 0 }, uses: { 0: 5 } });
    await screenshot(staff.page, 'ibc-1-inventory-start');
  });

  it('prepares a batch from the lot: the IBC past its inspection is refused by name and date, the others are filled', async () => {
    const fr = await openFeature(staff.page, '/ibc-batch-preparation');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'batchNumber').fill(BATCH);
    await field(fr, 'preparedDate').fill(today);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=company_division] input').first(), IBC_GROUPS.filler.warehouse);
    // The plant is given: without one, the fill writes an undefined productionPlant and the server refuses the confirmation (reported).
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=plant] input').first(), IBC_DATA.plant);
    const materials = fr.locator('[data-testid=reference-picker][data-ref=material] input');
    await pick(fr, materials.nth(0), IBC_DATA.product);
    await field(fr, 'sourceBatch').fill(LOT);
    await pick(fr, materials.nth(1), IBC_DATA.product);
    await field(fr, 'batchId').fill(LOT);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=units_of_measurement] input').first(), IBC_DATA.litre);
    const serials = [...IBC_DATA.serials, IBC_DATA.overdue];
    await scan(fr, serials);
    for (const [i, serial] of serials.entries()) {
      await field(fr, `containers_${i}_quantity`).fill('1000');
      await field(fr, `containers_${i}_topSeal`).fill(`TS-${serial}`);
      await field(fr, `containers_${i}_bottomSeal`).fill(`BS-${serial}`);
    }
    await screenshot(staff.page, 'ibc-2-batch-form');
    await save(fr);
    await expectState(fr, prep, 'Draft', 'en');
    await openTransition(fr, prep, 'confirm', 'en');
    const refusal = fr.locator('[data-testid=transition-error]');
    await refusal.waitFor({ timeout: 15_000 });
    // The transition's refusal, then the rule's own message naming the IBC and its date.
    expect(await refusal.innerText()).toContain(`IBC ${IBC_DATA.overdue} is past its periodic inspection date, ${overdueDate}: it cannot be filled until it is inspected.`);
    await screenshot(staff.page, 'ibc-3-refused-past-inspection');
    await fr.locator('[data-testid=transition-cancel]').click();
    expect((await story.api<{ status: string }>(`/api/v3/ibc/lookup?serial=${IBC_DATA.serials[0]}`)).status).toBe('in_stock_empty');

    // Without the overdue IBC the batch is prepared.
    await fr.locator('[data-testid=detail-edit]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await fr.locator(`[data-testid=container-line][data-serial="${IBC_DATA.overdue}"] [data-testid=container-remove]`).click();
    await save(fr);
    await take(fr, prep, 'confirm', 'en');
    await expectState(fr, prep, 'Prepared', 'en');
    const filled = await story.api<{ status: string; numberOfUses: number; topSeal: string; content: { batch: string; quantity: number } }>(`/api/v3/ibc/lookup?serial=${IBC_DATA.serials[1]}`);
    expect(filled).toMatchObject({ status: 'prepared', numberOfUses: 1, topSeal: `TS-${IBC_DATA.serials[1]}`, content: { batch: LOT, quantity: 1000 } });
    await expectFleet({ byStatus: { in_stock_empty: 2, prepared: 3 }, uses: { 0: 2, 1: 3 } });
  });

  it('ships them to the customer, who receives them: the customer holds three', async () => {
    let fr = await openFeature(staff.page, '/ibc-deliveries');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'sendDate').fill(today);
    await field(fr, 'shipmentID').fill(REMITO);
    const divisions = fr.locator('[data-testid=reference-picker][data-ref=company_division] input');
    await pick(fr, divisions.nth(0), IBC_GROUPS.filler.warehouse);
    await pick(fr, divisions.nth(1), IBC_GROUPS.customer.warehouse);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=company] input').first(), IBC_DATA.customer);
    await scan(fr, IBC_DATA.serials);
    await save(fr);
    await take(fr, delivery, 'confirm', 'en');
    await expectState(fr, delivery, 'In-Progress', 'en');
    await screenshot(staff.page, 'ibc-4-delivery-in-progress');

    fr = await openFeature(customer.page, '/ibc-reception');
    await openRow(fr, REMITO);
    await take(fr, delivery, 'receive', 'en', async () => {
      if (await fr.locator('[data-testid=input-receivedDate]').count()) await fr.locator('[data-testid=input-receivedDate]').fill(today);
    });
    await expectState(fr, delivery, 'Received', 'en');
    await screenshot(customer.page, 'ibc-5-received');
    const held = await story.api<{ status: string; customer: string; deposit_id: string }>(`/api/v3/ibc/lookup?serial=${IBC_DATA.serials[2]}`);
    expect(held).toMatchObject({ status: 'at_customer', customer: ids.customer, deposit_id: ids.customerDeposit });
    await expectFleet({ byStatus: { in_stock_empty: 2, at_customer: 3 }, uses: { 0: 2, 1: 3 }, holding: [3, 0, 3] });
    await screenshot(staff.page, 'ibc-6-inventory-at-customer');
  });

  it('the customer asks for their return and they come back: nothing left to return', async () => {
    let fr = await openFeature(customer.page, '/return-requests');
    await fr.locator('[data-testid=list-new]').click();
    await fr.locator('[data-testid=entity-form]').waitFor();
    await field(fr, 'requestNumber').fill(RETURN);
    await field(fr, 'requestDate').fill(today);
    await pick(fr, fr.locator('[data-testid=reference-picker][data-ref=company] input').first(), IBC_DATA.customer);
    const divisions = fr.locator('[data-testid=reference-picker][data-ref=company_division] input');
    await pick(fr, divisions.nth(0), IBC_GROUPS.customer.warehouse);
    await pick(fr, divisions.nth(1), IBC_GROUPS.filler.warehouse);
    await field(fr, 'returnState').click();
    await fr.locator('li[role=option]', { hasText: 'Empty' }).first().click();
    await scan(fr, IBC_DATA.serials);
    await save(fr);
    await take(fr, request, 'request', 'en');
    await expectState(fr, request, 'Requested', 'en');
    await screenshot(customer.page, 'ibc-7-return-requested');

    fr = await openFeature(staff.page, '/return-requests');
    await openRow(fr, RETURN);
    await take(fr, request, 'receive', 'en');
    await expectState(fr, request, 'Returned', 'en');
    const back = await story.api<{ status: string; deposit_id: string }>(`/api/v3/ibc/lookup?serial=${IBC_DATA.serials[0]}`);
    expect(back).toMatchObject({ status: 'returned', deposit_id: ids.filler });
    await expectFleet({ byStatus: { in_stock_empty: 2, at_customer: 0, returned: 3 }, uses: { 0: 2, 1: 3 }, holding: [3, 3, 0] });
    await screenshot(staff.page, 'ibc-8-inventory-returned');
  });

  it('one fails its QC and is quarantined from its page; the fleet filters and measures follow', async () => {
    const fr = await openFeature(staff.page, '/ibc-inventory');
    // The fill-count filter is the IBC list route's: the three filled once.
    await fr.locator('[data-testid=filter-uses-min]').fill('1');
    await expect.poll(() => fr.locator('[data-testid=list-row]').count(), { timeout: 15_000 }).toBe(3);
    await openRow(fr, FAILED);
    await take(fr, ibc, 'startQC', 'en');
    await expectState(fr, ibc, 'in_qc', 'en');
    await take(fr, ibc, 'quarantine', 'en', async () => {
      await fr.locator('[data-testid=input-qcDate]').fill(today);
      if (await fr.locator('[data-testid=input-qcResult]').count()) await fr.locator('[data-testid=input-qcResult]').fill('Cracked bottom valve');
      if (await fr.locator('[data-testid=input-performedBy]').count()) await fr.locator('[data-testid=input-performedBy]').fill('QC Lab Campana');
    });
    await expectState(fr, ibc, 'quarantine', 'en');
    // The IBC's page tells its life: the log's rows newest first, with who took each step and where it left the IBC.
    await expect.poll(() => fr.locator('[data-testid=ibc-event]').count(), { timeout: 15_000 }).toBe(7);
    const steps = await fr.locator('[data-testid=ibc-event]').evaluateAll((els) => els.map((e) => e.getAttribute('data-transition')));
    expect(steps).toEqual(['quarantine', 'startQC', 'return', 'requestReturn', 'receive', 'ship', 'fill']);
    const receive = fr.locator('[data-testid=ibc-event][data-transition=receive]');
    expect(await receive.locator('[data-testid=event-customer]').innerText()).toContain(IBC_DATA.customer);
    expect(await receive.locator('[data-testid=event-deposit]').innerText()).toContain(IBC_GROUPS.customer.warehouse);
    expect(await receive.locator('[data-testid=event-by]').innerText()).toContain(IBC_USERS.customer.name);
    expect(await fr.locator('[data-testid=ibc-event][data-transition=fill] [data-testid=event-by]').innerText()).toContain(IBC_USERS.staff.name);
    await screenshot(staff.page, 'ibc-9-quarantined-page');
    expect((await story.api<{ qcStatus?: string; status: string }>(`/api/v3/ibc/lookup?serial=${FAILED}`)).status).toBe('quarantine');
    await expectFleet({ byStatus: { in_stock_empty: 2, returned: 2, quarantine: 1 }, uses: { 0: 2, 1: 3 }, holding: [3, 3, 0] });
    await screenshot(staff.page, 'ibc-10-inventory-end');
    expect(staff.errors).toEqual([]);
    expect(customer.errors).toEqual([]);
  });

  it.each([['es', IBC_USERS.readerEs], ['fr', IBC_USERS.readerFr]] as const)('the fleet reads in %s', async (lang, user) => {
    const reader = await actor(browser, story.server.url, user, lang);
    try {
      const fr = await openFeature(reader.page, '/ibc-inventory');
      await fr.locator('[data-testid=fleet-figures]').waitFor({ timeout: 15_000 });
      expect(await fr.locator('[data-testid=by-status] li[data-key=quarantine] .tm-op-bars__label').innerText()).toBe(stateLabel(ibc, 'quarantine', lang));
      expect(await fr.locator(`[data-testid=holding][data-customer="${ids.customer}"] td[data-column=customerName]`).innerText()).toBe(IBC_DATA.customer);
      await screenshot(reader.page, `ibc-11-inventory-${lang}`);
      await openRow(fr, FAILED);
      await expectState(fr, ibc, 'quarantine', lang);
      // References read by their names (looked up after the record arrives), never as raw ids.
      await expect.poll(() => fr.locator('[data-field=company_id] dd').innerText(), { timeout: 10_000 }).toBe(IBC_DATA.filler);
      await screenshot(reader.page, `ibc-12-page-${lang}`);
      expect(reader.errors).toEqual([]);
    } finally {
      await reader.context.close();
    }
  });
});
