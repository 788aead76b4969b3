/**
 * A search reader thread of the embedded store (see sqlite-search-pool.ts): its own read-only
 * connection to the database file answers the sorted-matches queries the main thread sends.
 * Readers never block the writer in WAL mode and see every commit made before their query began.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { registerFunctions } from './sqlite-fns.js';

export interface SearchRequest { id: number; sql: string; params: unknown[] }
export type SearchReply = { id: number; rows: number[] } | { id: number; error: { message: string; code?: string } };

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -32768');
registerFunctions(db);
const stmts = new Map<string, Database.Statement>();

parentPort!.on('message', ({ id, sql, params }: SearchRequest) => {
  let reply: SearchReply;
  try {
    let s = stmts.get(sql);
    if (!s) {
      if (stmts.size > 500) stmts.clear();
      s = db.prepare(sql).pluck();
      stmts.set(sql, s);
    }
    reply = { id, rows: s.all(...params) as number[] };
  } catch (e) {
    const err = e as { message?: string; code?: string };
    reply = { id, error: { message: err.message ?? String(e), code: err.code } };
  }
  parentPort!.postMessage(reply);
});
