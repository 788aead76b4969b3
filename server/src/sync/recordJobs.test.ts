/**
 * The outbox's lookups of a record's jobs read by the record, on the embedded store. SQLite keeps
 * no statistics there, so given a record and its workflow it read the workflow's index (every job
 * the workflow ever had) as readily as the record's: adopting a million pending records read the
 * whole outbox once a page, and the server answered nothing else for minutes (the browser
 * suite's million-row download crawled at 50 KB/s behind it). The answers are checked too.
 * And the counts of open jobs past or near their deadline (the dashboards', the monitoring's), which
 * read every open job's document until their compound indexes covered them.
 */
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../boot';
import { SqliteStore } from '../store/sqlite';
import { realRegistry } from '../testing/harness';
import { SYNC_JOB } from './collections';
import { syncCounts } from './deadlines';
import { adoptPending, recordJobs } from './jobs';

const dir = mkdtempSync(join(tmpdir(), 'tm-recordjobs-'));
const reg = realRegistry();
let store: SqliteStore;
let db: Database.Database;
const prepared: string[] = [];

/** A job as the outbox writes it, trimmed to what the lookups read. */
const job = (workflow: string, recordId: string, kind: string, state = 'done', declaredAt = '2026-01-01T00:00:00.000Z') => ({
  id: `${workflow}:${recordId}:${kind}`, key: `${workflow}:${recordId}:${kind}`, workflow, entity: workflow, recordId, kind, state, declaredAt,
  nextAt: declaredAt, deadline: '2026-01-04T00:00:00.000Z', dueSoonAt: '2026-01-03T00:00:00.000Z', attempts: 0, rev: 0,
});

beforeAll(async () => {
  store = new SqliteStore({ dataDir: dir });
  await prepareStore(reg, store);
  // Many settled jobs of one workflow, as a year of declarations leaves them.
  await store.insertMany(SYNC_JOB, Array.from({ length: 5_000 }, (_, i) => job('product_import', `old-${i}`, 'declare')));
  db = (store as unknown as { db: Database.Database }).db;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The plans of the sync_job reads prepared since `from`. */
function jobReadPlans(from: number): string[] {
  return prepared.slice(from).filter((q) => q.startsWith('SELECT') && q.includes(SYNC_JOB)).map((sql) => {
    const params = Array.from(sql.matchAll(/\?/g), () => null);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
  });
}

describe('a record\'s jobs', () => {
  it('are its workflow\'s only, read by the record', async () => {
    await store.insertMany(SYNC_JOB, [
      job('product_import', 'shared-id', 'declare', 'done'),
      job('delivery', 'shared-id', 'declare', 'failed'),
      job('delivery', 'shared-id', 'confirm', 'pending', '2026-01-02T00:00:00.000Z'),
    ]);
    const from = prepared.length;
    expect((await recordJobs(store, 'delivery', 'shared-id')).map((j) => j.key).sort()).toEqual(['delivery:shared-id:confirm', 'delivery:shared-id:declare']);
    expect((await recordJobs(store, 'product_import', 'shared-id')).map((j) => j.key)).toEqual(['product_import:shared-id:declare']);
    expect(await recordJobs(store, 'delivery', 'old-1')).toEqual([]);
    const plans = jobReadPlans(from);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan).toContain('i:sync_job:recordId');
  });

  it('are looked for by the records of each page when pending records are adopted', async () => {
    const docs = Array.from({ length: 1_200 }, (_, i) => ({
      id: `pending-${String(i).padStart(5, '0')}`, importDate: '2025-03-02', importID: `IMP-p-${i}`, deposit: 'deposit-x', status: 'Imported', sync: { status: '' },
      productData: [{ material: 'material-x', batchId: `P-p-${i}`, quantity: 5, uom: 'uom-x' }],
    }));
    await store.insertMany('product_import', docs);
    // One of them already has its job: adopted once, not again.
    await store.insert(SYNC_JOB, job('product_import', docs[7].id, 'declare', 'pending'));
    const from = prepared.length;
    expect(await adoptPending(store, reg, new Date())).toBe(docs.length - 1);
    expect(await store.count(SYNC_JOB, { recordId: { $in: docs.map((d) => d.id) } })).toBe(docs.length);
    const lookups = jobReadPlans(from);
    expect(lookups.length).toBeGreaterThan(0);
    for (const plan of lookups) {
      expect(plan).not.toContain('i:sync_job:workflow');
      expect(plan).toContain('recordId');
    }
  });

  it('are not looked for again while no record was written pending behind the workflow\'s back', async () => {
    // A store that counts the reads of the records themselves (counts aside).
    let reads = 0;
    const counted = new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'find') return (coll: string, o: unknown) => { if (coll === 'product_import') reads++; return target.find(coll, o as never); };
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const now = new Date();
    await adoptPending(counted, reg, now);
    expect(reads).toBeGreaterThan(0);
    reads = 0;
    expect(await adoptPending(counted, reg, now)).toBe(0);
    expect(reads).toBe(0);
    // One written pending (an import): the next pass reads the pages again and adopts it.
    await store.insert('product_import', { id: 'imported-late', importDate: '2025-03-02', importID: 'IMP-late', deposit: 'deposit-x', status: 'Imported', sync: { status: '' }, productData: [] });
    expect(await adoptPending(counted, reg, now)).toBe(1);
    expect(reads).toBeGreaterThan(0);
    expect((await recordJobs(store, 'product_import', 'imported-late')).map((j) => j.state)).toEqual(['pending']);
  });
});

