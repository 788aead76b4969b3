/**
 * A range with both ends of one type on an indexed path is compiled as those two ends alone (each
 * end bracketed to its type as well gave SQLite two upper bounds to choose from, and it could walk
 * the index from the lower end to the end of the type's bracket: 29 ms instead of 0.26 ms for ten
 * rows of 200,000). The two ends must still keep the range to their type, as MongoDB's type
 * bracketing does, among values of every type on the path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import type { Filter, Store } from './types.js';

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tm-range-'));
  store = await openStore({ dataDir: dir });
  await store.ensureCollection({ name: 'r', uniqueKeys: [], indexes: ['k', 'n', 'b'], searchPaths: [] });
  await store.insertMany('r', Array.from({ length: 3_000 }, (_, i) => ({ k: `k${String(i).padStart(6, '0')}`, n: i, b: i % 2 === 0 })));
  // Values of other types on the same paths: the ranges must still keep to their own type.
  await store.insertMany('r', [{ k: 5, n: 'k000100' }, { k: null, n: true }, { k: true }, { n: null }, {}]);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two-ended ranges on an indexed path', () => {
  const cases: [string, Filter, number][] = [
    ['strings', { k: { $gte: 'k000100', $lt: 'k000110' } }, 10],
    ['numbers', { n: { $gt: 99, $lte: 109 } }, 10],
    ['booleans', { b: { $gte: false, $lte: true } }, 3_000],
  ];
  for (const [kind, filter, rows] of cases) {
    it(`of ${kind} keep to their type among values of every type on the path`, async () => {
      expect(await store.count('r', filter)).toBe(rows);
    });
  }

  it('keeps each end to its own type when the ends differ in type, as MongoDB does: no value is both a number and a string', async () => {
    expect(await store.count('r', { n: { $gte: 2_990, $lt: 'z' } })).toBe(0);
    expect(await store.count('r', { n: { $gte: 2_990 } })).toBe(10);
  });
});
