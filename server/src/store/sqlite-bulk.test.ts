/**
 * The embedded store keeps its search index in step itself (sqlite-search.ts: no triggers, a
 * bulk insert indexed by one statement after its rows), and migrates a database written with
 * the earlier layout when it opens it (sqlite-layout.ts). After every write path the index must
 * hold exactly the text of every document: checked against SQL written independently of the
 * adapter's, and by FTS5's own integrity check.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.js';
import { keyExpr } from './sqlite-sql.js';
import type { Doc, Store } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'store-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(dir, `db${++n}`);

const SPEC = { name: 'lots', uniqueKeys: [['code']], indexes: ['name', 'code', 'state'], searchPaths: ['name', 'info.code'] };
/** The searched text of a document, as the index must hold it: the paths joined in the order SPEC lists them. */
const TEXT = `concat_ws(' ', json_extract(doc, '$."name"'), json_extract(doc, '$."info"."code"'))`;

/** The rows of a bulk insert whose search text waits to be indexed (sqlite-search-defer.ts). */
function waitingRows(file: string, coll: string): { first: number; last: number } | undefined {
  const db = new Database(file, { readonly: true });
  try {
    if (!db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = '__store_search_pending'`).get()) return undefined;
    return db.prepare(`SELECT first, last FROM __store_search_pending WHERE coll = ?`).get(coll) as { first: number; last: number } | undefined;
  } finally {
    db.close();
  }
}

/**
 * Differences between the search index and the documents: empty when they are in step. Rows
 * waiting to be indexed must not be indexed yet (the catch-up would index them twice); every
 * other row must be indexed with its text as it is.
 */
function searchDrift(file: string, coll: string): string[] {
  const wait = waitingRows(file, coll) ?? { first: 0, last: -1 };
  const db = new Database(file, { readonly: true });
  try {
    const fts = `"s:${coll}"`;
    const missing = db.prepare(`SELECT id FROM "${coll}" AS d WHERE d.rowid NOT BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM ${fts} WHERE rowid = d.rowid AND text = (SELECT ${TEXT} FROM "${coll}" WHERE rowid = d.rowid))`).pluck().all(wait.first, wait.last) as string[];
    const early = db.prepare(`SELECT rowid FROM ${fts} WHERE rowid BETWEEN ? AND ?`).pluck().all(wait.first, wait.last) as number[];
    const stray = db.prepare(`SELECT rowid FROM ${fts} WHERE rowid NOT IN (SELECT rowid FROM "${coll}")`).pluck().all() as number[];
    return [
      ...missing.map((id) => `not indexed as it is: ${id}`),
      ...early.map((r) => `indexed while waiting: rowid ${r}`),
      ...stray.map((r) => `indexed, no document: rowid ${r}`),
    ];
  } finally {
    db.close();
  }
}

/** FTS5's own check of its index against its stored text (throws on a mismatch). */
function ftsIntegrity(file: string, coll: string): void {
  const db = new Database(file);
  try {
    db.prepare(`INSERT INTO "s:${coll}" ("s:${coll}", rank) VALUES ('integrity-check', 1)`).run();
  } finally {
    db.close();
  }
}

/** Closes a store after checking its index against its documents, then runs FTS5's own check. */
async function closeInStep(s: SqliteStore): Promise<void> {
  expect(searchDrift(s.file, 'lots')).toEqual([]);
  await s.close();
  ftsIntegrity(s.file, 'lots');
}

const lot = (i: number, extra: Doc = {}): Doc => ({ code: `L-${i}`, name: `Lote ${i} ${i % 3 === 0 ? 'rojo' : 'verde'}`, info: { code: `C${i}` }, state: 1, ...extra });

describe('embedded store bulk insert and search', () => {
  it('indexes an insertMany exactly as single inserts do', async () => {
    const a = new SqliteStore({ dataDir: freshDir() });
    const b = new SqliteStore({ dataDir: freshDir() });
    for (const s of [a, b]) await s.ensureCollection(SPEC);
    const docs = Array.from({ length: 1500 }, (_, i) => lot(i, { id: `ID${String(i).padStart(5, '0')}` }));
    for (const d of docs) await a.insert('lots', d);
    await b.insertMany('lots', docs.slice(0, 700));
    await b.insertMany('lots', docs.slice(700));
    for (const search of ['rojo', 'lote 14', 'c149', 'L-', '7 v']) {
      expect(await b.find('lots', { search, sort: { code: 1 } })).toEqual(await a.find('lots', { search, sort: { code: 1 } }));
      expect(await b.count('lots', {}, { search })).toBe(await a.count('lots', {}, { search }));
    }
    for (const s of [a, b]) await closeInStep(s);
  });

  it('keeps the index in step through failed, rolled-back and mixed writes', async () => {
    const s = new SqliteStore({ dataDir: freshDir() });
    await s.ensureCollection(SPEC);
    await s.insertMany('lots', [lot(1), lot(2)]);
    // A duplicate in the middle: nothing of the batch is kept, in the table or the index.
    await expect(s.insertMany('lots', [lot(3), lot(4), lot(1), lot(5)])).rejects.toMatchObject({ code: 'DUPLICATE_KEY' });
    expect(await s.count('lots', {}, { search: 'lote' })).toBe(2);
    // A single insert after a failed bulk one is indexed as ever.
    await s.insert('lots', lot(6));
    expect((await s.find('lots', { search: 'lote 6' })).map((d) => d.code)).toEqual(['L-6']);
    await expect(s.transaction(async (tx) => {
      await tx.insertMany('lots', [lot(7), lot(8)]);
      expect(await tx.count('lots', {}, { search: 'lote 8' })).toBe(1);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await s.count('lots', {}, { search: 'lote 8' })).toBe(0);
    await s.transaction(async (tx) => {
      const [x] = await tx.insertMany('lots', [lot(9), lot(10), lot(11)]);
      await tx.update('lots', x.id, { ...lot(9), name: 'Partida nueve' });
      const [y] = await tx.find('lots', { filter: { code: 'L-10' } });
      await tx.delete('lots', y.id);
      await tx.insert('lots', lot(12));
      await tx.insertMany('lots', [lot(13)]);
      await tx.upsertMany('lots', ['code'], [lot(11, { name: 'Lote once' }), lot(14)]);
    });
    expect((await s.find('lots', { search: 'lote', sort: { code: 1 } })).map((d) => d.code)).toEqual(['L-1', 'L-11', 'L-12', 'L-13', 'L-14', 'L-2', 'L-6']);
    expect((await s.find('lots', { search: 'nueve' })).map((d) => d.code)).toEqual(['L-9']);
    await closeInStep(s);
  });

  it('keeps the index in step over a random run of every write path', async () => {
    const s = new SqliteStore({ dataDir: freshDir() });
    await s.ensureCollection(SPEC);
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * k); // the high bits: an LCG's low bits cycle
    };
    for (let step = 0; step < 300; step++) {
      const ids = (await s.find('lots', { projection: { id: 1 } })).map((d) => d.id);
      const some = () => ids[rnd(ids.length)];
      const op = rnd(8);
      // Now and then a batch large enough that its indexing is deferred (codes of their own: no duplicates).
      const batch = () => (rnd(12) === 0 ? Array.from({ length: 200 + rnd(100) }, (_, k) => lot(10_000 + step * 1000 + k)) : Array.from({ length: 1 + rnd(6) }, () => lot(rnd(400))));
      const write = async (st: Store) => {
        if (op === 0) await st.insert('lots', lot(rnd(400)));
        else if (op === 1 || op === 2) await st.insertMany('lots', batch());
        else if (op === 3 && ids.length) await st.update('lots', some(), lot(rnd(60), { name: `Cambio ${step}` }));
        else if (op === 4 && ids.length) await st.patch('lots', some(), { info: { code: `P${step}` } });
        else if (op === 5 && ids.length) await st.delete('lots', some());
        else await st.upsertMany('lots', ['code'], batch().map((d) => ({ ...d, name: `Upsert ${step}` })));
      };
      const inTx = rnd(3);
      try {
        if (inTx === 0) await write(s);
        else await s.transaction(async (tx) => { await write(tx); if (inTx === 2) throw new Error('roll back'); });
      } catch (e) {
        if ((e as { code?: string }).code !== 'DUPLICATE_KEY' && (e as Error).message !== 'roll back') throw e;
      }
      if (step % 10 === 0) expect(searchDrift(s.file, 'lots')).toEqual([]);
      if (step % 25 === 0) {
        // A search indexes what waits first: it finds every row, and nothing waits after it.
        expect(await s.count('lots', {}, { search: 'lote' })).toBe(await s.count('lots', { name: { $regex: 'lote', $options: 'i' } }));
        expect(waitingRows(s.file, 'lots')).toBeUndefined();
      }
    }
    await s.count('lots', {}, { search: 'lote' });
    await closeInStep(s);
  });
});

describe('embedded store deferred search indexing', () => {
  const until = async (what: string, ok: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('leaves the text of a bulk insert for later, and a search indexes it first: rows changed, removed or added meanwhile included', async () => {
    const s = new SqliteStore({ dataDir: freshDir() });
    const ref = new SqliteStore({ dataDir: freshDir() });
    for (const st of [s, ref]) await st.ensureCollection(SPEC);
    const docs = Array.from({ length: 600 }, (_, i) => lot(i, { id: `ID${String(i).padStart(5, '0')}` }));
    await s.insertMany('lots', docs);
    for (const d of docs) await ref.insert('lots', d);
    const wait = waitingRows(s.file, 'lots');
    expect(wait && wait.last - wait.first + 1).toBe(600);
    expect(searchDrift(s.file, 'lots')).toEqual([]);
    // Meanwhile: a waiting row replaced and one deleted, a single insert and a small batch join the wait.
    for (const st of [s, ref]) {
      await st.update('lots', 'ID00005', lot(5, { name: 'Partida cinco' }));
      await st.delete('lots', 'ID00006');
      await st.insert('lots', lot(700, { id: 'ID00700' }));
      await st.insertMany('lots', [lot(701, { id: 'ID00701' }), lot(702, { id: 'ID00702' })]);
    }
    expect(waitingRows(s.file, 'lots')).toEqual({ first: wait!.first, last: wait!.first + 602 });
    for (const search of ['lote 70', 'partida', 'lote 6 ', 'C5', 'rojo', 'L-']) {
      expect(await s.find('lots', { search, sort: { code: 1 } })).toEqual(await ref.find('lots', { search, sort: { code: 1 } }));
      expect(await s.count('lots', {}, { search })).toBe(await ref.count('lots', {}, { search }));
    }
    expect(waitingRows(s.file, 'lots')).toBeUndefined();
    await closeInStep(s);
    await ref.close();
  });

  it('catches up in the background once the collection is quiet, and after a restart', async () => {
    const dataDir = freshDir();
    const s = new SqliteStore({ dataDir });
    await s.ensureCollection(SPEC);
    await s.insertMany('lots', Array.from({ length: 300 }, (_, i) => lot(i)));
    expect(waitingRows(s.file, 'lots')).toBeDefined();
    await until('the background catch-up', () => waitingRows(s.file, 'lots') === undefined);
    expect(searchDrift(s.file, 'lots')).toEqual([]);
    // Stopped before it could catch up (as by kill -9: the wait is in the database): the next open does it.
    await s.insertMany('lots', Array.from({ length: 300 }, (_, i) => lot(1000 + i)));
    await s.close();
    expect(waitingRows(s.file, 'lots')).toBeDefined();
    const again = new SqliteStore({ dataDir });
    await until('the catch-up after opening', () => waitingRows(again.file, 'lots') === undefined);
    expect(await again.count('lots', {}, { search: 'lote 1' })).toBe(await again.count('lots', { name: { $regex: 'lote 1', $options: 'i' } }));
    await closeInStep(again);
  });
});

describe('embedded store layout migration', () => {
  /** A database as the previous layout wrote it: triggers keeping the index, no layout column, a (key, id) index doubling the unique one. */
  function writeLayout1(file: string): void {
    const db = new Database(file);
    // The text followed the definition's order (name, info.code); the meta kept the paths sorted.
    const text = (row: string) => `concat_ws(' ', json_extract(${row}.doc, '$."name"'), json_extract(${row}.doc, '$."info"."code"'))`;
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE "lots" (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    db.exec(`ALTER TABLE "lots" ADD COLUMN "k:code" GENERATED ALWAYS AS ${keyExpr('code')} VIRTUAL`);
    db.exec(`CREATE UNIQUE INDEX "u:lots:code" ON "lots" ("k:code")`);
    db.exec(`CREATE INDEX "i:lots:code" ON "lots" ("k:code", id)`);
    db.exec(`CREATE TABLE __store_search (coll TEXT PRIMARY KEY NOT NULL, paths TEXT NOT NULL) WITHOUT ROWID`);
    db.exec(`CREATE VIRTUAL TABLE "s:lots" USING fts5(text, tokenize = 'trigram case_sensitive 0')`);
    db.exec(`CREATE TRIGGER "s:lots:ai" AFTER INSERT ON "lots" BEGIN INSERT INTO "s:lots" (rowid, text) VALUES (new.rowid, ${text('new')}); END`);
    db.exec(`CREATE TRIGGER "s:lots:au" AFTER UPDATE OF doc ON "lots" BEGIN UPDATE "s:lots" SET text = ${text('new')} WHERE rowid = old.rowid; END`);
    db.exec(`CREATE TRIGGER "s:lots:ad" AFTER DELETE ON "lots" BEGIN DELETE FROM "s:lots" WHERE rowid = old.rowid; END`);
    db.prepare(`INSERT INTO __store_search (coll, paths) VALUES (?, ?)`).run('lots', JSON.stringify(['info.code', 'name']));
    const ins = db.prepare(`INSERT INTO "lots" (id, doc) VALUES (?, ?)`);
    for (let i = 0; i < 50; i++) ins.run(`ID${i}`, JSON.stringify({ id: `ID${i}`, ...lot(i) }));
    db.close();
  }

  it('migrates a database written with the earlier layout when it opens it, without reindexing', async () => {
    const dataDir = freshDir();
    const file = join(dataDir, 'store.sqlite');
    mkdirSync(dataDir, { recursive: true });
    writeLayout1(file);
    const before = new Database(file, { readonly: true });
    const indexed = before.prepare(`SELECT rowid, text FROM "s:lots" ORDER BY rowid`).all();
    before.close();

    // Opened without ensureCollection: the migration must not wait for it.
    const s = new SqliteStore({ dataDir });
    const db = new Database(file, { readonly: true });
    const schema = (name: string) => db.prepare(`SELECT sql FROM sqlite_schema WHERE name = ?`).pluck().get(name) as string | undefined;
    expect(schema('i:lots:code')).toBeUndefined();
    expect(schema('u:lots:code')).toContain('UNIQUE');
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).pluck().all()).toEqual([]);
    expect(db.prepare(`SELECT layout, paths FROM __store_search WHERE coll = 'lots'`).get()).toEqual({ layout: 2, paths: '["name","info.code"]' });
    expect(db.prepare(`SELECT rowid, text FROM "s:lots" ORDER BY rowid`).all()).toEqual(indexed);
    db.close();

    await s.insertMany('lots', [lot(100), lot(101)]);
    await s.insert('lots', lot(102));
    expect((await s.find('lots', { search: 'lote 10', sort: { code: 1 } })).map((d) => d.code)).toEqual(['L-10', 'L-100', 'L-101', 'L-102']);
    await expect(s.insertMany('lots', [lot(103), lot(1)])).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['code'] });
    expect(searchDrift(file, 'lots')).toEqual([]);
    // Opening again finds nothing to do; ensureCollection creates no second index for a unique path.
    await s.close();
    const again = new SqliteStore({ dataDir });
    await again.ensureCollection(SPEC);
    const db2 = new Database(file, { readonly: true });
    expect(db2.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'lots' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all()).toEqual(['i:lots:name', 'i:lots:state', 'u:lots:code']);
    db2.close();
    expect(await again.count('lots', {}, { search: 'lote' })).toBe(53);
    await again.close();
    ftsIntegrity(file, 'lots');
  });
});
