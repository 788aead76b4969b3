/**
 * The reports bench's floor: the rows a report reads, scanned with nothing around them. On the
 * embedded store a plain `SELECT doc FROM "<collection>" WHERE …` on the database file, every row
 * JSON.parse-d; on MongoDB a find() cursor over the same filter. The first-page floor is the same
 * query sorted on the report's default sort and limited to a page.
 * The conditions are the SPEC 9 rules each report keeps; the bench prints the report's own count
 * beside the floor's rows, so a definition that reads other rows shows.
 */
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { procUse } from './lib';

export interface BenchReport {
  key: string;
  kind: 'product list' | 'stock' | 'top-ten' | 'IBC history' | 'pending declaration';
  collection: string;
  /** SQL over `doc`, and the same condition as a MongoDB filter; `$nin: 'raw'` stands for the raw materials' ids. */
  where: { sql: string; mongo: Record<string, unknown> };
  /** The default sort of the report's first page (a source path), descending. */
  sortDesc: string;
  floorLabel: string;
}

const NOT_RAW_SQL = `(SELECT id FROM "material" WHERE json_extract(doc, '$.raw') = 1)`;

/** The rows each report's pipeline reads: its leading conditions, as the definitions in reports/ state them. */
export const REPORTS: BenchReport[] = [
  {
    key: 'deliveries_products_report', kind: 'product list', collection: 'delivery', sortDesc: 'sendDate',
    where: { sql: '1', mongo: {} }, floorLabel: 'every delivery',
  },
  {
    // The stored stock by batch (stock_batch) the report reads when no deposit or warehouse narrows it.
    key: 'finished_goods_stock', kind: 'stock', collection: 'stock_batch', sortDesc: 'expirationDate',
    where: { sql: `json_extract(doc, '$.material') NOT IN ${NOT_RAW_SQL}`, mongo: { material: { $nin: 'raw' } } },
    floorLabel: 'stock_batch documents of materials that are not raw',
  },
  {
    // The stored per-customer IBC tally (ibc_customer_tally) the top tens read.
    key: 'top_ten_customers_with_ibc_on_hand', kind: 'top-ten', collection: 'ibc_customer_tally', sortDesc: 'ibcToReturn',
    where: { sql: '1', mongo: {} }, floorLabel: 'every customer\'s IBC tally',
  },
  {
    key: 'ibc_return_history', kind: 'IBC history', collection: 'ibc_event', sortDesc: 'at',
    where: { sql: `json_extract(doc, '$.transition') = 'return'`, mongo: { transition: 'return' } },
    floorLabel: 'ibc_event return rows',
  },
  {
    key: 'products_pending_declaration', kind: 'pending declaration', collection: 'product_declaration', sortDesc: 'productionDate',
    where: { sql: `json_extract(doc, '$.status') = 'Declared' AND json_extract(doc, '$.sync.status') = ''`, mongo: { status: 'Declared', 'sync.status': '' } },
    floorLabel: 'declared product declarations with an empty sync status',
  },
];

/** cpuMs and diskMb: the scan's CPU time and what it read from the disk (embedded store: this process's, from /proc). */
export interface Floor { rows: number; scanMs: number; pageMs: number; cpuMs: number; diskMb: number }

export async function floorScan(r: BenchReport, on: { file: string } | { uri: string }): Promise<Floor> {
  return 'file' in on ? sqliteFloor(r, on.file) : mongoFloor(r, on.uri);
}

function sqliteFloor(r: BenchReport, file: string): Floor {
  const db = new Database(file, { readonly: true });
  try {
    const from = `SELECT doc FROM "${r.collection}" WHERE ${r.where.sql}`;
    let t = performance.now();
    const cpu = process.cpuUsage();
    const disk = procUse('self').diskMb;
    let rows = 0;
    for (const text of db.prepare(from).pluck().iterate()) {
      JSON.parse(text as string);
      rows++;
    }
    const scanMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const diskMb = procUse('self').diskMb - disk;
    t = performance.now();
    const page = db.prepare(`${from} ORDER BY json_extract(doc, '$.${r.sortDesc}') DESC, id LIMIT 20`).pluck().all() as string[];
    page.forEach((p) => JSON.parse(p));
    return { rows, scanMs, pageMs: performance.now() - t, cpuMs, diskMb };
  } finally {
    db.close();
  }
}

async function mongoFloor(r: BenchReport, uri: string): Promise<Floor> {
  const client = await new MongoClient(uri).connect();
  try {
    const db = client.db();
    const filter = { ...r.where.mongo };
    if ((filter.material as { $nin?: unknown } | undefined)?.$nin === 'raw') {
      const ids = await db.collection('material').find({ raw: true }, { projection: { _id: 1 } }).toArray();
      filter.material = { $nin: ids.map((m) => m._id) };
    }
    let t = performance.now();
    let rows = 0;
    for await (const doc of db.collection(r.collection).find(filter, { batchSize: 5000 })) if (doc) rows++;
    const scanMs = performance.now() - t;
    t = performance.now();
    await db.collection(r.collection).find(filter).sort({ [r.sortDesc]: -1, _id: 1 }).limit(20).toArray();
    // The database server does the reading: this process's CPU and disk say nothing of it.
    return { rows, scanMs, pageMs: performance.now() - t, cpuMs: NaN, diskMb: NaN };
  } finally {
    await client.close();
  }
}

/** Drops the bench's own database on the MongoDB server. */
export async function dropMongo(uri: string): Promise<void> {
  const client = await new MongoClient(uri).connect();
  try { await client.db().dropDatabase(); } finally { await client.close(); }
}
