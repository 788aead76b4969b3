import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runStoreContract } from './contract.js';
import { SqliteStore } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract('embedded (SQLite)', async () => new SqliteStore({ dataDir: join(dir, 'plain') }));
// As the server runs it: searches computed by a reader thread, then cached.
runStoreContract('embedded (SQLite) with a search reader thread', async () => new SqliteStore({ dataDir: join(dir, 'readers'), searchReaders: 1 }));
