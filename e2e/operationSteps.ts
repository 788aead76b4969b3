/**
 * The steps of the operation stories (operations.e2e.ts, ibc.e2e.ts): each story runs on a
 * server of its own (the operation screens are the app's own guest in the feature frame, which
 * the server serves only when the features origin is its own path), seeded for it, with the
 * admin's token for the API checks; its people act in Chromium through the generated screens.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { DeploymentDef, WorkflowDef } from '../engine/src/index';
import { makeAppRoot } from './harness/appRoot';
import { startServer, type RunningServer } from './harness/server';
import { USERS } from './harness/users';
import { signIn } from './support';

export type Lang = 'en' | 'es' | 'fr';

export const readWorkflow = (name: string) => JSON.parse(readFileSync(`schemas/workflows/${name}.json`, 'utf8')) as WorkflowDef;
export const stateLabel = (wf: WorkflowDef, id: string, lang: Lang) => wf.states.find((s) => s.id === id)!.label[lang];
export const transitionLabel = (wf: WorkflowDef, id: string, lang: Lang) => wf.transitions.find((t) => t.id === id)!.label[lang];

export interface StoryServer {
  server: RunningServer;
  /** GET as the admin: the answer's JSON, the test failing on anything but 200. */
  api<T>(path: string): Promise<T>;
  /** POST as the admin: the status and the answer's JSON. */
  post<T>(path: string, body: unknown): Promise<{ status: number; body: T }>;
  /** The id of the first record of `entity` the search `q` finds. */
  idOf(entity: string, q: string): Promise<string>;
  /** Where the server keeps its data (the embedded store's file is in it). */
  dataDir: string;
  stop(): Promise<void>;
}

/** What a story changes in its server: its environment, its deployment. */
export interface StoryOptions {
  env?: Record<string, string>;
  deployment?: (d: DeploymentDef) => void;
  /** A configurator's edit of the definitions copy, before the server reads it. */
  definitions?: (appRoot: string) => void;
}

/**
 * A server of the story's own on E2E_PORT_BASE + `offset`, on a copy of the definitions and a
 * data directory `seed` fills before it starts; stop() removes both.
 */
