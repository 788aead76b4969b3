import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { requireDefinitions } from '../definitions/read';
import { GROUPS, USERS } from './harness/users';
import { gotoSignIn, newSession, openBrowser, screenshot, submitSignIn, type Session } from './support';

/**
 * Issue 14 item 9: in Spanish and in French the main screens show no text of another
 * language. What counts as "another language's text": every interface text (schemas/i18n)
 * and every definition label (any `{en, es, fr}` text of the registry) whose translation
 * differs, long enough to be telling (two words, or one word of six letters or more, matched
 * as a whole word), unless the language itself uses the same words somewhere.
 */
type Lang = 'en' | 'es' | 'fr';
const LANGS: Lang[] = ['en', 'es', 'fr'];

const bundles = Object.fromEntries(LANGS.map((l) => [l, JSON.parse(readFileSync(`schemas/i18n/${l}.json`, 'utf8')) as Record<string, string>])) as Record<Lang, Record<string, string>>;

/** Every text of the definitions, per language (a missing French falls back to English, as shown). */
function definitionTexts(): Record<Lang, string>[] {
  const out: Record<Lang, string>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) { v.forEach(walk); return; }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.en === 'string' && typeof o.es === 'string') {
      out.push({ en: o.en, es: o.es, fr: typeof o.fr === 'string' ? o.fr : o.en });
      return;
    }
    Object.values(o).forEach(walk);
  };
  walk(requireDefinitions(process.cwd()));
  return out;
}

const texts: Record<Lang, string>[] = [
  ...Object.keys(bundles.en).filter((k) => k !== '$schema').map((k) => {
    const base = k.replace(/_(one|other)$/, '');
    const get = (l: Lang) => bundles[l][k] ?? bundles[l][`${base}_other`] ?? bundles.en[k];
    return { en: get('en'), es: get('es'), fr: get('fr') };
  }),
  ...definitionTexts(),
];

/** The fixed parts of a text (between its {{values}}), trimmed of punctuation. */
function fragments(text: string): string[] {
  return text.split(/\{\{\w+\}\}|\n/).map((s) => s.trim().replace(/^[\s:;,.·–()…?!«»"]+|[\s:;,.·–()…?!«»"]+$/g, '')).filter(Boolean);
}

