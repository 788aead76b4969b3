/**
 * Every widget of every dashboard over the demo activity (scripts/reports/demo.ts), through the
 * real server, on the embedded store or on MongoDB when MONGODB_URI is set. Each widget's value
 * is computed here again, independently of the engine's reductions: a report-fed widget from the
 * report's own rows (its rows route, page after page, with the widget's filters written out here)
 * folded in plain code; a named query's from the records. Then again for a user limited to one
 * deposit's warehouse group: the same folds over what that user's report routes answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardDef, DashboardWidgetDef } from '../../engine/src/index';
import { WAREHOUSE_HEADER } from '../../server/src/plugins/access';
import { SYNC_JOB } from '../../server/src/sync/collections';
import { adoptPending } from '../../server/src/sync/jobs';
import { startHarness, type Harness } from '../../server/src/testing/harness';
import type { Doc } from '../../server/src/store/types';
import { at, FIXTURES_AT, seedReportDemo } from '../reports/demo';

type Headers = Record<string, string>;
type Scope = { divisions?: Set<string>; companies?: Set<string> };
const DAY = 86_400_000;
const day = FIXTURES_AT.toISOString().slice(0, 10);
/** The period every dashboard is asked for: the month of the demo's last days. */
const PERIOD = { from: `${day.slice(0, 7)}-01`, to: day };

let h: Harness;
let full: Headers;
let limited: Headers;
let plant: string;
let group: Scope;
const canonical = (v: unknown): string => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

beforeAll(async () => {
  h = await startHarness();
  ({ plant } = await seedReportDemo(h.registry, h.store));
  // The outbox as a running server fills it: a job for every record declared and not yet synced.
  await adoptPending(h.store, h.registry, new Date());
  const keys = [...new Set([...Object.values(h.registry.reports).map((r) => r.access), ...Object.values(h.registry.dashboards).map((d) => d.access)])];
  full = (await h.userWith(keys)).headers;
  const g = await h.store.insert('group', { name: 'The plant', access: keys, warehouses: [plant], state: 1 });
  limited = { ...(await h.userWith(keys, { groups: [g.id] })).headers, [WAREHOUSE_HEADER]: 'The plant' };
  const division = (await h.store.get('company_division', plant))!;
  group = { divisions: new Set([plant]), companies: new Set([String(division.company_id)]) };
}, 600_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Headers) => h.app.inject({ method: 'GET', url, headers });

/** The dashboard filters of a request: the demo month when it has a period. */
const dashboardQuery = (def: DashboardDef): Record<string, string> => (def.filters.some((f) => f.id === 'period') ? { 'period.from': PERIOD.from, 'period.to': PERIOD.to } : {});

/** The report's query parameters for a widget, written out from its definition: fixed values, then the period fed. */
function reportParams(w: DashboardWidgetDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, v] of Object.entries(w.source.filters)) {
    if (Array.isArray(v)) out[id] = v.join(',');
    else if (v && typeof v === 'object' && ('min' in v || 'max' in v)) for (const [end, n] of Object.entries(v)) out[`${id}.${end}`] = String(n);
    else if (typeof v !== 'object') out[id] = String(v);
    else throw new Error(`${w.id}: a fixed day range is not used by the demo's dashboards`);
  }
  for (const [from, to] of Object.entries(w.source.feed)) if (from === 'period') Object.assign(out, { [`${to}.from`]: PERIOD.from, [`${to}.to`]: PERIOD.to });
  return out;
}

