/** The stock ledger on the store the tests run on (embedded, or MONGODB_URI). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, realRegistry } from '../testing/harness';
import type { Store } from '../store/types';
import { ApiError } from '../apiError';
import { applyMovements, BALANCES, MOVEMENTS, writeMovements } from './ledger';
import { daysToExpire, fefoBatches, movementRows, stockLevels } from './stock';

let store: Store;
let dispose: () => Promise<void>;
let n = 0;
const op = () => ({ workflow: 'test', id: `rec${n}`, transition: 'go' });
const opId = () => `OP${String(n++).padStart(6, '0')}`;
/** A ledger write as a transition makes it: in a transaction when the store has them. */
const apply = (ms: Parameters<typeof applyMovements>[1], at: string) => {
  const id = opId();
  return store.capabilities.transactions ? store.transaction((tx) => applyMovements(tx, ms, op(), at, id)) : applyMovements(store, ms, op(), at, id);
};

beforeAll(async () => {
  ({ store, dispose } = await openTestStore(realRegistry(), 'tm-ledger-'));
  await store.insert('material', { id: 'M1', name: 'Glyphosate', state: 1 });
  await store.insert('company_division', { id: 'D1', division_name: 'North depot', state: 1 });
  await store.insert('lot', { number: 'B1', material: 'M1', expirationDate: '2026-03-01', elaborationDate: '2025-03-01' });
  await store.insert('lot', { number: 'B2', material: 'M1', expirationDate: '2026-01-15' });
  await apply([{ material: 'M1', batch: 'B1', deposit: 'D1', quantity: 100, unit: 'kg' }, { material: 'M1', batch: 'B2', deposit: 'D1', quantity: 5, unit: 'kg' }], '2025-01-10T10:00:00.000Z');
  await apply([{ material: 'M1', batch: 'B1', deposit: 'D1', quantity: -30, unit: 'kg' }], '2025-02-10T10:00:00.000Z');
  await apply([{ material: 'M1', batch: 'B3', deposit: 'D1', quantity: 7 }, { material: 'M1', batch: 'B3', deposit: 'D2', quantity: 1 }], '2025-03-10T10:00:00.000Z');
});
afterAll(async () => { await dispose(); });