const telling = (s: string) => s.split(/\s+/).length >= 2 ? s.replace(/[^\p{L}]/gu, '').length >= 4 : s.replace(/[^\p{L}]/gu, '').length >= 6;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordRegex = (s: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(s)}(?![\\p{L}\\p{N}])`, 'u');

/** The other languages' telling texts that `lang` does not use itself. */
function foreignTo(lang: Lang): { text: string; lang: Lang; re: RegExp }[] {
  const own = texts.map((t) => t[lang]).join('\n');
  const found = new Map<string, Lang>();
  for (const t of texts) {
    for (const other of LANGS.filter((l) => l !== lang)) {
      if (t[other] === t[lang]) continue;
      for (const f of fragments(t[other])) if (telling(f) && !found.has(f)) found.set(f, other);
    }
  }
  return [...found].map(([text, l]) => ({ text, lang: l, re: wordRegex(text) })).filter((f) => !f.re.test(own));
}

/** The seeded people and groups are data, not interface text ("Wanda Warehouse"). */
const SEEDED = [...Object.values(USERS).flatMap((u) => [u.name, u.email]), ...GROUPS.map((g) => g.name)].filter(Boolean).sort((a, b) => b.length - a.length);
const withoutSeededData = (text: string) => SEEDED.reduce((t, s) => t.split(s).join(' '), text);

/** What a person reads on the page: its text and the labels, titles and placeholders of its elements. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = [...document.querySelectorAll('[aria-label],[title],[placeholder],img[alt]')].flatMap((e) =>
      ['aria-label', 'title', 'placeholder', 'alt'].map((a) => e.getAttribute(a)).filter((v): v is string => !!v));
    return [document.title, document.body.innerText, ...attrs].join('\n');
  });
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.locator('.p-progress-spinner, [data-testid=loading]').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
}

let browser: Browser;
beforeAll(async () => { browser = await openBrowser(); });
afterAll(async () => { await browser?.close(); });

describe.each(['es', 'fr'] as const)('the main screens in %s', (lang) => {
  const foreign = foreignTo(lang);
  let s: Session;
  const seen: string[] = [];

  /** Fails with every foreign text of the screen, named with its language (the walk goes on, to name them all). */
  async function expectOnly(screen: string): Promise<void> {
    await settle(s.page);
    const text = withoutSeededData(await visibleText(s.page));
    const hits = foreign.filter((f) => f.re.test(text)).map((f) => `${f.lang}: ${f.text}`);
    seen.push(screen);
    if (hits.length > 0) await screenshot(s.page, `languages-${lang}-${screen.replace(/\W+/g, '-')}`);
    expect.soft(hits, `${screen} in ${lang}`).toEqual([]);
  }

  async function open(path: string, ready: string): Promise<void> {
    await s.page.goto(path);
    await s.page.locator(ready).first().waitFor({ timeout: 20_000 });
  }

  beforeAll(async () => { s = await newSession(browser, { width: 1440, height: 900 }); });
  afterAll(async () => {
    // The header's language choice is saved to the profile: the other files expect English.
    if (s && await s.page.locator('[data-testid=language-button]').count() > 0) await chooseInMenu(s.page, 'en').catch(() => undefined);
    await s?.context.close();
  });

  it('has enough texts to look for', () => {
    expect(foreign.length).toBeGreaterThan(300);
  });

  it('signs in', async () => {
    await gotoSignIn(s.page);
    await s.page.locator(`.tm-langswitch button[lang=${lang}]`).click();
    await expect.poll(() => s.page.locator('html').getAttribute('lang')).toBe(lang);
    await expectOnly('sign-in');
    await submitSignIn(s.page, USERS.admin.email, USERS.admin.password);
    await s.page.locator('[data-testid=user-button]').waitFor({ timeout: 20_000 });
    if (await s.page.locator('html').getAttribute('lang') !== lang) await chooseInMenu(s.page, lang);
    await expect.poll(() => s.page.locator('html').getAttribute('lang')).toBe(lang);
    await expectOnly('home');
  });

  it('shows the master data catalogue, the company list and its form', async () => {
    await open('/masterdata', '[data-testid=user-button]');
    await expectOnly('catalogue');
    await open('/masterdata/company', '[data-testid=list-row]');
    await expectOnly('company list');
    await s.page.locator('[data-testid=list-new]').click();
    await s.page.locator('#root_company_name').waitFor();
    await expectOnly('new company form');
    // Saving an empty form shows the validation messages.
    await s.page.locator('[data-testid=form-save]').click().catch(() => undefined);
    await s.page.waitForTimeout(500);
    await expectOnly('company form with errors');
    await open('/masterdata/company', '[data-testid=list-row]');
    await s.page.locator('[data-testid=row-edit]').first().click();
    await s.page.locator('#root_company_name').waitFor();
    await expectOnly('company form');
  });

  it('shows the users and a user form', async () => {
    await open('/user-management', '[data-testid=list-row]');
    await expectOnly('user list');
    await s.page.locator('[data-testid=row-edit]').first().click();
    await s.page.locator('form').first().waitFor();
    await expectOnly('user form');
  });

  it('shows the import screen and the import logs', async () => {
    await open('/data-import/import', '[data-testid=user-button]');
    await expectOnly('import');
    await open('/data-import/logs', '[data-testid=user-button]');
    await expectOnly('import logs');
  });

  it('shows the profile and the menus', async () => {
    await open('/profile', '[data-testid=user-button]');
    await expectOnly('profile');
    await s.page.locator('[data-testid=user-button]').click();
    await expectOnly('user menu');
    await s.page.keyboard.press('Escape');
    expect(seen.length).toBe(13);
    expect(s.errors).toEqual([]);
  });
});

/** Picks a language in the header menu, whatever language the menu is in now. */
async function chooseInMenu(page: Page, lang: Lang): Promise<void> {
  await page.locator('[data-testid=language-button]').click();
  const names = LANGS.map((l) => bundles[l][`language.${lang}`]);
  await page.getByRole('menuitem', { name: new RegExp(`^(${names.map(escape).join('|')})$`) }).click();
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
}