/** Every row of a report as `headers` sees it: its rows route, 200 a page. */
async function reportRows(key: string, params: Record<string, string>, headers: Headers): Promise<Doc[]> {
  const field = h.registry.reports[key].source.responseField;
  const rows: Doc[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ ...params, page: String(page), pageSize: '200' });
    const r = await get(`/api/v3/reports/${key}/rows?${q.toString()}`, headers);
    expect(r.statusCode, `${key}: ${r.body}`).toBe(200);
    const body = r.json() as Doc;
    rows.push(...(body[field] as Doc[]));
    if (!body.hasMore) return rows;
  }
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);
/** What rows measure: a count, distinct values, a sum. */
function measure(w: DashboardWidgetDef, rows: Doc[]): number {
  const m = w.measure;
  if (m.op === 'distinct') return new Set(rows.map((r) => canonical(at(r, m.field!) ?? null))).size;
  if (m.op === 'sum') return rows.reduce((n, r) => n + num(at(r, m.field!)), 0);
  return rows.length;
}
const monday = (d: string) => {
  const t = Date.parse(`${d.slice(0, 10)}T00:00:00Z`);
  return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
};
const bucket = (w: DashboardWidgetDef, v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  if (!w.interval) return s;
  return w.interval === 'day' ? s.slice(0, 10) : w.interval === 'week' ? monday(s) : s.slice(0, 7);
};
/** Rows by a category and series: `category|series` → the measure of those rows. */
function fold(w: DashboardWidgetDef, rows: Doc[], key: string, series?: string): Map<string, number> {
  const parts = new Map<string, Doc[]>();
  for (const r of rows) {
    const k = `${bucket(w, at(r, key))}|${series ? String(at(r, series) ?? '') : ''}`;
    parts.set(k, [...(parts.get(k) ?? []), r]);
  }
  return new Map([...parts].map(([k, rs]) => [k, measure(w, rs)]));
}

/** Places of deposits: where their company is. */
async function placed(keys: string[]): Promise<Set<string>> {
  const divisions = await h.store.find('company_division', { filter: { id: { $in: keys } } });
  const companies = new Map((await h.store.find('company', {})).map((c) => [c.id, c]));
  return new Set(divisions.filter((d) => typeof at(companies.get(String(d.company_id)), 'address.location.lat') === 'number').map((d) => d.id));
}

/** A chart's answer as `category|series` → value, without the zeros it fills in. */
function answered(chart: Doc): Map<string, number> {
  const out = new Map<string, number>();
  const cats = chart.categories as { key: string }[];
  for (const s of chart.series as { key: string; values: number[] }[]) cats.forEach((c, i) => { if (s.values[i] !== 0) out.set(`${c.key}|${s.key}`, s.values[i]); });
  return out;
}

/** What a named query answers, from the records, within `scope`. */
async function namedFigures(name: string, scope: Scope): Promise<Record<string, number>> {
  const now = new Date();
  if (name === 'declarations') {
    const jobs = (await h.store.find(SYNC_JOB, {})).filter((j) => !scope.divisions || scope.divisions.has(String(j.deposit)));
    const open = jobs.filter((j) => ['pending', 'leased', 'failed'].includes(String(j.state)));
    const t = now.toISOString();
    return {
      pending: jobs.filter((j) => j.state === 'pending' || j.state === 'leased').length, failed: jobs.filter((j) => j.state === 'failed').length, synced: jobs.filter((j) => j.state === 'done').length,
      overdue: open.filter((j) => String(j.deadline) <= t).length, dueSoon: open.filter((j) => String(j.dueSoonAt) <= t && String(j.deadline) > t).length,
    };
  }
  const ibcs = (await h.store.find('ibc_container', {})).filter((i) => !scope.divisions || scope.divisions.has(String(i.deposit_id)) || scope.companies!.has(String(i.company_id)));
  const of = (...states: string[]) => ibcs.filter((i) => states.includes(String(i.status))).length;
  const lost = new Date(now.getTime() - h.registry.deployment.settings.ibc.lossAfterDays * DAY).toISOString();
  return {
    fleet: ibcs.length - of('disposed'), inStock: of('in_stock_empty', 'prepared'), inTransit: of('in_transit'), atCustomers: of('at_customer', 'return_requested'),
    returnRequested: of('return_requested'), inQc: of('returned', 'in_qc', 'quarantine'),
    overdue: ibcs.filter((i) => ['at_customer', 'return_requested'].includes(String(i.status)) && String(i.customerSince) < lost).length,
    pastInspection: ibcs.filter((i) => i.status !== 'disposed' && typeof i.nextInspectionDate === 'string' && i.nextInspectionDate < now.toISOString().slice(0, 10)).length,
  };
}

