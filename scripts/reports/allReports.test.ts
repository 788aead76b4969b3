/**
 * Every report of the registry through the real server (issue 17, "Done when" and item 5) on
 * the demo data of ./demo.ts, on the embedded store or on MongoDB when MONGODB_URI is set: its
 * rows page by page under the report's response field, a count that agrees, the CSV export
 * (header = the columns in the requested language, one line a row, the cells as the engine shows
 * them); refused to a user without the report's key; narrowed to one deposit for a
 * warehouse-limited user. Exports run one worker thread each, so a sample covering every source
 * collection and every column type is exported; every report's header (the same reportColumns
 * the worker writes) is checked through the catalogue in each language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellText, reportColumns, type Lang, type ReportDef } from '../../engine/src/index';
import { csvLine } from '../../server/src/masterdata/exportCsv';
import { WAREHOUSE_HEADER } from '../../server/src/plugins/access';
import { realRegistry, startHarness, storeTarget, type Harness } from '../../server/src/testing/harness';
import type { Doc, Filter } from '../../server/src/store/types';
import { at, runReport, seedReportDemo, specReports } from './demo';

type Headers = Record<string, string>;
const LANGS: Lang[] = ['en', 'es', 'fr'];

/** A row as comparable text: keys sorted at every level, so two reads of the same row are equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v ?? null);
}
const bag = (rows: unknown[]) => rows.map(canonical).sort();

/** Whether every row of `part` is one of `whole` (as many times as it occurs there). */
function within(part: unknown[], whole: unknown[]): boolean {
  const left = new Map<string, number>();
  for (const r of bag(whole)) left.set(r, (left.get(r) ?? 0) + 1);
  return bag(part).every((r) => {
    const n = left.get(r) ?? 0;
    left.set(r, n - 1);
    return n > 0;
  });
}

/** The reports to export: the first ones (by key) that bring a source collection or a column type not yet in a file. */
function exportSample(all: ReportDef[]): Set<string> {
  const covered = new Set<string>();
  const picked = new Set<string>();
  for (const d of [...all].sort((a, b) => a.key.localeCompare(b.key))) {
    const brings = [`source ${d.source.entity}`, ...d.columns.map((c) => `type ${c.type}`)].filter((x) => !covered.has(x));
    if (brings.length === 0) continue;
    picked.add(d.key);
    for (const x of brings) covered.add(x);
  }
  return picked;
}

let h: Harness;
let defs: ReportDef[];
let sample: Set<string>;
let plant: string;
/** A user holding every report key. */
let full: Headers;
/** The same access, limited to the warehouse group of one deposit (`plant`). */
let limited: Headers;
/** Per access key, a user holding every other report key but that one. */
const without = new Map<string, Headers>();
/** Per report: rows seen unrestricted and by the limited user, for the summary test. */
const narrowed = new Map<string, { all: number; limited: number }>();

beforeAll(async () => {
  h = await startHarness();
  defs = specReports(h.registry);
  sample = exportSample(defs);
  ({ plant } = await seedReportDemo(h.registry, h.store));
  const keys = [...new Set(defs.map((d) => d.access))];
  full = (await h.userWith(keys)).headers;
  for (const key of keys) without.set(key, (await h.userWith(keys.filter((k) => k !== key).concat(keys.length === 1 ? ['Deliveries'] : []))).headers);
  const group = await h.store.insert('group', { name: 'One deposit', access: keys, warehouses: [plant], state: 1 });
  limited = { ...(await h.userWith(keys, { groups: [group.id] })).headers, [WAREHOUSE_HEADER]: 'One deposit' };
}, 300_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Headers) => h.app.inject({ method: 'GET', url, headers });

/** Every row of a report, page after page of 200, as `headers` sees it. */
async function allRows(def: ReportDef, headers: Headers): Promise<Doc[]> {
  const rows: Doc[] = [];
  for (let page = 1; ; page++) {
    const r = await get(`/api/v3/reports/${def.key}/rows?pageSize=200&page=${page}`, headers);
    expect(r.statusCode, `${def.key} page ${page}: ${r.body}`).toBe(200);
    const body = r.json() as Record<string, unknown>;
    expect(body, def.key).toMatchObject({ page, pageSize: 200 });
    const got = body[def.source.responseField] as Doc[];
    expect(Array.isArray(got), `${def.key}: rows under ${def.source.responseField}`).toBe(true);
    rows.push(...got);
    if (!body.hasMore) return rows;
  }
}

async function count(def: ReportDef, headers: Headers): Promise<number> {
  const r = await get(`/api/v3/reports/${def.key}/count`, headers);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as { total: number }).total;
}

