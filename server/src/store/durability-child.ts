/**
 * Child process for durability.test.ts: writes to the embedded store forever, printing
 * "ACK <n>" once the n-th write has been acknowledged (its promise resolved). The parent kills
 * it with SIGKILL and checks that every acknowledged write is there after reopening.
 */
import { SqliteStore } from './sqlite.js';

const [dir] = process.argv.slice(2);
const store = new SqliteStore({ dataDir: dir });
await store.ensureCollection({ name: 'writes', uniqueKeys: [['seq']], indexes: [] });
for (let n = 1; ; n++) {
  await store.insert('writes', { id: `w${n}`, seq: n, payload: 'x'.repeat(200) });
  if (n % 10 === 0) await store.patch('writes', `w${n - 5}`, { patched: n });
  process.stdout.write(`ACK ${n}\n`);
}