describe('the stock ledger', () => {
  it('keeps stock by material, batch and deposit now, with lot dates and days to expiry', async () => {
    const now = await stockLevels(store, { material: 'M1', deposit: 'D1' }, undefined, new Date('2026-01-01T12:00:00Z'));
    expect(now.total).toBe(3);
    expect(now.data.map((r) => [r.batch, r.quantity, r.unit, r.expirationDate, r.daysToExpire])).toEqual([
      ['B1', 70, 'kg', '2026-03-01', 59], ['B2', 5, 'kg', '2026-01-15', 14], ['B3', 7, null, null, null],
    ]);
    expect(now.data[0].elaborationDate).toBe('2025-03-01');
  });

  it('answers the stock on a past date from the movements up to it (a date alone: the whole day)', async () => {
    const q = (at: string) => stockLevels(store, { material: 'M1', batch: 'B1', deposit: 'D1', at });
    expect((await q('2025-01-09')).data).toEqual([]);
    expect((await q('2025-01-10')).data.map((r) => r.quantity)).toEqual([100]);
    expect((await q('2025-02-10T09:59:59Z')).data.map((r) => r.quantity)).toEqual([100]);
    expect((await q('2025-02-10')).data.map((r) => r.quantity)).toEqual([70]);
    expect((await stockLevels(store, { at: '2025-03-10' })).total).toBe(4);
  });

  it('refuses a movement list that takes any balance below 0, naming material, batch, deposit, available and requested, and writes none of it', async () => {
    const movementsBefore = await store.count(MOVEMENTS);
    const balancesBefore = await store.find(BALANCES, { sort: { id: 1 } });
    const err = await apply([
      { material: 'M1', batch: 'B2', deposit: 'D1', quantity: -5 },
      { material: 'M1', batch: 'B1', deposit: 'D1', quantity: -70.5 },
    ], '2025-04-01T00:00:00.000Z').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'STOCK_INSUFFICIENT', status: 400, params: { material: 'Glyphosate', batch: 'B1', deposit: 'North depot', available: 70, requested: 70.5 } });
    expect(await store.count(MOVEMENTS)).toBe(movementsBefore);
    expect(await store.find(BALANCES, { sort: { id: 1 } })).toEqual(balancesBefore);
  });

  it('checks in order: stock arriving earlier in the same list may leave later, not the reverse', async () => {
    await expect(apply([{ material: 'M9', batch: 'X', deposit: 'D1', quantity: -1 }, { material: 'M9', batch: 'X', deposit: 'D1', quantity: 1 }], '2025-04-01T00:00:00.000Z'))
      .rejects.toMatchObject({ code: 'STOCK_INSUFFICIENT', params: { material: 'M9', deposit: 'North depot', available: 0, requested: 1 } });
    await apply([{ material: 'M9', batch: 'X', deposit: 'D1', quantity: 1 }, { material: 'M9', batch: 'X', deposit: 'D1', quantity: -1 }], '2025-04-01T00:00:00.000Z');
    expect((await stockLevels(store, { material: 'M9' })).data).toEqual([]);
  });

  it('counts a replayed operation once', async () => {
    const ms = [{ material: 'M8', batch: 'R', deposit: 'D1', quantity: 4 }];
    await writeMovements(store, ms, op(), '2025-05-01T00:00:00.000Z', 'REPLAY1');
    await writeMovements(store, ms, op(), '2025-05-01T00:00:00.000Z', 'REPLAY1', { replay: true });
    expect((await stockLevels(store, { material: 'M8' })).data.map((r) => r.quantity)).toEqual([4]);
    expect(await store.count(MOVEMENTS, { material: 'M8' })).toBe(1);
  });

  it('lists batches with stock first expired first, those without a date last', async () => {
    const rows = await fefoBatches(store, { material: 'M1', deposit: 'D1' });
    expect(rows.map((r) => r.batch)).toEqual(['B2', 'B1', 'B3']);
    expect((await fefoBatches(store, { material: 'M1' })).map((r) => `${r.batch}@${r.deposit}`)).toEqual(['B2@D1', 'B1@D1', 'B3@D1', 'B3@D2']);
  });

  it('lists the movements newest first, naming their operation', async () => {
    const page = await movementRows(store, { material: 'M1', batch: 'B1' });
    expect(page.total).toBe(2);
    expect(page.data.map((m) => m.quantity)).toEqual([-30, 100]);
    expect(page.data[0].operation).toMatchObject({ workflow: 'test', transition: 'go' });
  });

  it('counts days to expiry from the start of the day, negative once expired', () => {
    expect(daysToExpire('2026-01-02', new Date('2026-01-01T23:00:00Z'))).toBe(1);
    expect(daysToExpire('2025-12-31', new Date('2026-01-01T00:00:00Z'))).toBe(-1);
    expect(daysToExpire(undefined, new Date())).toBeNull();
  });
});

describe('stock never negative under concurrent removals', () => {
  it('lets exactly as many removals through as the stock covers', async () => {
    await apply([{ material: 'MC', batch: 'C', deposit: 'D1', quantity: 10 }], '2025-06-01T00:00:00.000Z');
    // Without transactions the ledger relies on its caller to serialise (TransitionApplier): so does this test.
    let tail: Promise<unknown> = Promise.resolve();
    const serial = <T>(fn: () => Promise<T>) => (store.capabilities.transactions ? fn() : (tail = tail.then(fn, fn)) as Promise<T>);
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => serial(() => apply([{ material: 'MC', batch: 'C', deposit: 'D1', quantity: -1 }], '2025-06-02T00:00:00.000Z'))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect((await stockLevels(store, { material: 'MC' })).data).toEqual([]);
    const [bal] = await store.find(BALANCES, { filter: { material: 'MC' } });
    expect(bal.quantity).toBe(0);
  });
});