/** Starts an export, waits for it and downloads the file. */
async function exported(def: ReportDef, lang: Lang): Promise<{ job: Record<string, unknown>; csv: string }> {
  const headers = { ...full, 'accept-language': lang };
  const started = await h.app.inject({ method: 'POST', url: `/api/v3/reports/${def.key}/exports`, headers, payload: {} });
  expect(started.statusCode, started.body).toBe(202);
  const id = (started.json() as { id: string }).id;
  for (;;) {
    const job = (await get(`/api/v3/reports/exports/${id}`, headers)).json() as Record<string, unknown>;
    if (job.status === 'done' || job.status === 'failed') {
      expect(job, def.key).toMatchObject({ status: 'done' });
      const file = await get(`/api/v3/reports/exports/${id}/download`, headers);
      expect(file.statusCode, file.body).toBe(200);
      return { job, csv: file.body };
    }
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/**
 * The source records a group holding only `plant` keeps (SPEC 6): one of the report's deposit
 * fields names the deposit, or the record's owner is the deposit's company.
 */
async function inGroup(def: ReportDef): Promise<Filter> {
  const company = (await h.store.get('company_division', plant))!.company_id;
  const records = await h.store.find(def.source.entity, {});
  const names = (v: unknown, x: unknown) => (Array.isArray(v) ? v.includes(x) : v === x);
  const ids = records.filter((r) => def.depositFields.some((f) => names(at(r, f), plant)) || (def.ownerField !== undefined && names(at(r, def.ownerField), company))).map((r) => r.id);
  return { id: { $in: ids } };
}

describe(`every report through the API on the demo data (${storeTarget().label})`, () => {
  it('covers the 71 reports of SPEC 3.5, and exports a sample holding every source collection and column type', () => {
    expect(defs).toHaveLength(71);
    const types = new Set(defs.flatMap((d) => d.columns.map((c) => c.type)));
    const sampled = defs.filter((d) => sample.has(d.key));
    expect(new Set(sampled.flatMap((d) => d.columns.map((c) => c.type)))).toEqual(types);
    expect(new Set(sampled.map((d) => d.source.entity))).toEqual(new Set(defs.map((d) => d.source.entity)));
  });

  it.each(LANGS)('lists every report with its columns\' labels in %s, the header its CSV has', async (lang) => {
    const r = await get('/api/v3/reports', { ...full, 'accept-language': lang });
    const listed = new Map(((r.json() as { data: { key: string; columns: { label: string }[] }[] }).data).map((e) => [e.key, e.columns.map((c) => c.label)]));
    expect([...listed.keys()].sort()).toEqual(defs.map((d) => d.key).sort());
    for (const d of defs) expect(listed.get(d.key), d.key).toEqual(reportColumns(h.registry, d, lang).map((c) => c.label));
  });

  it.each(specReports(realRegistry()).map((d) => d.key))('%s: rows, count, CSV export, access and the warehouse group', async (key) => {
    const def = h.registry.reports[key];
    const lang = LANGS[defs.indexOf(def) % LANGS.length];

    // Rows page by page: every row of the engine's plan, none twice; the count agrees.
    const rows = await allRows(def, full);
    expect(rows.length, key).toBeGreaterThan(0);
    const engine = await runReport(h.registry, h.store, def);
    expect(bag(rows), key).toEqual(bag(JSON.parse(JSON.stringify(engine)) as unknown[]));
    expect(await count(def, full), key).toBe(rows.length);

    // The CSV: the columns' labels in the requested language, then one line a row, each cell as the engine shows it.
    if (sample.has(key)) {
      const cols = reportColumns(h.registry, def, lang);
      const { job, csv } = await exported(def, lang);
      expect(job, key).toMatchObject({ rows: rows.length, total: rows.length, fileName: def.export.fileName });
      const header = csvLine(cols.map((c) => c.label));
      expect(csv.slice(0, header.length), key).toBe(header);
      const lines = (text: string) => text.split('\r\n').filter(Boolean).sort();
      expect(lines(csv.slice(header.length)), key).toEqual(lines(engine.map((r) => csvLine(cols.map((c) => cellText(c, r)))).join('')));
    }

    // Without the report's own key: refused, rows, count and export alike.
    const refused = without.get(def.access)!;
    expect((await get(`/api/v3/reports/${key}/rows`, refused)).statusCode, key).toBe(403);
    expect((await get(`/api/v3/reports/${key}/count`, refused)).statusCode, key).toBe(403);
    expect((await h.app.inject({ method: 'POST', url: `/api/v3/reports/${key}/exports`, headers: refused, payload: {} })).statusCode, key).toBe(403);

    // Limited to one deposit: the first page holds only rows the group's source records give, the
    // count is theirs; a report naming no deposit is not narrowed.
    const page = await get(`/api/v3/reports/${key}/rows?pageSize=200`, limited);
    expect(page.statusCode, page.body).toBe(200);
    const mine = (page.json() as Record<string, Doc[]>)[def.source.responseField];
    const expected = def.depositFields.length === 0 ? rows : JSON.parse(JSON.stringify(await runReport(h.registry, h.store, def, {}, await inGroup(def)))) as Doc[];
    if (def.depositFields.length === 0) expect(NOT_NARROWED, key).toContain(key);
    expect(mine.length, key).toBe(Math.min(200, expected.length));
    expect(within(mine, expected), key).toBe(true);
    expect(await count(def, limited), key).toBe(expected.length);
    narrowed.set(key, { all: rows.length, limited: expected.length });
  }, 120_000);

  it('narrows most reports to some of their rows for the one-deposit group', () => {
    const some = [...narrowed].filter(([, n]) => n.limited > 0 && n.limited < n.all).map(([k]) => k);
    expect(narrowed.size).toBe(71);
    expect(some.length, JSON.stringify(Object.fromEntries(narrowed))).toBeGreaterThan(30);
  });
});

/** The reports whose rows name no deposit (return requests, the top tens): never narrowed by a warehouse group. */
const NOT_NARROWED = ['ibcreturn_request_report', 'top_ten_customers_with_ibc_on_hand', 'top_ten_customers_with_longest_return_time'];