describe('the outbox\'s deadline counts', () => {
  it('read open jobs past or near their deadline in an index alone, and count them right', async () => {
    const now = new Date('2026-01-03T12:00:00.000Z');
    // Open and settled jobs on both sides of their deadlines (job() gives every one the same: due soon from the 3rd, due on the 4th).
    await store.insertMany(SYNC_JOB, [
      ...Array.from({ length: 30 }, (_, i) => ({ ...job('delivery', `late-${i}`, 'declare', i % 3 === 0 ? 'failed' : 'pending'), deadline: '2026-01-02T00:00:00.000Z', dueSoonAt: '2026-01-01T00:00:00.000Z' })),
      ...Array.from({ length: 20 }, (_, i) => job('delivery', `near-${i}`, 'declare', i % 2 ? 'leased' : 'pending')),
      ...Array.from({ length: 10 }, (_, i) => ({ ...job('delivery', `later-${i}`, 'declare', 'pending'), deadline: '2026-02-01T00:00:00.000Z', dueSoonAt: '2026-01-31T00:00:00.000Z' })),
      ...Array.from({ length: 10 }, (_, i) => ({ ...job('delivery', `done-late-${i}`, 'declare', 'done'), deadline: '2026-01-02T00:00:00.000Z' })),
    ]);
    const from = prepared.length;
    const counts = await syncCounts(store, now);
    const at = now.toISOString();
    const open = (await store.find(SYNC_JOB, { filter: { state: { $in: ['pending', 'leased', 'failed'] } } }));
    expect(counts.overdue).toBe(open.filter((j) => String(j.deadline) <= at).length);
    expect(counts.dueSoon).toBe(open.filter((j) => String(j.dueSoonAt) <= at && String(j.deadline) > at).length);
    // Beside the jobs the tests above left, the ones written here.
    expect(counts.overdue).toBeGreaterThanOrEqual(30);
    expect(counts.dueSoon).toBeGreaterThanOrEqual(20);
    // Both deadline counts (the statements reading a deadline) enter the index at the state and the deadline: the
    // open jobs on the wrong side of it are not read (the due-soon test of the rest is on the index's own values).
    const deadlineReads = prepared.slice(from).filter((q) => q.includes(SYNC_JOB) && q.includes('"k:deadline"'));
    expect(deadlineReads).toHaveLength(2);
    for (const sql of deadlineReads) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from(sql.matchAll(/\?/g), () => null)) as { detail: string }[]).map((r) => r.detail).join('; ');
      expect(plan).toMatch(/USING (COVERING )?INDEX i:sync_job:state\+deadline\+dueSoonAt \(k:state=\? AND k:deadline[<>]\?/);
    }
  });
});
