import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'store-durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer and SIGKILLs it the moment it has acknowledged `n` writes. */
function writeThenKill(n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'durability-child.ts'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let acked = 0;
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        const m = /^ACK (\d+)$/.exec(line);
        if (m) acked = Math.max(acked, Number(m[1]));
      }
      if (acked >= n && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited by itself (code ${code}): ${stderr}`));
    });
  });
}

describe('embedded store durability', () => {
  it('keeps every acknowledged write after the writing process is killed with SIGKILL', async () => {
    const acked = await writeThenKill(400);
    expect(acked).toBeGreaterThanOrEqual(400);
    const store = new SqliteStore({ dataDir: dir });
    try {
      const docs = await store.find('writes', { filter: { seq: { $lte: acked } }, sort: { seq: 1 } });
      expect(docs.map((d) => d.seq)).toEqual(Array.from({ length: acked }, (_, i) => i + 1));
      for (let n = 10; n <= acked; n += 10) expect((await store.get('writes', `w${n - 5}`))?.patched).toBe(n);
    } finally {
      await store.close();
    }
  }, 30_000);
});
