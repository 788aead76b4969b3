/**
 * The reports bench's floor: the rows a report reads, scanned with nothing around them. On the
 * embedded store a plain `SELECT doc FROM "<collection>" WHERE …` on the database file, every row
 * JSON.parse-d; on MongoDB a find() cursor over the same filter. The first-page floor is the same
 * query sorted on the report's default sort and limited to a page (a top-ten reads every row).
 * The conditions are the SPEC 9 rules each report keeps; the bench prints the report's own count
 * beside the floor's rows, so a definition that reads other rows shows.
 */
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';

export interface BenchReport {
  key: string;
  kind: 'product list' | 'stock' | 'top-ten' | 'IBC history' | 'pending declaration';
  collection: string;
  /** SQL over `doc`, and the same condition as a MongoDB filter; `formulated` stands for the formulated products' ids. */
  where: { sql: string; mongo: Record<string, unknown> };
  /** The default sort of the report's first page (a source path), descending. */
  sortDesc: string;
  /** Every row is read for the first page (it groups them). */
  grouped?: boolean;
  floorLabel: string;
}

const FORMULATED_SQL = `(SELECT id FROM "material" WHERE json_extract(doc, '$.extensions.agrochemicalMaterial.material_type') = 'formulated_product')`;

export const REPORTS: BenchReport[] = [
  {
    key: 'deliveries_products_report', kind: 'product list', collection: 'delivery', sortDesc: 'sendDate',
    where: { sql: '1', mongo: {} }, floorLabel: 'every delivery',
  },
  {
    key: 'finished_goods_stock', kind: 'stock', collection: 'stock_balance', sortDesc: 'batch',
    where: { sql: `json_extract(doc, '$.quantity') > 0 AND json_extract(doc, '$.material') IN ${FORMULATED_SQL}`, mongo: { quantity: { $gt: 0 }, material: { $in: 'formulated' } } },
    floorLabel: 'stock_balance of formulated products, quantity > 0',
  },
  {
    key: 'top_ten_customers_with_ibc_on_hand', kind: 'top-ten', collection: 'ibc_event', sortDesc: 'at', grouped: true,
    where: { sql: `json_extract(doc, '$.transition') IN ('receive', 'return')`, mongo: { transition: { $in: ['receive', 'return'] } } },
    floorLabel: 'ibc_event receive and return rows (taken, returned per customer)',
  },
  {
    key: 'ibc_return_history', kind: 'IBC history', collection: 'ibc_event', sortDesc: 'at',
    where: { sql: `json_extract(doc, '$.transition') = 'return'`, mongo: { transition: 'return' } },
    floorLabel: 'ibc_event return rows',
  },
  {
    key: 'products_pending_declaration', kind: 'pending declaration', collection: 'product_declaration', sortDesc: 'productionDate',
    where: { sql: `json_extract(doc, '$.sync.status') = ''`, mongo: { 'sync.status': '' } },
    floorLabel: 'product declarations with an empty sync status',
  },
];

export interface Floor { rows: number; scanMs: number; pageMs: number }

export async function floorScan(r: BenchReport, on: { file: string } | { uri: string }): Promise<Floor> {
  return 'file' in on ? sqliteFloor(r, on.file) : mongoFloor(r, on.uri);
}

function sqliteFloor(r: BenchReport, file: string): Floor {
  const db = new Database(file, { readonly: true });
  try {
    const from = `SELECT doc FROM "${r.collection}" WHERE ${r.where.sql}`;
    let t = performance.now();
    let rows = 0;
    for (const text of db.prepare(from).pluck().iterate()) {
      JSON.parse(text as string);
      rows++;
    }
    const scanMs = performance.now() - t;
    if (r.grouped) return { rows, scanMs, pageMs: scanMs };
    t = performance.now();
    const page = db.prepare(`${from} ORDER BY json_extract(doc, '$.${r.sortDesc}') DESC, id LIMIT 20`).pluck().all() as string[];
    page.forEach((p) => JSON.parse(p));
    return { rows, scanMs, pageMs: performance.now() - t };
  } finally {
    db.close();
  }
}

async function mongoFloor(r: BenchReport, uri: string): Promise<Floor> {
  const client = await new MongoClient(uri).connect();
  try {
    const db = client.db();
    const filter = { ...r.where.mongo };
    if ((filter.material as { $in?: unknown } | undefined)?.$in === 'formulated') {
      const ids = await db.collection('material').find({ 'extensions.agrochemicalMaterial.material_type': 'formulated_product' }, { projection: { _id: 1 } }).toArray();
      filter.material = { $in: ids.map((m) => m._id) };
    }
    let t = performance.now();
    let rows = 0;
    for await (const doc of db.collection(r.collection).find(filter, { batchSize: 5000 })) if (doc) rows++;
    const scanMs = performance.now() - t;
    if (r.grouped) return { rows, scanMs, pageMs: scanMs };
    t = performance.now();
    await db.collection(r.collection).find(filter).sort({ [r.sortDesc]: -1, _id: 1 }).limit(20).toArray();
    return { rows, scanMs, pageMs: performance.now() - t };
  } finally {
    await client.close();
  }
}

/** Drops the bench's own database on the MongoDB server. */
export async function dropMongo(uri: string): Promise<void> {
  const client = await new MongoClient(uri).connect();
  try { await client.db().dropDatabase(); } finally { await client.close(); }
}
