import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite';
import { Checkpointer } from './sqlite-checkpoint';

const dir = mkdtempSync(join(tmpdir(), 'tm-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const size = (f: string) => statSync(f).size;

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const docs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ code: `c${from + i}`, text: 'x'.repeat(400) }));

describe('WAL checkpoints on their own thread', () => {
  it('copies committed pages into the database file without a commit doing it', async () => {
    const store = new SqliteStore({ dataDir: join(dir, 'plain') });
    try {
      expect(store.checkpoints).toBe('thread');
      await store.ensureCollection({ name: 'lots', uniqueKeys: [['code']], indexes: [] });
      const before = size(store.file);
      for (let i = 0; i < 5; i++) await store.insertMany('lots', docs(1000, i * 1000));
      await until('the database file to take the rows', () => size(store.file) > before + 2_000_000);
    } finally {
      await store.close();
    }
  });

  it('copies back what a snapshot held in the WAL once it is released, with no commit after', async () => {
    const dataDir = join(dir, 'snapshot');
    const store = new SqliteStore({ dataDir });
    await store.ensureCollection({ name: 'lots', uniqueKeys: [['code']], indexes: [] });
    const reader = new SqliteStore({ dataDir, readOnly: true });
    try {
      reader.holdSnapshot();
      for (let i = 0; i < 5; i++) await store.insertMany('lots', docs(1000, i * 1000));
      await new Promise((r) => setTimeout(r, 300));
      // Held back by the snapshot: only what was committed before it (the collection's tables) is copied.
      const before = size(store.file);
      expect(before).toBeLessThan(100_000);
      expect(size(`${store.file}-wal`)).toBeGreaterThan(2_000_000);
      reader.releaseSnapshot();
      await until('the thread to copy the WAL back', () => size(store.file) > before + 2_000_000);
      expect(await reader.count('lots')).toBe(5000);
    } finally {
      await reader.close();
      await store.close();
    }
    // Closed: everything is in the database file.
    const wal = `${join(dataDir, 'store.sqlite')}-wal`;
    expect(existsSync(wal) ? size(wal) : 0).toBe(0);
    const again = new SqliteStore({ dataDir, backgroundCheckpoints: false });
    expect(again.checkpoints).toBe('commits');
    expect(await again.count('lots')).toBe(5000);
    await again.close();
  });

  it('tells its owner when the thread ends on its own, so commits checkpoint again', async () => {
    let stopped = false;
    // No database there: the thread cannot open it and ends.
    const c = new Checkpointer(join(dir, 'missing', 'store.sqlite'), () => { stopped = true; });
    await until('the thread to end', () => stopped);
    await c.stop();
  });
});
