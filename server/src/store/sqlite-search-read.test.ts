import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAX_ROWS } from './sqlite-search-cache.js';
import { SearchCompactor, segmentCount } from './sqlite-search-compact.js';
import { SqliteStore } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'search-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const spec = { name: 'items', uniqueKeys: [], indexes: ['name'], searchPaths: ['name'] };

describe('embedded store search cache', () => {
  it('sees what another connection committed (a seed or import script)', async () => {
    const server = new SqliteStore({ dataDir: dir });
    const script = new SqliteStore({ dataDir: dir });
    await server.ensureCollection(spec);
    await script.ensureCollection(spec);
    await server.insert('items', { name: 'Bidón 20 L' });
    expect(await server.count('items', {}, { search: 'bidón' })).toBe(1);
    await script.insertMany('items', [{ name: 'Bidón 5 L' }, { name: 'Bidón 1 L' }]);
    expect(await server.count('items', {}, { search: 'bidón' })).toBe(3);
    expect((await server.find('items', { search: 'bidón', sort: { name: 1 } })).map((d) => d.name)).toEqual(['Bidón 1 L', 'Bidón 20 L', 'Bidón 5 L']);
    await script.close();
    await server.close();
  });

  it('pages and counts exactly past the matches it keeps', async () => {
    const store = new SqliteStore({ dataDir: join(dir, 'big') });
    await store.ensureCollection(spec);
    const n = MAX_ROWS + 250;
    await store.insertMany('items', Array.from({ length: n }, (_, i) => ({ name: `Caja ${String(i).padStart(5, '0')}` })));
    expect(await store.count('items', {}, { search: 'caja' })).toBe(n);
    const first = await store.find('items', { search: 'caja', sort: { name: 1 }, limit: 20 });
    expect(first[0].name).toBe('Caja 00000');
    const last = await store.find('items', { search: 'caja', sort: { name: 1 }, skip: n - 10, limit: 20 });
    expect(last.map((d) => d.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Caja ${String(n - 10 + i).padStart(5, '0')}`));
    await store.close();
  });
});

describe('embedded store search compaction', () => {
  it('merges the index segments left by many small writes and keeps every answer', async () => {
    const store = new SqliteStore({ dataDir: join(dir, 'compact') });
    await store.ensureCollection(spec);
    for (let i = 0; i < 40; i++) await store.insertMany('items', Array.from({ length: 25 }, (_, k) => ({ name: `Tambor ${i}-${k}` })));
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    const before = segmentCount(db, 'items');
    expect(before).toBeGreaterThan(1);
    const answer = async () => [await store.count('items', {}, { search: 'tambor 3' }), (await store.find('items', { search: 'mbor 39-', sort: { name: 1 } })).map((d) => d.name)];
    const expected = await answer();
    await new SearchCompactor(db, (f) => Promise.resolve(f())).compact('items');
    expect(segmentCount(db, 'items')).toBe(1);
    await store.insert('items', { name: 'Tambor 39-99' });
    expect(await answer()).toEqual([expected[0] as number + 1, [...(expected[1] as string[]), 'Tambor 39-99']]);
    await store.close();
  });
});

describe('embedded store search reader threads', () => {
  it('computes a search on a reader thread once, and answers on its own thread when the reader is gone', async () => {
    const store = new SqliteStore({ dataDir: join(dir, 'threads'), searchReaders: 1 });
    await store.ensureCollection(spec);
    await store.insertMany('items', [{ name: 'Bidón 20 L' }, { name: 'Bidón 5 L' }, { name: 'Caja' }]);
    const pool = (store as unknown as { searchReads: { pool: { query: () => Promise<number[]>; close: () => Promise<void> } } }).searchReads.pool;
    const query = vi.spyOn(pool, 'query');
    const page = async () => (await store.find('items', { search: 'bidón', sort: { name: 1 } })).map((d) => d.name);
    expect(await page()).toEqual(['Bidón 20 L', 'Bidón 5 L']);
    expect(await store.count('items', {}, { search: 'bidón' })).toBe(2);
    expect(await page()).toEqual(['Bidón 20 L', 'Bidón 5 L']);
    expect(query).toHaveBeenCalledTimes(1);
    await expect(query.mock.results[0].value).resolves.toHaveLength(2); // the reader answered
    await store.insert('items', { name: 'Bidón 1 L' });
    expect(await page()).toEqual(['Bidón 1 L', 'Bidón 20 L', 'Bidón 5 L']);
    expect(query).toHaveBeenCalledTimes(2);
    await pool.close();
    await store.insert('items', { name: 'Bidón 10 L' });
    expect(await page()).toEqual(['Bidón 1 L', 'Bidón 10 L', 'Bidón 20 L', 'Bidón 5 L']);
    expect(query).toHaveBeenCalledTimes(2);
    await store.close();
  });
});
