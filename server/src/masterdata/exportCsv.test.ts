import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { cellText, columnsOf, type RefTitles } from '../../../engine/src/list/index';
import { masterDataExportRoutes } from '../routes/masterdataExport';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';
import type { Store } from '../store/types';
import { csvCell, EXPORT_PAGE_SIZE, exportCsv, neutralise } from './exportCsv';

let h: PluginHarness;
let headers: Record<string, string>;
const N = EXPORT_PAGE_SIZE + 37; // more than one store page

beforeAll(async () => {
  h = await startWithPlugins(({ registry, store }) => [(a) => masterDataExportRoutes(a, { registry, store })]);
  headers = await h.userWith(['Master Data']);
  const parent = await h.store.insert('company', { company_name: 'Parent Holding SA', state: 3 });
  const docs = Array.from({ length: N }, (_, i) => ({
    company_name: i === 3 ? '=HYPERLINK("http://evil")' : `Export Co ${String(i).padStart(4, '0')}`,
    email: `c${i}@export.test`,
    phone_number: i % 2 ? ['+54 11 1', '+54 11 2'] : [],
    address: { city: i % 3 ? 'Rosario' : 'Córdoba, "Centro"' },
    state: i % 5 === 0 ? 3 : 1,
    // References: most to the parent, one to an id that names nothing (shown as it is).
    ...(i % 4 === 1 ? { parent_company_id: parent.id } : i === 2 ? { parent_company_id: 'no-such-company' } : {}),
  }));
  await h.store.insertMany('company', docs as never);
});
afterAll(async () => h?.close());

/** Every page of the list API, with the titles of the records each page refers to. */
async function listAll(query: string): Promise<{ rows: Record<string, unknown>[]; titles: Record<string, Record<string, string>> }> {
  const rows: Record<string, unknown>[] = [];
  const titles: Record<string, Record<string, string>> = {};
  for (let page = 1; ; page++) {
    const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/company?pageSize=200&page=${page}&titles=true&${query}`, headers });
    const body = res.json() as { data: Record<string, unknown>[]; total: number; titles: RefTitles };
    rows.push(...body.data);
    for (const [target, byId] of Object.entries(body.titles)) Object.assign((titles[target] ??= {}), byId);
    if (rows.length >= body.total || body.data.length === 0) return { rows, titles };
  }
}

async function exported(query: string, lang = 'en'): Promise<string[][]> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/company/export.csv?${query}`, headers: { ...headers, 'accept-language': lang } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return Papa.parse<string[]>(res.body.trimEnd(), { newline: '\r\n' }).data;
}

async function collect(gen: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const chunk of gen) text += chunk;
  return text;
}

