import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminStory } from './adminStory';
import { readableMail } from './harness/mail';
import { disableFirstRowConfirmed, env, newSession, signedInSession, signIn, signInError, submitSignIn } from './support';

/**
 * User and group administration in the browser, through the generated screens of
 * `/group-management` and `/user-management`. One story, in order: a group is created, a
 * user is invited into it with a permission template, takes the invitation from the mail,
 * signs in with what the group and template grant, and is then reset, disabled and enabled.
 */
const tag = Date.now().toString(36).slice(-5);
const GROUP = `Auditors ${tag}`;
const WAREHOUSE = 'Rosario Norte'; // seeded by e2e/harness/seed.ts
const INVITEE = { email: `invitee.${tag}@e2e.local`, name: `Ivo Invitee ${tag}`, password: 'Invited-pass-2026' };
/** The group grants Reports; the template masterDataAdmin grants Master Data and Data Import. */
const TEMPLATE = 'masterDataAdmin';

const story = adminStory('users');
let page: Page;
beforeAll(() => { page = story.page; });

const rows = () => page.locator('[data-testid=list-row]');
const cell = (column: string) => rows().first().locator(`td[data-column="${column}"]`);

/** Every mail the test SMTP server received for `to`, oldest first, decoded. */
function mailsTo(to: string): string[] {
  const files = readdirSync(env.mailDir).sort();
  return files.map((f) => readFileSync(join(env.mailDir, f), 'utf8')).filter((raw) => raw.toLowerCase().includes(to.toLowerCase())).map(readableMail);
}

async function waitForMails(to: string, count: number): Promise<string[]> {
  await expect.poll(() => mailsTo(to).length, { timeout: 15_000, message: `${count} mail(s) to ${to}` }).toBeGreaterThanOrEqual(count);
  return mailsTo(to);
}

