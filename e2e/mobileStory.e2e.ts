import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumWithCamera, codeVideo } from './harness/camera';
import { IBC_DATA } from './harness/ibcSeed';
import { seedMobile } from './harness/mobileSeed';
import { IBC_GROUPS, MOBILE_USERS } from './harness/users';
import { startStoryServer, type StoryServer } from './operationSteps';
import { openBrowser, screenshot } from './support';

/**
 * Issue 20's "done when", in Chromium on phones (390×844, touch, the app's service worker
 * running): the yard confirms a batch of IBCs prepared in the office, then — with no coverage —
 * confirms the shipment; it waits on the device as pending and is judged when the connection
 * returns. The transporter, also without coverage, marks it delivered on the customer's behalf.
 * The customer's receiver asks for the IBCs' return from the phone; the yard takes them back and
 * checks them. Every offline action is marked on the server and listed by the offline reports.
 * Last, two devices act on one IBC while offline: the first to reconnect wins, the other is told
 * why and what to do.
 */
const PHONE = { width: 390, height: 844 };
const today = new Date().toISOString().slice(0, 10);
const tag = Date.now().toString(36).slice(-5).toUpperCase();
const LOT = `LOT-M-${tag}`;
const BATCH = `PREP-M-${tag}`;
const REMITO = `R-M-${tag}`;
const RETURN = `DEV-M-${tag}`;
const [FIRST, SECOND] = IBC_DATA.serials;

type Rec = Record<string, any>;
interface Phone { context: BrowserContext; page: Page; errors: string[] }

let story: StoryServer;
let browser: Browser;
const phones: Phone[] = [];
const ids = { product: '', plant: '', litre: '', filler: '', customerDeposit: '', customer: '', batch: '', delivery: '' };

/** A phone signed in to the mobile app as `user` (on `on`, a browser of its own when it needs a camera), the terms accepted and the service worker in control. */
async function phone(user: { email: string; password: string }, on: Browser = browser): Promise<Phone> {
  const context = await on.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, baseURL: story.server.url, locale: 'en-US', serviceWorkers: 'allow' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const p = { context, page, errors };
  phones.push(p);
  await page.goto('/m/');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The terms are asked once per user: not again on another phone of someone who accepted them.
  const accept = page.getByRole('button', { name: 'I accept the terms' });
  await accept.or(page.getByTestId('feature-list')).first().waitFor({ timeout: 20_000 });
  if (await accept.isVisible()) await accept.click();
  await page.getByTestId('feature-list').waitFor();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
  return p;
}

/** Opens a feature from its address (the service worker serves the app offline too). */
async function open(p: Phone, feature: string): Promise<void> {
  await p.page.goto(`/m/f/${feature}`);
  await p.page.locator(`[data-testid=feature-screen][data-feature=${feature}]`).waitFor();
}

/** The record's entry in the feature's list, once the list shows it. */
async function listed(p: Phone, title: string) {
  const entry = p.page.getByTestId('record-list').getByRole('button', { name: new RegExp(title) });
  await entry.waitFor({ timeout: 20_000 });
  return entry;
}

/** Picks a record from the feature's kept list by its title. */
async function pick(p: Phone, title: string): Promise<void> {
  await (await listed(p, title)).click();
  await p.page.getByTestId('record-card').getByRole('heading', { name: title }).waitFor();
}

/** Types an IBC's serial, as a user without NFC or camera does. */
async function find(p: Phone, serial: string): Promise<void> {
  await p.page.getByLabel('Serial number').fill(serial);
  await p.page.getByRole('button', { name: 'Find' }).click();
  await p.page.getByTestId('record-card').getByRole('heading', { name: serial }).waitFor();
}

/** Takes an action on the record shown: its form filled by `fill`, saved, and the queue's notice read. */
async function act(p: Phone, transition: string, fill: (page: Page) => Promise<void> = async () => undefined): Promise<string> {
  await p.page.getByTestId(`action-${transition}`).click();
  await p.page.getByTestId('action-form').waitFor();
  await fill(p.page);
  await p.page.getByTestId('action-form').getByRole('button', { name: 'Save' }).click();
  return p.page.getByTestId('queued-notice').innerText();
}

/** The device's queue as its Sync screen lists it: [seq, status] of each action. */
async function queue(p: Phone): Promise<{ seq: number; status: string; text: string }[]> {
  await p.page.getByTestId('sync-button').click();
  await p.page.getByRole('heading', { name: 'Sync' }).waitFor();
  return p.page.locator('[data-testid^=queue-item-]').evaluateAll((els) => els.map((e) => ({
    seq: Number(e.getAttribute('data-testid')!.slice('queue-item-'.length)), status: e.getAttribute('data-status') ?? '', text: (e as unknown as { innerText: string }).innerText,
  })));
}