export async function startStoryServer(offset: number, prefix: string, seed: (appRoot: string, dataDir: string) => Promise<void>, options: StoryOptions = {}): Promise<StoryServer> {
  const port = (Number(process.env.E2E_PORT_BASE) || 3101) + offset;
  const appRoot = makeAppRoot(process.cwd(), options.deployment ?? (() => undefined));
  options.definitions?.(appRoot);
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let server: RunningServer | undefined;
  const stop = async () => {
    if (server) {
      if (process.env.E2E_OPS_LOG) console.log(server.output().slice(-4000));
      await server.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
    // The copy links web/: unlink it first, so removing the copy never reaches the sources.
    const link = join(appRoot, 'web');
    if (existsSync(link) && lstatSync(link).isSymbolicLink()) unlinkSync(link);
    rmSync(appRoot, { recursive: true, force: true });
  };
  try {
    await seed(appRoot, join(dataDir, 'data'));
    server = await startServer(process.cwd(), port, {
      DATA_DIR: join(dataDir, 'data'), APP_ROOT: appRoot, ADMIN_EMAIL: USERS.admin.email, ADMIN_PASSWORD: USERS.admin.password,
      PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env,
    });
  } catch (e) {
    await stop();
    throw e;
  }
  const url = server.url;
  const signed = await fetch(`${url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: USERS.admin.email, password: USERS.admin.password }) });
  const token = ((await signed.json()) as { token: string }).token;
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return (await res.json()) as T;
  };
  return {
    server, api, stop, dataDir: join(dataDir, 'data'),
    async post<T>(path: string, body: unknown) {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as T };
    },
    async idOf(entity: string, q: string) {
      const r = await api<{ data: { id: string }[] }>(`/api/v3/masterdata/${entity}?q=${encodeURIComponent(q)}`);
      expect(r.data.length, `${entity} ${q}`).toBeGreaterThan(0);
      return r.data[0].id;
    },
  };
}

export interface Actor { context: BrowserContext; page: Page; errors: string[] }

/** A person signed in to the story's server in a browser context of their own (the locale follows their language). */
export async function actor(browser: Browser, baseURL: string, user: { email: string; password: string }, lang: Lang): Promise<Actor> {
  const locale = { en: 'en-US', es: 'es-AR', fr: 'fr-FR' }[lang];
  const context = await browser.newContext({ viewport: { width: 1366, height: 1000 }, baseURL, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, user.email, user.password);
  return { context, page, errors };
}

/** Opens a feature through the shell and answers its frame once the operation screen is drawn. */
export async function openFeature(page: Page, path: string): Promise<FrameLocator> {
  await page.goto(path);
  const frame = page.frameLocator('iframe[data-feature]');
  await frame.locator('[data-testid=operation-screen]').waitFor({ timeout: 30_000 });
  return frame;
}

/** Types into a reference picker and chooses the option reading `text`. */
export async function pick(fr: FrameLocator, input: Locator, text: string): Promise<void> {
  await input.fill(text);
  const option = fr.locator('[data-testid=picker-options] li', { hasText: text }).first();
  await option.waitFor({ timeout: 10_000 });
  await option.dispatchEvent('mousedown');
}

/** A form field by its path (`productData_0_batchId`). */
export const field = (fr: FrameLocator, path: string) => fr.locator(`[id$="root_${path}"]`).first();

/** The first line of an array field, added when the form starts with none. */
export async function firstLine(fr: FrameLocator, array: string, probe: string): Promise<void> {
  if (await field(fr, `${array}_0_${probe}`).count()) return;
  await fr.locator(`[id$="root_${array}__add"]`).first().click();
  await field(fr, `${array}_0_${probe}`).waitFor();
}

/** Saves the form; the record's detail shows once it is saved, the form's summary says why not. */
export async function save(fr: FrameLocator): Promise<void> {
  await fr.locator('[data-testid=form-save]').click();
  await fr.locator('[data-testid=operation-detail]').waitFor({ timeout: 15_000 }).catch(async () => {
    throw new Error(`the form was not saved: ${(await fr.locator('[data-testid=form-summary]').allInnerTexts()).join(' | ')}`);
  });
}

/** Opens a transition's dialog from the detail (its button reads in the user's language) and fills it. */
export async function openTransition(fr: FrameLocator, wf: WorkflowDef, transition: string, lang: Lang, fill?: () => Promise<void>): Promise<void> {
  const button = fr.locator(`[data-testid=transition][data-transition=${transition}]`);
  await button.waitFor({ timeout: 15_000 });
  expect(await button.innerText()).toContain(transitionLabel(wf, transition, lang));
  await button.click();
  await fr.locator('[data-testid=transition-dialog]').waitFor();
  if (fill) await fill();
  await fr.locator('[data-testid=transition-confirm]').click();
}

/** Takes a transition from the detail; the dialog closes once the server took it. */
export async function take(fr: FrameLocator, wf: WorkflowDef, transition: string, lang: Lang, fill?: () => Promise<void>): Promise<void> {
  await openTransition(fr, wf, transition, lang, fill);
  await fr.locator('[data-testid=transition-dialog]').waitFor({ state: 'detached', timeout: 15_000 }).catch(async () => {
    throw new Error(`the transition ${transition} failed: ${(await fr.locator('[data-testid=transition-error]').allInnerTexts()).join(' | ')}`);
  });
}

export async function expectState(fr: FrameLocator, wf: WorkflowDef, state: string, lang: Lang): Promise<void> {
  await expect.poll(() => fr.locator('[data-testid=operation-detail] [data-testid=state-badge]').first().innerText(), { timeout: 15_000 })
    .toBe(stateLabel(wf, state, lang));
}
