import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { startFakeAuthority, type FakeAuthority } from '../server/src/sync/authority/fake';
import { FAKE_PASSWORD, FAKE_USER } from '../server/src/sync/authority/testing';
import { OPERATION_DATA, seedOperations } from './harness/operationsSeed';
import { OPERATION_GROUPS, OPERATION_USERS, USERS } from './harness/users';
import { actor, openFeature, startStoryServer, type Actor, type StoryServer } from './operationSteps';
import { openBrowser, screenshot } from './support';

/**
 * Issue 18's "done when", in Chromium, against the fake authority over HTTP: a product import
 * goes from pending to synced on the Imports list; one the authority refused shows its reason
 * and, sent again, syncs; one left refused past its legal deadline (a minute here) appears in
 * /alerts as overdue; an IBC event altered in the store is named by the ledger's verify route.
 */
const REASON = 'El producto no está inscripto en el registro';

let story: StoryServer;
let fake: FakeAuthority;
let browser: Browser;
let staff: Actor;
let admin: Actor;
const ids = { plant: '', product: '', litre: '' };
let seq = 0;

type Rec = Record<string, any>;

/** A product import, created and confirmed through the API (confirming declares it). */
async function declaredImport(): Promise<{ id: string; importID: string }> {
  const importID = `E2E-SYNC-${Date.now()}-${seq++}`;
  const created = await story.post<Rec>('/api/v3/operations/product_import', {
    importDate: new Date().toISOString().slice(0, 10), importID, deposit: ids.plant,
    productData: [{ material: ids.product, batchId: `L-${importID}`, quantity: 100, uom: ids.litre, elaborationDate: '2026-01-15', expirationDate: '2028-01-15' }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const confirmed = await story.post<Rec>(`/api/v3/operations/product_import/${created.body.id}/transitions/confirm`, {});
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { id: created.body.id as string, importID };
}

const syncOf = async (id: string): Promise<Rec> => ((await story.api<{ record: Rec }>(`/api/v3/operations/product_import/${id}`)).record.sync ?? {}) as Rec;

/** The Imports list searched for one import: its Senasa Sync cell, read afresh. */
async function listedSync(page: Page, importID: string): Promise<{ state: string | null; tip: string | null }> {
  const fr = await openFeature(page, '/imports');
  await fr.locator('[data-testid=list-search]').fill(importID);
  const cell = fr.locator('[data-testid=list-row]', { hasText: importID }).locator('[data-sync]');
  await cell.waitFor({ timeout: 15_000 });
  return { state: await cell.getAttribute('data-sync'), tip: await cell.getAttribute('title') };
}

async function openImport(page: Page, importID: string): Promise<FrameLocator> {
  const fr = await openFeature(page, '/imports');
  await fr.locator('[data-testid=list-search]').fill(importID);
  await fr.locator('[data-testid=list-row]', { hasText: importID }).click();
  await fr.locator('[data-testid=sync-panel]').waitFor({ timeout: 15_000 });
  return fr;
}

/** Waits for `done` (expect.poll is for tests, not their set-up). */
async function until(done: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) if (await done()) return;
  throw new Error(`${what}: not within ${ms} ms`);
}

const refused = { failed: { id: '', importID: '' }, overdue: { id: '', importID: '' } };

beforeAll(async () => {
  fake = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD });
  story = await startStoryServer(9, 'tm-e2e-sync-', seedOperations, {
    env: {
      AUTHORITY_BASE_URL: fake.url, AUTHORITY_USER: FAKE_USER, AUTHORITY_PASSWORD: FAKE_PASSWORD,
      SYNC_POLL_MS: '200', SYNC_BACKOFF_BASE_MS: '200', SYNC_BACKOFF_MAX_MS: '1000', SYNC_ALERT_INTERVAL_MS: '2000',
    },
    // Imports are due within a minute here (72 hours by law), so the story sees one fall overdue.
    deployment: (d) => { d.settings.sync!.deadlineMinutes.product_import = 1; },
  });
  browser = await openBrowser();
  ids.plant = await story.idOf('company_division', OPERATION_GROUPS.plant.warehouse);
  ids.product = await story.idOf('material', OPERATION_DATA.product);
  ids.litre = await story.idOf('units_of_measurement', OPERATION_DATA.litre);
  // Two declarations the authority refuses: one is sent again below, the other is left to fall overdue.
  fake.control.set('reject', { reason: REASON, code: 'not_registered' });
  refused.failed = await declaredImport();
  refused.overdue = await declaredImport();
  for (const r of Object.values(refused)) await until(async () => (await syncOf(r.id)).status === 'failed', `${r.importID} refused`);
  fake.control.set('up');
  staff = await actor(browser, story.server.url, OPERATION_USERS.en.staff, 'en');
  admin = await actor(browser, story.server.url, USERS.admin, 'en');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await story?.stop();
  await fake?.stop();
});