describe('CSV export of a master-data list', () => {
  it('holds every row of the filter across all pages, as the list API pages them, with labels as headers', async () => {
    const query = 'state=1&sort=-company_name';
    const [head, ...rows] = await exported(query);
    const cols = columnsOf(h.registry, 'company', 'en').filter((c) => !c.optional);
    expect(head).toEqual(cols.map((c) => c.label));
    const listed = await listAll(query);
    expect(rows.length).toBe(listed.rows.length);
    expect(rows.length).toBe(N - Math.ceil(N / 5));
    const expected = listed.rows.map((r) => cols.map((c) => neutralise(cellText(c, r, 'en', listed.titles))));

    expect(rows).toEqual(expected);
    expect(rows.some((r) => r[0] === `'=HYPERLINK("http://evil")`)).toBe(true);
    // A reference shows its record's title, as the list does; an id naming nothing stays an id.
    const parentCol = cols.findIndex((c) => c.path === 'parent_company_id');
    expect(rows.filter((r) => r[parentCol] === 'Parent Holding SA').length).toBeGreaterThan(100);
    expect(rows.map((r) => r[parentCol])).toContain('no-such-company');
    expect(rows.flat().some((cell) => /^[a-f0-9]{24}$|^[0-9A-Za-z_-]{20,}$/.test(cell))).toBe(false);
  });

  it('follows the search, the requested columns and the language', async () => {
    const [head, ...rows] = await exported('q=co 000&columns=email,company_name', 'es');
    expect(head).toEqual(['Correo electrónico', 'Razón social']);
    expect(rows.map((r) => r[1]).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Export Co 000${i}`).filter((n) => n !== 'Export Co 0003'));
  });

  it('returns every row exactly once, in the list API order, across many pages that split ties in the sort field', async () => {
    // address.city holds three values over 537 rows: every page boundary falls inside a tie.
    for (const query of ['sort=address.city', 'sort=-address.city,-state', 'state=1&sort=-address.city']) {
      const params = Object.fromEntries(new URLSearchParams(query)) as { sort: string; state?: string };
      const text = await collect(exportCsv(h.registry, h.store, h.registry.entities.company, { ...params, state: params.state ? Number(params.state) : undefined }, 'en', 7));
      const [, ...rows] = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
      const listed = await listAll(query);
      const cols = columnsOf(h.registry, 'company', 'en').filter((c) => !c.optional);
      expect(rows, query).toEqual(listed.rows.map((r) => cols.map((c) => neutralise(cellText(c, r, 'en', listed.titles)))));
      const emails = rows.map((r) => r[cols.findIndex((c) => c.path === 'email')]);
      expect(new Set(emails).size, query).toBe(listed.rows.length);
    }
  });

  it('lets the event loop turn between pages, so other requests are served during an export', async () => {
    // Counts event-loop turns (setImmediate callbacks, which run only when the loop turns, as
    // an incoming request would be read) and reads the count at every page the export asks for (reference titles are
    // looked up with finds of their own, without a limit).
    let turns = 0;
    let ticking = true;
    const tick = () => { turns++; if (ticking) setImmediate(tick); };
    setImmediate(tick);
    const atPage: number[] = [];
    const store = new Proxy(h.store, {
      get: (target, prop, receiver) => prop === 'find'
        ? (...args: Parameters<Store['find']>) => { if (args[1]?.sort !== undefined) atPage.push(turns); return target.find(...args); }
        : Reflect.get(target, prop, receiver) as unknown,
    });
    try {
      await collect(exportCsv(h.registry, store, h.registry.entities.company, {}, 'en', 25));
    } finally {
      ticking = false;
    }
    expect(atPage.length).toBe(Math.ceil((N + 1) / 25)); // 538 companies (the parent included), 25 a page
    for (let i = 1; i < atPage.length; i++) expect(atPage[i], `turns before page ${i + 1}`).toBeGreaterThan(atPage[i - 1]);
  });

  it('neutralises spreadsheet formulas and quotes separators', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
  });

  it('refuses an unknown column or sort before streaming, and a user without the key', async () => {
    const bad = await h.app.inject({ method: 'GET', url: '/api/v3/masterdata/company/export.csv?columns=password_hash', headers });
    expect(bad.statusCode).toBe(400);
    const badSort = await h.app.inject({ method: 'GET', url: '/api/v3/masterdata/company/export.csv?sort=phone_number', headers });
    expect(badSort.statusCode).toBe(400);
    const other = await h.userWith(['Reports']);
    expect((await h.app.inject({ method: 'GET', url: '/api/v3/masterdata/company/export.csv', headers: other })).statusCode).toBe(403);
  });

  it('sums up lists of rows, recipe materials with their titles, quantities and units (issue 14)', async () => {
    const glyphosate = await h.store.insert('material', { name: 'Glyphosate 48', state: 1 });
    const urea = await h.store.insert('material', { name: 'Urea', state: 1 });
    const litre = await h.store.insert('units_of_measurement', { unit_name: 'L', sap_unit_name: 'L', state: 1 });
    await h.store.insert('recipe', {
      name: 'Mix 1', state: 1,
      input_materials: [{ material: glyphosate.id, quantity: 2, uom: litre.id }, { material: urea.id, quantity: 5, uom: litre.id }],
      output_materials: [{ material: urea.id, quantity: 7, uom: litre.id }],
    });
    const cells = async (lang: string) => {
      const res = await h.app.inject({ method: 'GET', url: '/api/v3/masterdata/recipe/export.csv?columns=name,input_materials,output_materials', headers: { ...headers, 'accept-language': lang } });
      expect(res.statusCode, res.body).toBe(200);
      return Papa.parse<string[]>(res.body.trimEnd(), { newline: '\r\n' }).data[1];
    };
    expect(await cells('en')).toEqual(['Mix 1', 'Glyphosate 48 × 2 L, +1 more', 'Urea × 7 L']);
    expect((await cells('es'))[1]).toBe('Glyphosate 48 × 2 L, +1 más');
  });
});
