/**
 * What the import's "at most 5x papaparse's parse-only time" target leaves a row, against what
 * storing a row costs at all on this machine, in one run (issue 7):
 *
 *   npx tsx scripts/bench/import-floor.ts [rows]     # default 200,000
 *
 * It writes the material file scripts/bench/import.ts imports, times papaparse reading it, then
 * writes documents of the same shape (the file's rows with the metadata an import adds) in
 * transactions of 1,000, as the import does, three ways:
 *   - into a table holding only an id and the JSON text: SQLite storing the row, nothing else;
 *   - into the material table as the embedded store lays it out (its 4 unique keys, 6 indexed
 *     paths and id), by a prepared statement: no validation, no JavaScript of ours;
 *   - through the store's insertMany (checks the document, copies it, notes its arrays).
 * Each is printed per row and as a multiple of the parse time per row: a write that alone is
 * over 5x leaves nothing for reading the upload, validating and matching the rows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { prepareStore } from '../../server/src/boot';
import { requireDefinitions } from '../../definitions/read';
import { newId } from '../../server/src/store/ids';
import { SqliteStore } from '../../server/src/store/sqlite';
import type { Doc } from '../../server/src/store/types';
import { writeMaterialCsv } from '../../server/src/imports/testing/materials';
import { parseOnly } from './lib';

const ROWS = Number(process.argv[2] ?? 200_000);
const TX = 1000;

/** The rows as documents: each cell at its column's path, yes/no as booleans, digits as numbers. */
function documents(csv: string): Doc[] {
  const [header, ...rows] = Papa.parse<string[]>(csv.trimEnd()).data;
  const now = new Date().toISOString();
  return rows.map((cells) => {
    const doc: Record<string, unknown> = { id: newId(), createdAt: now, updatedAt: now, createdBy: 'bench', updatedBy: 'bench' };
    header.forEach((path, i) => {
      const segs = path.split('.');
      let cur = doc;
      for (const s of segs.slice(0, -1)) cur = (cur[s] ??= {}) as Record<string, unknown>;
      const cell = cells[i];
      cur[segs[segs.length - 1]] = cell === 'yes' ? true : cell === 'no' ? false : /^\d$/.test(cell) ? Number(cell) : cell;
    });
    return doc as Doc;
  });
}

/** µs per row of writing `texts` through `insert`, a transaction per TX rows. */
function timeRaw(db: Database.Database, table: string, texts: readonly (readonly [string, string])[]): number {
  const ins = db.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?)`);
  const tx = db.transaction((from: number) => {
    for (let j = from; j < Math.min(texts.length, from + TX); j++) ins.run(texts[j][0], texts[j][1]);
  });
  const t = performance.now();
  for (let i = 0; i < texts.length; i += TX) tx(i);
  return ((performance.now() - t) * 1000) / texts.length;
}

const dir = mkdtempSync(join(tmpdir(), 'tm-bench-floor-'));
try {
  const csv = join(dir, 'materials.csv');
  await writeMaterialCsv(csv, ROWS);
  const parse = await parseOnly(csv);
  const parseUs = (parse.ms * 1000) / ROWS;
  const docs = documents(readFileSync(csv, 'utf8'));
  const texts = docs.map((d) => [d.id as string, JSON.stringify(d)] as const);

  const dataDir = join(dir, 'data');
  const store = new SqliteStore({ dataDir });
  await prepareStore(requireDefinitions(process.cwd()), store);
  let t = performance.now();
  for (let i = 0; i < docs.length; i += TX) await store.insertMany('material', docs.slice(i, i + TX));
  const storeUs = ((performance.now() - t) * 1000) / ROWS;
  await store.close();

  const db = new Database(join(dataDir, 'store.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -32768'); // as the store sets them
  db.exec('DELETE FROM material');
  const layoutUs = timeRaw(db, 'material', texts);
  db.exec('CREATE TABLE plain (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)');
  const plainUs = timeRaw(db, 'plain', texts);
  db.close();

  const line = (label: string, us: number) => console.log(`  ${label.padEnd(58)} ${us.toFixed(1).padStart(6)} µs/row ${(us / parseUs).toFixed(1).padStart(6)}x parse`);
  console.log(`import floor: ${ROWS.toLocaleString('en')} material rows, ${texts[0][1].length}-byte documents, node ${process.version}, sqlite ${new Database(':memory:').prepare('select sqlite_version()').pluck().get() as string}`);
  line('papaparse, parse only (the yardstick)', parseUs);
  line('5x parse only: what the target leaves for everything', 5 * parseUs);
  line('write: id + JSON text, no index (SQLite storing a row)', plainUs);
  line('write: the store\'s material table, 11 B-trees, raw SQL', layoutUs);
  line('write: store.insertMany (checks, copies, notes arrays)', storeUs);
  console.log(`  a 1,000,000-row import cannot take less than ${(layoutUs).toFixed(0)} s for its writes alone (5x parse: ${(5 * parseUs).toFixed(1)} s)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