describe('declarations to the authority, in Chromium', () => {
  it('a declaration made while the authority is down shows pending on the list, then synced under the authority\'s transaction', async () => {
    fake.control.set('down');
    const rec = await declaredImport();
    expect(await listedSync(staff.page, rec.importID)).toMatchObject({ state: 'pending' });
    await screenshot(staff.page, 'sync-1-pending');
    fake.control.set('up');
    await expect.poll(async () => (await listedSync(staff.page, rec.importID)).state, { timeout: 30_000, interval: 1000 }).toBe('synced');
    await screenshot(staff.page, 'sync-2-synced');
    // The detail names the transaction the authority committed, once, under the record's key.
    const committed = (await fake.control.stats()).commitsPerKey[`product_import:${rec.id}:declare`];
    expect(committed).toBe(1);
    const fr = await openImport(staff.page, rec.importID);
    const transaction = (await syncOf(rec.id)).transactionId as string;
    expect(transaction).toBeTruthy();
    expect(await fr.locator('[data-testid=sync-panel] [data-field="sync.transactionId"] dd').innerText()).toBe(transaction);
  });

  it('a refused declaration shows the authority\'s reason, and sent again it syncs', async () => {
    expect(await listedSync(staff.page, refused.failed.importID)).toEqual({ state: 'failed', tip: REASON });
    const fr = await openImport(staff.page, refused.failed.importID);
    expect(await fr.locator('[data-testid=sync-panel] [data-field="sync.reason"] dd').innerText()).toBe(REASON);
    await screenshot(staff.page, 'sync-3-refused');
    await fr.locator('[data-testid=sync-resync]').click();
    await expect.poll(async () => (await syncOf(refused.failed.id)).status, { timeout: 20_000 }).toBe('synced');
    expect(await listedSync(staff.page, refused.failed.importID)).toMatchObject({ state: 'synced' });
    expect((await fake.control.stats()).commitsPerKey[`product_import:${refused.failed.id}:declare`]).toBe(1);
  });

  it('a declaration left refused past its legal deadline appears in /alerts as overdue', async () => {
    const { page } = admin;
    // /alerts narrows to the selected warehouse: the admin looks at the plant's.
    await page.goto('/alerts');
    const selector = page.locator('[data-testid=warehouse-selector]');
    await selector.waitFor({ timeout: 15_000 });
    if ((await selector.locator('.p-dropdown-label').innerText()) !== OPERATION_GROUPS.plant.name) {
      await selector.click();
      await Promise.all([page.waitForEvent('load'), page.getByRole('option', { name: OPERATION_GROUPS.plant.name }).click()]);
    }
    const overdueAlert = async () => {
      await page.goto('/alerts');
      const fr = page.frameLocator('iframe[data-feature]');
      await fr.locator('[data-testid=report-view][data-report=get_alerts_data]').waitFor({ timeout: 30_000 });
      await fr.locator('[data-testid=list-row]').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
      return fr.locator('[data-testid=list-row]', { hasText: refused.overdue.importID }).filter({ hasText: 'overdue' }).count();
    };
    // Its deadline is a minute after it was declared; the deadlines are looked at every two seconds.
    await expect.poll(overdueAlert, { timeout: 120_000, interval: 3000 }).toBeGreaterThan(0);
    await screenshot(page, 'sync-4-overdue-alert');
    const status = await story.api<{ overdue: number }>('/api/v3/sync/status');
    expect(status.overdue).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('an IBC event altered in the store is named by the ledger\'s verify route', async () => {
    const ibc = await story.post<Rec>('/api/v3/masterdata/ibc_container', {
      serial_number: `IBC-E2E-${Date.now()}`, manufactured_date: '2025-01-01', material_type: 'rigid_plastic', capacity: 1000, deposit_id: ids.plant, state: 1,
    });
    expect(ibc.status, JSON.stringify(ibc.body)).toBe(201);
    for (let i = 0; i < 3; i++) {
      const r = await story.post<Rec>(`/api/v3/operations/ibc/${ibc.body.id}/transitions/mapNfc`, { fields: { nfcTagNumber: `TAG-E2E-${i}` } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    type Verify = { ok: boolean; accounts: { ok: boolean; problem?: { type: string; eventId: string; collection: string } }[] };
    expect((await story.api<Verify>('/api/ledger/verify')).ok).toBe(true);
    // Someone with the database file rewrites the second event (the write a tamperer would make).
    const db = new Database(join(story.dataDir, 'store.sqlite'));
    let altered: string;
    try {
      db.pragma('busy_timeout = 5000');
      const events = db.prepare(`SELECT id FROM ibc_event WHERE json_extract(doc, '$.record') = ? ORDER BY json_extract(doc, '$.at'), id`).pluck().all(ibc.body.id) as string[];
      expect(events.length).toBeGreaterThanOrEqual(2);
      altered = events[1];
      db.prepare(`UPDATE ibc_event SET doc = json_set(doc, '$.nfcTagNumber', 'FORGED') WHERE id = ?`).run(altered);
    } finally {
      db.close();
    }
    const verify = await story.api<Verify>('/api/ledger/verify');
    expect(verify.ok).toBe(false);
    const problems = verify.accounts.filter((a) => !a.ok).map((a) => a.problem);
    expect(problems).toEqual([expect.objectContaining({ type: 'altered', collection: 'ibc_event', eventId: altered })]);
  });
});
