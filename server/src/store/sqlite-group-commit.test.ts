import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded store group commit', () => {
  it('commits concurrent writes together and fails only the ones that must fail', async () => {
    const store = new SqliteStore({ dataDir: dir });
    await store.ensureCollection({ name: 'lots', uniqueKeys: [['code']], indexes: [], searchPaths: ['code'] });
    const kept = await store.insert('lots', { code: 'K-1', qty: 1 });
    // 50 creates in one turn, every tenth reusing a code: the first of each pair wins.
    const creates = Array.from({ length: 50 }, (_, i) => store.insert('lots', { code: `L-${i % 10 === 9 ? i - 1 : i}` }));
    const others = [
      store.update('lots', kept.id, { code: 'K-1', qty: 2 }),
      store.patch('lots', 'missing', { qty: 3 }),
      store.delete('lots', 'missing'),
    ];
    const settled = await Promise.allSettled([...creates, ...others]);
    const rejected = settled.map((s, i) => [i, s] as const).filter(([, s]) => s.status === 'rejected');
    expect(rejected.map(([i, s]) => [i, (s as PromiseRejectedResult).reason.code])).toEqual([
      [9, 'DUPLICATE_KEY'], [19, 'DUPLICATE_KEY'], [29, 'DUPLICATE_KEY'], [39, 'DUPLICATE_KEY'], [49, 'DUPLICATE_KEY'], [51, 'NOT_FOUND'],
    ]);
    expect(settled[52]).toEqual({ status: 'fulfilled', value: false });
    expect(await store.count('lots')).toBe(46);
    expect((await store.get('lots', kept.id))?.qty).toBe(2);
    expect(await store.count('lots', {}, { search: 'l-4' })).toBe(10); // L-4 and L-40 … L-48
    await store.close();
    // What was acknowledged is on disk for the next process.
    const again = new SqliteStore({ dataDir: dir });
    expect(await again.count('lots')).toBe(46);
    await again.close();
  });

  it('rejects writes queued when the store closes', async () => {
    const store = new SqliteStore({ dataDir: join(dir, 'closing') });
    await store.ensureCollection({ name: 'lots', uniqueKeys: [], indexes: [] });
    // Checked from the start: close() may take a while (its checkpoint thread) and the write fails meanwhile.
    const late = expect(store.insert('lots', { code: 'x' })).rejects.toMatchObject({ code: 'CLOSED' });
    await store.close();
    await late;
  });
});
