import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { cellText, columnsOf } from '../../../web/src/masterdata/columns';
import { masterDataExportRoutes } from '../routes/masterdataExport';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';
import { csvCell, EXPORT_PAGE_SIZE, neutralise } from './exportCsv';

let h: PluginHarness;
let headers: Record<string, string>;
const N = EXPORT_PAGE_SIZE + 37; // more than one store page

beforeAll(async () => {
  h = await startWithPlugins(({ registry, store }) => [(a) => masterDataExportRoutes(a, { registry, store })]);
  headers = await h.userWith(['Master Data']);
  const docs = Array.from({ length: N }, (_, i) => ({
    company_name: i === 3 ? '=HYPERLINK("http://evil")' : `Export Co ${String(i).padStart(4, '0')}`,
    email: `c${i}@export.test`,
    phone_number: i % 2 ? ['+54 11 1', '+54 11 2'] : [],
    address: { city: i % 3 ? 'Rosario' : 'Córdoba, "Centro"' },
    state: i % 5 === 0 ? 3 : 1,
  }));
  await h.store.insertMany('company', docs as never);
});
afterAll(async () => h?.close());

async function listAll(query: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/company?pageSize=200&page=${page}&${query}`, headers });
    const body = res.json() as { data: Record<string, unknown>[]; total: number };
    out.push(...body.data);
    if (out.length >= body.total || body.data.length === 0) return out;
  }
}

async function exported(query: string, lang = 'en'): Promise<string[][]> {
  const res = await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/company/export.csv?${query}`, headers: { ...headers, 'accept-language': lang } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return Papa.parse<string[]>(res.body.trimEnd(), { newline: '\r\n' }).data;
}

describe('CSV export of a master-data list', () => {
  it('holds every row of the filter across all pages, as the list API pages them, with labels as headers', async () => {
    const query = 'state=1&sort=-company_name';
    const [head, ...rows] = await exported(query);
    const cols = columnsOf(h.registry, 'company', 'en').filter((c) => !c.optional);
    expect(head).toEqual(cols.map((c) => c.label));
    const listed = await listAll(query);
    expect(rows.length).toBe(listed.length);
    expect(rows.length).toBe(N - Math.ceil(N / 5));
    const expected = listed.map((r) => cols.map((c) => neutralise(cellText(c, r, 'en'))));

    expect(rows).toEqual(expected);
    expect(rows.some((r) => r[0] === `'=HYPERLINK("http://evil")`)).toBe(true);
  });

  it('follows the search, the requested columns and the language', async () => {
    const [head, ...rows] = await exported('q=co 000&columns=email,company_name', 'es');
    expect(head).toEqual(['Correo electrónico', 'Razón social']);
    expect(rows.map((r) => r[1]).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Export Co 000${i}`).filter((n) => n !== 'Export Co 0003'));
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
});