/** A named query's groups from the records: `deposit|series` → value. */
async function namedGroups(name: string, scope: Scope): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const add = (k: string, v: number) => out.set(k, (out.get(k) ?? 0) + v);
  if (name === 'stockByDeposit') {
    for (const b of await h.store.find('stock_balance', {})) if (num(b.quantity) > 0 && (!scope.divisions || scope.divisions.has(String(b.deposit)))) add(`${String(b.deposit)}|${String(b.unit)}`, num(b.quantity));
  } else {
    for (const i of await h.store.find('ibc_container', {})) {
      if (i.status === 'disposed' || (scope.divisions && !scope.divisions.has(String(i.deposit_id)) && !scope.companies!.has(String(i.company_id)))) continue;
      add(`${String(i.deposit_id)}|${String(i.status)}`, 1);
    }
  }
  return out;
}

/** Checks one widget's answer against the value computed here. */
async function expectWidget(def: DashboardDef, w: DashboardWidgetDef, got: Doc, headers: Headers, scope: Scope): Promise<void> {
  const label = `${def.key}/${w.id}`;
  if (w.source.query !== undefined) {
    if (got.kind === 'kpi') return expect(got.value, label).toBe((await namedFigures(w.source.query, scope))[w.measure.field!]);
    const groups = await namedGroups(w.source.query, scope);
    if (got.kind === 'chart' && w.figures) {
      const figures = await namedFigures(w.source.query, scope);
      return expect((got.series as Doc[])[0].values, label).toEqual(w.figures.map((f) => figures[f]));
    }
    if (got.kind === 'chart') {
      const shown = answered(got);
      for (const [k, v] of shown) expect(v, `${label} ${k}`).toBeCloseTo(groups.get(k) ?? NaN, 6);
      return expect((got.categories as Doc[]).length + num(got.more), label).toBe(new Set([...groups.keys()].map((k) => k.split('|')[0])).size);
    }
    return expectMap(label, got, new Map([...groups].reduce((m, [k, v]) => m.set(k.split('|')[0], (m.get(k.split('|')[0]) ?? 0) + v), new Map<string, number>())));
  }
  const rows = await reportRows(w.source.report!, reportParams(w), headers);
  if (w.type === 'kpi') return expect(got.value, label).toBeCloseTo(measure(w, rows), 6);
  if (w.type === 'table') {
    const first = rows.slice(0, w.rows);
    expect((got.rows as Doc[]).map(canonical), label).toEqual(first.map(canonical));
    return expect(got.hasMore, label).toBe(rows.length > w.rows!);
  }
  if (w.type === 'map') {
    const byPlace = new Map([...fold(w, rows, w.locate!.by)].map(([k, v]) => [k.split('|')[0], v]));
    return expectMap(label, got, byPlace);
  }
  const expected = fold(w, rows, w.groupBy!, w.seriesBy);
  const shown = answered(got);
  const categories = (got.categories as { key: string }[]).map((c) => c.key);
  if (w.interval) {
    // Every period of the month, in order; each value the rows' own.
    expect(categories[0] <= bucket(w, PERIOD.from) && categories.at(-1)! >= bucket(w, PERIOD.to), label).toBe(true);
    expect(categories, label).toEqual([...categories].sort());
    expect(shown, label).toEqual(new Map([...expected].filter(([k, v]) => v !== 0 && k.split('|')[0] !== '')));
    return;
  }
  for (const [k, v] of shown) expect(v, `${label} ${k}`).toBeCloseTo(expected.get(k) ?? NaN, 6);
  const totals = new Map<string, number>();
  for (const [k, v] of expected) totals.set(k.split('|')[0], (totals.get(k.split('|')[0]) ?? 0) + v);
  expect(categories.length + num(got.more), label).toBe(totals.size);
  // The largest categories are the ones shown.
  const smallestShown = Math.min(...categories.map((c) => totals.get(c) ?? 0));
  for (const [c, v] of totals) if (!categories.includes(c)) expect(v, `${label}: ${c} left out`).toBeLessThanOrEqual(smallestShown);
}

