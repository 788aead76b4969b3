import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../boot';
import { SqliteStore } from '../store/sqlite';
import type { Doc } from '../store/types';
import { SYNC_JOB } from '../sync/collections';
import { realRegistry } from '../testing/harness';
import { NamedQueries } from './queries';

/**
 * The named queries within a warehouse group on the embedded store: their counts are right, and
 * each is answered from a compound index alone (the IBC entity's `compoundIndexes`, the outbox's
 * deposit index), not by reading every open job or held IBC to test its deposit.
 */
const reg = realRegistry();
const dir = mkdtempSync(join(tmpdir(), 'tm-dash-queries-'));
let store: SqliteStore;
let db: Database.Database;
const prepared: string[] = [];
const NOW = new Date('2026-06-15T12:00:00.000Z');
const DEPOSITS = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
const group = { name: 'North', divisions: new Set(['d1', 'd2', 'd3']), companies: new Set(['c1', 'c2']) };
const STATUSES = ['in_stock_empty', 'prepared', 'in_transit', 'at_customer', 'return_requested', 'returned', 'in_qc', 'quarantine', 'disposed'];
const STATES = ['pending', 'leased', 'failed', 'done'];

const ibcs: Doc[] = Array.from({ length: 400 }, (_, i) => ({
  id: `ibc-${i}`, serial_number: `S${i}`, status: STATUSES[i % STATUSES.length], deposit_id: DEPOSITS[i % 6], company_id: `c${i % 5}`,
  customerSince: `${i % 2 ? 2025 : 2026}-0${1 + (i % 6)}-10T00:00:00.000Z`, nextInspectionDate: `2026-0${1 + (i % 9)}-01`,
}));
const jobs: Doc[] = Array.from({ length: 400 }, (_, i) => ({
  id: `job-${i}`, key: `job-${i}`, workflow: 'delivery', recordId: `r${i}`, kind: 'declare', state: STATES[i % 4], deposit: DEPOSITS[(i >> 2) % 6],
  deadline: `2026-06-${String(10 + (i % 10)).padStart(2, '0')}T00:00:00.000Z`, dueSoonAt: `2026-06-${String(8 + (i % 10)).padStart(2, '0')}T00:00:00.000Z`, nextAt: '2026-06-01T00:00:00.000Z',
}));

beforeAll(async () => {
  store = new SqliteStore({ dataDir: dir });
  await prepareStore(reg, store);
  await store.insertMany('ibc_container', ibcs);
  await store.insertMany(SYNC_JOB, jobs);
  db = (store as unknown as { db: Database.Database }).db;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => { prepared.push(sql); return prepare(sql); }) as typeof db.prepare;
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** SQLite's plan of each count statement on `table` prepared since `from` (those whose SQL holds `holding`). */
const plans = (from: number, table: string, holding = '') => prepared.slice(from).filter((q) => q.startsWith('SELECT count(*)') && q.includes(`"${table}"`) && q.includes(holding))
  .map((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from(sql.matchAll(/\?/g), () => null)) as { detail: string }[]).map((r) => r.detail).join('; '));

describe('the dashboards\' named queries within a warehouse group', () => {
  it('count the IBC fleet of the group (at its deposits or owned by its companies) from the IBC entity\'s compound indexes', async () => {
    const from = prepared.length;
    const q = new NamedQueries(reg, store);
    const got = await q.ibcFleet(store, { warehouse: group }, NOW);
    const mine = ibcs.filter((b) => group.divisions.has(String(b.deposit_id)) || group.companies.has(String(b.company_id)));
    const lossAt = new Date(NOW.getTime() - reg.deployment.settings.ibc.lossAfterDays * 86_400_000).toISOString();
    const holding = mine.filter((b) => ['at_customer', 'return_requested'].includes(String(b.status)));
    expect(got.atCustomers).toBe(holding.length);
    expect(got.overdue).toBe(holding.filter((b) => String(b.customerSince) < lossAt).length);
    expect(got.fleet).toBe(mine.filter((b) => b.status !== 'disposed').length);
    expect(got.pastInspection).toBe(mine.filter((b) => b.status !== 'disposed' && String(b.nextInspectionDate) < '2026-06-15').length);
    expect(got.overdue).toBeGreaterThan(0);
    expect(got.pastInspection).toBeGreaterThan(0);
    // The counts of given statuses (at customers, overdue, in stock, in transit…) enter the compound index at the
    // status, and the date: the group's deposit and company are tested on the index's own values, not the records'
    // (the fleet's and past-inspection counts, "not disposed", go by the group's deposits and companies).
    const read = plans(from, 'ibc_container', '"k:status" IN');
    expect(read.length).toBeGreaterThanOrEqual(3);
    for (const plan of read) expect(plan).toMatch(/USING (COVERING )?INDEX i:ibc_container:status\+customerSince\+deposit_id\+company_id \(k:status=\?/);
  });

  it('count the group\'s open declarations past and near their deadline from the outbox\'s deposit index', async () => {
    const from = prepared.length;
    const got = await new NamedQueries(reg, store).declarations(store, { warehouse: group }, NOW);
    const at = NOW.toISOString();
    const open = jobs.filter((j) => group.divisions.has(String(j.deposit)) && ['pending', 'leased', 'failed'].includes(String(j.state)));
    expect(got.overdue).toBe(open.filter((j) => String(j.deadline) <= at).length);
    expect(got.dueSoon).toBe(open.filter((j) => String(j.dueSoonAt) <= at && String(j.deadline) > at).length);
    expect(got.failed).toBe(open.filter((j) => j.state === 'failed').length);
    expect(got.overdue).toBeGreaterThan(0);
    expect(got.dueSoon).toBeGreaterThan(0);
    const deadlineReads = plans(from, SYNC_JOB, '"k:deadline"');
    expect(deadlineReads).toHaveLength(2);
    for (const plan of deadlineReads) expect(plan).toMatch(/USING (COVERING )?INDEX i:sync_job:deposit\+state\+deadline\+dueSoonAt \(k:deposit=\? AND k:state=\? AND k:deadline[<>]\?/);
  });
});
