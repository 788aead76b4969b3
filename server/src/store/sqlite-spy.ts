/**
 * For tests of the embedded store's SQL (sqlite-group.test.ts, sqlite-keyed.test.ts): every
 * statement its connection prepares from now on, in order, so a test can tell which way SQL
 * answered (a statement is prepared once and cached: a test names a collection of its own).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { SqliteStore } from './sqlite.js';

function preparedStatements(store: SqliteStore): string[] {
  const prepared: string[] = [];
  const db = (store as unknown as { db: Database.Database }).db;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => { prepared.push(sql); return prepare(sql); }) as typeof db.prepare;
  return prepared;
}

/** A test file's store in a folder of its own, its statements recorded: opened before the file's tests, removed after them. */
export function spiedStore(prefix: string): { store: SqliteStore; prepared: string[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const t = { store: undefined as unknown as SqliteStore, prepared: [] as string[] };
  beforeAll(() => {
    t.store = new SqliteStore({ dataDir: dir });
    t.prepared = preparedStatements(t.store);
  });
  afterAll(async () => {
    await t.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return t;
}