/** Waits until the device holds no pending action (sent and judged). */
async function synced(p: Phone): Promise<void> {
  await expect.poll(async () => (await queue(p)).filter((a) => a.status === 'pending').length, { timeout: 30_000 }).toBe(0);
}

const ibc = (serial: string) => story.api<Rec>(`/api/v3/ibc/lookup?serial=${serial}`);
const record = async (wf: string, id: string) => (await story.api<{ record: Rec }>(`/api/v3/operations/${wf}/${id}`)).record;
const reportRows = async (report: string) => Object.values(await story.api<Rec>(`/api/v3/reports/${report}/rows?pageSize=100`)).find(Array.isArray) as Rec[];

beforeAll(async () => {
  story = await startStoryServer(23, 'tm-e2e-mobile-', seedMobile);
  browser = await openBrowser();
  ids.product = await story.idOf('material', IBC_DATA.product);
  ids.plant = await story.idOf('plant', IBC_DATA.plant);
  ids.litre = await story.idOf('units_of_measurement', IBC_DATA.litre);
  ids.filler = await story.idOf('company_division', IBC_GROUPS.filler.warehouse);
  ids.customerDeposit = await story.idOf('company_division', IBC_GROUPS.customer.warehouse);
  ids.customer = await story.idOf('company', IBC_DATA.customer);
  // In the office: the lot in stock at the filler's deposit, and the day's batch drafted for the yard to confirm.
  const made = await story.post<Rec>('/api/v3/operations/product_import', {
    importDate: today, importID: `IMP-M-${tag}`, deposit: ids.filler, productData: [{ material: ids.product, batchId: LOT, quantity: 5000 }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect((await story.post(`/api/v3/operations/product_import/${made.body.id}/transitions/confirm`, {})).status).toBe(200);
  const batch = await story.post<Rec>('/api/v3/operations/ibc_batch_preparation', {
    batchNumber: BATCH, preparedDate: today, deposit: ids.filler, productionPlant: ids.plant, sourceMaterial: ids.product, sourceBatch: LOT,
    material: ids.product, batchId: LOT, uom: ids.litre,
    containers: [FIRST, SECOND].map((s) => ({ ibcNumber: s, quantity: 1000, topSeal: `TS-${s}`, bottomSeal: `BS-${s}` })),
  });
  expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  ids.batch = batch.body.id;
}, 180_000);

afterAll(async () => {
  for (const [i, p] of phones.entries()) await screenshot(p.page, `mobile-story-phone-${i}-last`).catch(() => undefined);
  await browser?.close();
  await story?.stop();
});

describe('a day of IBCs on phones, with and without coverage', () => {
  let yard: Phone;

  it('the yard confirms the batch prepared in the office: the IBCs are filled', async () => {
    yard = await phone(MOBILE_USERS.yard);
    // The features of the yard's keys only, in the definition's order (Map IBC and Map Location share a key).
    expect((await yard.page.getByTestId('feature-list').getByRole('link').all()).length).toBe(6);
    for (const id of ['mapIbc', 'ibcReturns', 'performQc', 'ibcBatchPreparation', 'ibcDelivery', 'mapLocation']) await yard.page.getByTestId(`feature-${id}`).waitFor();
    await open(yard, 'ibcBatchPreparation');
    await pick(yard, BATCH);
    expect(await act(yard, 'confirm')).toBe('Saved and sending.');
    await synced(yard);
    expect((await record('ibc_batch_preparation', ids.batch)).ibcStatus).toBe('Prepared');
    expect((await ibc(FIRST)).status).toBe('prepared');
    await screenshot(yard.page, 'mobile-1-batch-confirmed');
  });

  it('with no coverage the yard confirms the shipment: pending on the phone, judged when the connection returns, marked offline', async () => {
    const draft = await story.post<Rec>('/api/v3/operations/ibc_delivery', {
      // The office plans it for today; the yard confirms the date it actually leaves.
      sendDate: today, shipmentID: REMITO, deposit: ids.filler, receiverDeposit: ids.customerDeposit, receiver: ids.customer, receiverCompanyType: 'customer',
      containers: [FIRST, SECOND].map((ibcNumber) => ({ ibcNumber })),
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    ids.delivery = draft.body.id;
    await open(yard, 'ibcDelivery');
    await listed(yard, REMITO); // the list read online is kept on the device
    await yard.context.setOffline(true);
    await open(yard, 'ibcDelivery');
    await expect.poll(() => yard.page.getByTestId('connectivity').innerText()).toBe('Offline');
    await pick(yard, REMITO);
    expect(await act(yard, 'confirm', (page) => page.locator('input[name=sendDate]').fill(today))).toBe('Saved on the device: it will be sent when online.');
    const waiting = await queue(yard);
    expect(waiting[0]).toMatchObject({ status: 'pending' });
    expect((await record('ibc_delivery', ids.delivery)).deliveryStatus).toBe('Draft');
    await screenshot(yard.page, 'mobile-2-shipment-pending-offline');

    await yard.context.setOffline(false);
    await synced(yard);
    expect((await queue(yard))[0]).toMatchObject({ status: 'applied' });
    const shipped = await record('ibc_delivery', ids.delivery);
    expect(shipped).toMatchObject({ deliveryStatus: 'In-Progress', sendDate: today, offline: true });
    expect(typeof shipped.offlineDevice).toBe('string');
    expect((await ibc(FIRST)).status).toBe('in_transit');
    expect((await reportRows('report_app_in_offline_mode')).map((r) => r.shipmentID)).toContain(REMITO);
    expect((await reportRows('ibcs_delivered_offline')).filter((r) => r.shipmentID === REMITO).map((r) => r.ibcNumber).sort()).toEqual([FIRST, SECOND]);
    await screenshot(yard.page, 'mobile-3-shipment-synced');
  });

  it('the transporter, also offline at the customer\'s gate, marks it delivered on the customer\'s behalf', async () => {
    const driver = await phone(MOBILE_USERS.transporter);
    await open(driver, 'transporterReception');
    await listed(driver, REMITO);
    await driver.context.setOffline(true);
    await open(driver, 'transporterReception');
    await pick(driver, REMITO);
    await act(driver, 'receiveByTransporter', (page) => page.locator('input[name=receivedDate]').fill(today));
    expect((await queue(driver)).map((a) => a.status)).toEqual(['pending']);
    await driver.context.setOffline(false);
    await synced(driver);
    expect(await record('ibc_delivery', ids.delivery)).toMatchObject({ deliveryStatus: 'Received', receivedDate: today, offline: true });
    expect(await ibc(FIRST)).toMatchObject({ status: 'at_customer', customer: ids.customer });
    expect((await reportRows('ibc_not_received_by_app')).map((r) => r.shipmentID)).toContain(REMITO);
    await screenshot(driver.page, 'mobile-4-delivered-by-transporter');
  });

  it('the customer\'s receiver asks for the empty IBCs\' return from the phone', async () => {
    const receiver = await phone(MOBILE_USERS.receiver);
    await open(receiver, 'returnRequest');
    await receiver.page.getByTestId('create-button').click();
    const form = receiver.page.getByTestId('action-form');
    await form.locator('input[name=requestNumber]').fill(RETURN);
    await form.locator('input[name=requestDate]').fill(today);
    await form.locator('select[name=customer]').selectOption({ label: IBC_DATA.customer });
    await form.locator('select[name=deposit]').selectOption({ label: IBC_GROUPS.customer.warehouse });
    await form.locator('select[name=returnTo]').selectOption({ label: IBC_GROUPS.filler.warehouse });
    await form.locator('select[name=returnState]').selectOption('empty');
    await form.locator('[name="containers.0.ibcNumber"]').fill(FIRST);
    await receiver.page.getByTestId('add-line-containers').click();
    await form.locator('[name="containers.1.ibcNumber"]').fill(SECOND);
    await form.getByRole('button', { name: 'Save' }).click();
    await receiver.page.getByTestId('queued-notice').waitFor();
    await synced(receiver);
    await open(receiver, 'returnRequest');
    await pick(receiver, RETURN);
    await act(receiver, 'request');
    await synced(receiver);
    const [asked] = await story.api<{ data: Rec[] }>(`/api/v3/operations/return_request?q=${RETURN}`).then((r) => r.data);
    expect(asked).toMatchObject({ requestNumber: RETURN, status: 'Requested', returnState: 'empty' });
    expect((await ibc(SECOND)).status).toBe('return_requested');
    await screenshot(receiver.page, 'mobile-5-return-requested');
  });

  it('the yard takes the IBCs back and checks the first: back in stock, empty', async () => {
    await open(yard, 'ibcReturns');
    for (const serial of [FIRST, SECOND]) {
      await find(yard, serial);
      await act(yard, 'return', async (page) => {
        await page.locator('select[name=deposit_id]').selectOption({ label: IBC_GROUPS.filler.warehouse });
        await page.locator('select[name=returnState]').selectOption('empty');
      });
    }
    await synced(yard);
    expect(await ibc(FIRST)).toMatchObject({ status: 'returned', deposit_id: ids.filler });
    await open(yard, 'performQc');
    await find(yard, FIRST);
    await act(yard, 'startQC');
    await synced(yard);
    await open(yard, 'performQc');
    await find(yard, FIRST);
    await act(yard, 'passQC', async (page) => {
      await page.locator('input[name=qcDate]').fill(today);
      await page.locator('input[name=qcResult]').fill('Clean, valve tight');
      await page.locator('input[name=performedBy]').fill('Yara Patio');
    });
    await synced(yard);
    expect(await ibc(FIRST)).toMatchObject({ status: 'in_stock_empty', qcResult: 'Clean, valve tight' });
    expect((await queue(yard)).every((a) => a.status === 'applied')).toBe(true);
    await screenshot(yard.page, 'mobile-6-qc-passed');
  });

  it('the yard records where an IBC stands from the phone\'s position and finds it on the map', async () => {
    const place = { latitude: -34.1633, longitude: -58.9592 };
    await yard.context.grantPermissions(['geolocation']);
    await yard.context.setGeolocation(place);
    await open(yard, 'mapLocation');
    await find(yard, FIRST);
    await act(yard, 'mapLocation', async (page) => {
      await page.getByRole('button', { name: /Use my location/ }).click();
      await expect.poll(() => page.locator('input[name="location.lat"]').inputValue()).toBe(String(place.latitude));
    });
    await synced(yard);
    expect((await ibc(FIRST)).location).toEqual({ lat: place.latitude, lng: place.longitude });
    await open(yard, 'mapLocation');
    const marker = yard.page.locator(`[data-testid=records-map] .leaflet-marker-icon[title="${FIRST}"]`);
    await marker.waitFor({ timeout: 20_000 });
    // One IBC placed: every other one is counted as not on the map.
    expect(await yard.page.getByTestId('map-unplaced').innerText()).toMatch(/^Not on the map \(no place recorded\): \d+$/);
    await marker.click();
    await yard.page.getByTestId('record-card').getByRole('heading', { name: FIRST }).waitFor();
    await screenshot(yard.page, 'mobile-7-map-location');
  });

  it('two devices start QC of one IBC while offline: the first to reconnect wins, the other is told why and what to do', async () => {
    const inspector = await phone(MOBILE_USERS.quality);
    for (const p of [yard, inspector]) {
      await open(p, 'performQc');
      await listed(p, SECOND); // the list read online is kept on the device
      await p.context.setOffline(true);
    }
    for (const p of [yard, inspector]) {
      await open(p, 'performQc');
      await pick(p, SECOND);
      await act(p, 'startQC');
    }
    await yard.context.setOffline(false);
    await synced(yard);
    expect(await ibc(SECOND)).toMatchObject({ status: 'in_qc', offline: true });
    await inspector.context.setOffline(false);
    await synced(inspector);
    const [refused] = await queue(inspector);
    expect(refused.status).toBe('rejected');
    expect(refused.text).toContain('This IBC container is now In QC: someone else acted on it first.');
    await screenshot(inspector.page, 'mobile-8-conflict-explained');
    // The refusal stays until dismissed.
    await inspector.page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(async () => (await queue(inspector)).length).toBe(0);
    for (const p of phones) expect(p.errors).toEqual([]);
  });

  it('a phone without NFC reads the IBC\'s GS1 DataMatrix with its camera', async () => {
    // The camera films the IBC's label: a GRAI (AI 8003: 0, the asset type, then the serial).
    const dir = mkdtempSync(join(tmpdir(), 'tm-e2e-camera-'));
    const video = join(dir, 'label.y4m');
    await codeVideo(`(8003)09506000134352${SECOND}`, video);
    const withCamera = await chromiumWithCamera(video);
    try {
      const scanner = await phone(MOBILE_USERS.quality, withCamera);
      await scanner.context.grantPermissions(['camera']);
      await open(scanner, 'performQc');
      await scanner.page.getByRole('button', { name: /Scan code/ }).click();
      await scanner.page.getByTestId('record-card').getByRole('heading', { name: SECOND }).waitFor({ timeout: 30_000 });
      expect(await scanner.page.getByTestId('record-card').innerText()).toContain('In QC');
      await screenshot(scanner.page, 'mobile-9-scanned-by-camera');
      expect(scanner.errors).toEqual([]);
    } finally {
      await withCamera.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
