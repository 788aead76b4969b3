/**
 * `npx tsx scripts/bench/forms.ts`: the generated screens in headless Chromium.
 * 1. A synthetic entity of 300 fields (strings, numbers with 2 decimals, selects, dates,
 *    checkboxes) rendered as a generated form: the time from each keystroke to the next
 *    paint (performance marks in the page), median and p95. Target: median < 16 ms.
 * 2. 100,000 companies in the embedded store: the time from opening the company list to its
 *    first page shown, median of 5. Target: < 300 ms.
 * Env: BENCH_COMPANIES (100000), BENCH_KEYS (60).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app';
import { ensureAdmin, prepareStore } from '../../server/src/boot';
import { readConfig } from '../../server/src/config';
import { copyDefinitions, requireDefinitions } from '../../definitions/read';
import { openStore } from '../../server/src/store/index';
import { Sessions } from '../../server/src/auth/sessions';
import { routePlugins } from '../../server/src/routes/index';
import { launchChromium } from '../../e2e/harness/browser';
import { ensureWebBuild } from '../../e2e/harness/build';

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 60);
const ADMIN = { email: 'bench@bench.local', password: 'Bench-admin-2026' };

function syntheticEntity(n: number): unknown {
  const fields = Array.from({ length: n }, (_, i) => {
    const id = `f${String(i).padStart(3, '0')}`;
    const label = { en: `Field ${i}`, es: `Campo ${i}`, fr: `Champ ${i}` };
    switch (i % 5) {
      case 0: return { id, label, type: 'string', ...(i === 0 ? { required: true, searchable: true } : {}) };
      case 1: return { id, label, type: 'number', fractionDigits: 2 };
      case 2: return { id, label, type: 'string', options: [{ value: 'a', label: { en: 'A', es: 'A', fr: 'A' } }, { value: 'b', label: { en: 'B', es: 'B', fr: 'B' } }] };
      case 3: return { id, label, type: 'date' };
      default: return { id, label, type: 'boolean' };
    }
  });
  return { $schema: '../meta/entity.schema.json', name: 'bench_form', kind: 'master', label: { en: 'Bench form', es: 'Formulario de prueba', fr: 'Formulaire de test' }, pluralLabel: { en: 'Bench forms', es: 'Formularios de prueba', fr: 'Formulaires de test' }, titleField: 'f000', fields };
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))]; };

async function main(): Promise<void> {
  const root = process.cwd();
  ensureWebBuild(root);
  const tmp = mkdtempSync(join(tmpdir(), 'tm-bench-forms-'));
  copyDefinitions(root, tmp);
  writeFileSync(join(tmp, 'schemas', 'entities', 'bench_form.json'), JSON.stringify(syntheticEntity(300)));
  const registry = requireDefinitions(tmp);
  const dataDir = join(tmp, 'data');
  const store = await openStore({ dataDir });
  await prepareStore(registry, store);
  await ensureAdmin(registry, store, ADMIN.email, ADMIN.password);
  const t0 = Date.now();
  for (let i = 0; i < COMPANIES; i += 5000) {
    const batch = Array.from({ length: Math.min(5000, COMPANIES - i) }, (_, j) => ({
      company_name: `Company ${String(i + j).padStart(6, '0')}`, email: `c${i + j}@bench.test`, state: (i + j) % 10 ? 1 : 3,
      address: { city: ['Rosario', 'Córdoba', 'Mendoza'][(i + j) % 3] }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    }));
    await store.insertMany('company', batch as never);
  }
  console.log(`seeded ${COMPANIES} companies in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const sessions = new Sessions(registry, store);
  const config = readConfig({ ...process.env, DATA_DIR: dataDir });
  const app = await buildApp({ registry, store, authenticator: sessions, plugins: routePlugins({ registry, store, sessions, config, webDist: join(root, 'web', 'dist') }) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: url })).newPage();
    await page.goto('/');
    await page.locator('input[name=email]').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await page.locator('[data-testid=user-button]').waitFor({ timeout: 30_000 });

    // 1. Keystroke to next paint on the 300-field form.
    await page.goto('/masterdata/bench_form/new');
    await page.locator('#root_f000').waitFor({ timeout: 30_000 });
    const fields = await page.locator('[data-testid=entity-form] input, [data-testid=entity-form] select').count();
    await page.evaluate(() => {
      const w = window as unknown as { __lat: number[] };
      w.__lat = [];
      document.addEventListener('keydown', () => {
        const start = performance.now();
        performance.mark('key');
        // The paint after the keystroke's render: the frame callback, then the task after it.
        requestAnimationFrame(() => setTimeout(() => { performance.mark('painted'); w.__lat.push(performance.now() - start); }, 0));
      }, { capture: true });
    });
    const input = page.locator('#root_f005');
    await input.click();
    for (let i = 0; i < KEYS; i++) {
      await page.keyboard.press(String.fromCharCode(97 + (i % 26)));
      await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length > n, i);
    }
    const lat = (await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat)).slice(5); // warm-up
    console.log(`form: ${fields} inputs; keystroke to next paint over ${lat.length} keys: median ${pct(lat, 0.5).toFixed(1)} ms, p95 ${pct(lat, 0.95).toFixed(1)} ms (target median < 16 ms)`);

    // 2. Opening the list of 100,000 companies, from the catalogue (in-app navigation).
    const opens: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto('/masterdata');
      await page.locator('[data-testid=catalogue-entry][data-entity=company]').waitFor();
      // A string, so the bundler's helpers never reach the page.
      const ms = await page.evaluate<number>(`new Promise((resolve) => {
        const link = document.querySelector('[data-testid=catalogue-entry][data-entity=company]');
        const start = performance.now();
        const obs = new MutationObserver(() => {
          if (!document.querySelector('[data-testid=list-row]')) return;
          obs.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - start));
        });
        obs.observe(document.body, { childList: true, subtree: true });
        link.click();
      })`);
      if (i > 0) opens.push(ms); // the first open also loads the screen's code
    }
    console.log(`list: ${COMPANIES} companies, open to first page shown: median ${pct(opens, 0.5).toFixed(0)} ms, max ${Math.max(...opens).toFixed(0)} ms over ${opens.length} opens (target < 300 ms)`);
  } finally {
    await browser.close();
    await app.close();
    await store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