/** A map's points are the placed records' values; the others are counted as unplaced. */
async function expectMap(label: string, got: Doc, byRecord: Map<string, number>): Promise<void> {
  const places = await placed([...byRecord.keys()].filter(Boolean));
  const points = new Map((got.points as Doc[]).map((p) => [String(p.key), num(p.value)]));
  expect(new Set(points.keys()), label).toEqual(new Set([...byRecord.keys()].filter((k) => places.has(k))));
  for (const [k, v] of points) expect(v, `${label} ${k}`).toBeCloseTo(byRecord.get(k)!, 6);
  const unplaced = [...byRecord].filter(([k]) => !places.has(k)).reduce((n, [, v]) => n + v, 0);
  expect(got.unplaced, label).toBeCloseTo(unplaced, 6);
}

describe('every widget over the demo activity, computed again from its report\'s rows or the records', () => {
  for (const key of ['home', 'activity', 'customers', 'operational_overview', 'order_tracking', 'production_map', 'inventory_geotracking', 'production', 'production_manager']) {
    it(`${key}: every widget, for a user who sees everything and for one limited to one deposit`, async () => {
      const def = h.registry.dashboards[key];
      expect(def, key).toBeDefined();
      for (const [headers, scope] of [[full, {}], [limited, group]] as const) {
        const r = await get(`/api/v3/dashboards/${key}/data?${new URLSearchParams(dashboardQuery(def)).toString()}`, headers);
        expect(r.statusCode, r.body).toBe(200);
        const widgets = (r.json() as { widgets: Doc[] }).widgets;
        for (const w of def.widgets) {
          const slot = widgets.find((x) => x.id === w.id)!;
          expect(slot.status, `${key}/${w.id}: ${JSON.stringify(slot.error)}`).toBe(200);
          await expectWidget(def, w, slot.data as Doc, headers, scope);
        }
      }
    }, 300_000);
  }

  it('the demo gives the dashboards figures to show: receptions pending, shipments, IBCs at customers, declarations waiting', async () => {
    const data = async (key: string) => ((await get(`/api/v3/dashboards/${key}/data?period.from=${PERIOD.from}&period.to=${PERIOD.to}`, full)).json() as { widgets: Doc[] }).widgets;
    const home = await data('home');
    const value = (id: string) => (home.find((w) => w.id === id)!.data as Doc).value as number;
    for (const id of ['pendingReceptions', 'shipments', 'ibcsAtCustomers']) expect(value(id), id).toBeGreaterThan(0);
    // The demo's declarations are in the outbox (their deadlines run from when they were written).
    const outbox = (await data('operational_overview')).find((w) => w.id === 'outbox')!.data as Doc;
    expect((outbox.series as { values: number[] }[])[0].values[0]).toBeGreaterThan(0);
  });

  it('one widget alone answers what it answers among all', async () => {
    const q = `period.from=${PERIOD.from}&period.to=${PERIOD.to}`;
    const all = (await get(`/api/v3/dashboards/production_map/data?${q}`, limited)).json() as { widgets: Doc[] };
    for (const w of all.widgets) {
      const one = await get(`/api/v3/dashboards/production_map/widgets/${String(w.id)}/data?${q}`, limited);
      expect(one.statusCode).toBe(200);
      expect(canonical(one.json()), String(w.id)).toBe(canonical({ id: w.id, ...(w.data as Doc) }));
    }
  });
});