function resetLink(mail: string): string {
  const link = /https?:\/\/[^\s"'<>]*\/resetPassword\?token=[^\s"'<>]+/.exec(mail)?.[0];
  expect(link, 'the mail holds a /resetPassword?token= link').toBeTruthy();
  const url = new URL(link!.replace(/&amp;/g, '&'));
  return `${url.pathname}${url.search}`;
}

async function openList(path: string, entity: string): Promise<void> {
  await page.goto(path);
  await page.locator(`[data-testid=entity-list][data-entity=${entity}]`).waitFor();
}

async function search(text: string, expected = 1): Promise<void> {
  await page.locator('[data-testid=list-search]').fill(text);
  await expect.poll(async () => (await rows().count()) === expected && (await rows().allInnerTexts()).every((t) => t.includes(text)), { timeout: 10_000 }).toBe(true);
}

/** The n-th entry of a list field, adding entries until it exists (a required list starts with one). */
async function listEntry(field: string, n: number): Promise<string> {
  const id = `root_${field}_${n}`;
  if ((await page.locator(`[id="${id}"]`).count()) === 0) await page.locator(`[id="root_${field}__add"]`).click();
  await page.locator(`[id="${id}"]`).waitFor();
  return id;
}

/** Picks a record in a reference picker by typing the first letters of its title. */
async function pick(inputId: string, title: string): Promise<void> {
  const input = page.locator(`[id="${inputId}"]`);
  await input.pressSequentially(title.slice(0, 5), { delay: 20 });
  const option = page.locator('[data-testid=picker-options] [role=option]', { hasText: title });
  await option.first().waitFor({ timeout: 10_000 });
  await option.first().click();
  await expect.poll(() => input.inputValue()).toBe(title);
}

/** Disables or enables the invitee's row: it leaves the list, and shows in its new state under that filter. */
async function switchState(action: 'row-disable' | 'row-enable', state: 'Disabled' | 'Active'): Promise<void> {
  if (action === 'row-disable') await disableFirstRowConfirmed(page, INVITEE.name);
  else await rows().first().locator('[data-testid=row-enable]').click();
  await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(0);
  await page.locator('[data-testid=state-filter]').getByText(state, { exact: true }).click();
  await search(INVITEE.name);
  expect(await cell('state').innerText()).toBe(state);
}

/** What the signed-in user of `p` may open: GET /api/auth/validate with the page's own session. */
async function accessOf(p: Page): Promise<{ access?: string[]; groups?: { name: string }[] } | undefined> {
  return p.evaluate(async () => {
    const stored = Object.entries(localStorage).find(([k]) => k.endsWith('.session'))?.[1];
    const res = await fetch('/api/auth/validate', { headers: { authorization: `Bearer ${(JSON.parse(stored ?? '{}') as { token?: string }).token}` } });
    return ((await res.json()) as { detail?: { access?: string[]; groups?: { name: string }[] } }).detail;
  });
}

async function save(): Promise<void> {
  await page.locator('[data-testid=form-save]').click();
  await page.locator('[data-testid=entity-list]').waitFor({ timeout: 15_000 });
}

describe('group and user administration', () => {
  it('creates a group with an access key and a warehouse, listed by the warehouse\'s name', async () => {
    await openList('/group-management', 'group');
    await page.locator('[data-testid=list-new]').click();
    await page.locator('[data-testid=entity-form][data-entity=group]').waitFor();
    await page.locator('#root_name').fill(GROUP);
    await page.locator(`[id="${await listEntry('access', 0)}"]`).fill('Reports');
    await pick(await listEntry('warehouses', 0), WAREHOUSE);
    await save();
    await search(GROUP);
    expect(await cell('access').innerText()).toBe('Reports');
    // The list shows the referenced warehouse by its title, not its id.
    expect(await cell('warehouses').innerText()).toBe(WAREHOUSE);
  });

  it('invites a user into the group with a permission template: the invitation arrives by mail', async () => {
    await openList('/user-management', 'user');
    await page.locator('[data-testid=list-new]').click();
    await page.locator('[data-testid=entity-form][data-entity=user]').waitFor();
    await page.locator('#root_email').fill(INVITEE.email);
    await page.locator('#root_display_name').fill(INVITEE.name);
    await pick(await listEntry('groups', 0), GROUP);
    await page.locator(`[id="${await listEntry('templates', 0)}"]`).fill(TEMPLATE);
    await save();
    await expect.poll(() => page.locator('[data-testid=entity-notice]').innerText()).toBe(`An invitation was sent to ${INVITEE.email}.`);
    const [invitation] = await waitForMails(INVITEE.email, 1);
    expect(invitation).toContain('You are invited');
    expect(invitation).toMatch(/resetPassword\?token=/);
    await search(INVITEE.name);
    expect(await cell('email').innerText()).toBe(INVITEE.email);
    expect(await cell('groups').innerText()).toBe(GROUP);
    await rows().first().locator('[data-testid=row-edit]').click();
    await page.locator('[data-testid=entity-form][data-purpose=edit]').waitFor();
    await expect.poll(() => page.locator('#root_templates_0').inputValue()).toBe(TEMPLATE);
    await expect.poll(() => page.locator('#root_groups_0').inputValue()).toBe(GROUP);
    await page.locator('[data-testid=form-cancel]').click();
  });

  it('lets the invitee set a password from the mail and sign in with what the group and template grant', async () => {
    const [invitation] = mailsTo(INVITEE.email);
    const s = await newSession(story.browser);
    await s.page.goto(resetLink(invitation));
    await s.page.locator('input[autocomplete=new-password]').nth(0).fill(INVITEE.password);
    await s.page.locator('input[autocomplete=new-password]').nth(1).fill(INVITEE.password);
    await s.page.getByRole('button', { name: 'Reset password' }).click();
    await s.page.locator('[data-testid=reset-done]').waitFor();
    await signIn(s.page, INVITEE.email, INVITEE.password);
    // Master Data from the template, Reports from the group; user management from neither.
    await s.page.goto('/masterdata');
    await s.page.locator('[data-testid=catalogue-entry][data-entity=company]').waitFor();
    await s.page.goto('/user-management');
    await s.page.locator('[data-testid=not-found]').waitFor();
    const access = await accessOf(s.page);
    expect(access?.access).toEqual(expect.arrayContaining(['Reports', 'Master Data', 'Data Import']));
    expect(access?.access).not.toContain('User Management');
    expect(access?.groups?.map((g) => g.name)).toEqual([GROUP]);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('sends a password reset e-mail from the list', async () => {
    await openList('/user-management', 'user');
    await search(INVITEE.name);
    const before = mailsTo(INVITEE.email).length;
    await rows().first().locator('[data-testid=row-reset-password]').click();
    await expect.poll(() => page.locator('[data-testid=entity-notice]').innerText()).toContain(INVITEE.email);
    const mails = await waitForMails(INVITEE.email, before + 1);
    expect(resetLink(mails[mails.length - 1])).not.toBe(resetLink(mails[0]));
  });

  it('disables the user, who can no longer sign in, and enables them again', async () => {
    await search(INVITEE.name);
    await switchState('row-disable', 'Disabled');

    const blocked = await newSession(story.browser);
    await blocked.page.goto('/');
    await submitSignIn(blocked.page, INVITEE.email, INVITEE.password);
    expect(await signInError(blocked.page)).toBe('Account disabled. Contact your admin.');
    await blocked.context.close();

    await switchState('row-enable', 'Active');
    const back = await signedInSession(story.browser, INVITEE);
    await back.context.close();
    expect(story.session.errors).toEqual([]);
  });

  it('disables the group: its members lose what it granted, and keep their own templates', async () => {
    await openList('/group-management', 'group');
    await search(GROUP);
    await disableFirstRowConfirmed(page, GROUP);
    await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(0);
    const member = await signedInSession(story.browser, INVITEE);
    const access = await accessOf(member.page);
    expect(access?.groups).toEqual([]);
    expect(access?.access).not.toContain('Reports');
    expect(access?.access).toEqual(expect.arrayContaining(['Master Data', 'Data Import']));
    await member.context.close();
  });
});
