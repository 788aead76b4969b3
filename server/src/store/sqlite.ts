/**
 * The embedded store: SQLite through better-sqlite3, one table per collection holding JSON
 * documents (id TEXT PRIMARY KEY, doc TEXT), generated columns + indexes for the definitions'
 * unique keys and searched/sorted paths, filters compiled to SQL (sqlite-sql.ts), and
 * aggregation run lazily by mingo after its head (leading $match, $sort, $skip, $limit) is
 * pushed into SQL (sqlite-aggregate.ts).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applySet, keyValues, prepareDocText, prepareReplacement, project, sameJson } from './docs.js';
import { registerFunctions } from './sqlite-fns.js';
import { groupedInSql } from './sqlite-group.js';
import { PipelineStream, splitSqlHead, type ForeignReader, type SqlHead } from './sqlite-aggregate.js';
import { keyedCount, keyedDrop } from './sqlite-keyed.js';
import { afterTerms } from './keyset.js';
import { compileFilter, compileSort } from './sqlite-sql.js';
import {
  StoreError, type CollectionSpec, type Doc, type Filter, type FindOptions, type JsonValue, type Pipeline, type Projection,
  type SerializedDoc, type Store, type StoredDoc, type UpsertResult,
} from './types.js';
import { searchCondition } from './sqlite-search.js';
import { Collections, createArraysMeta, writeTo, type Coll } from './sqlite-collections.js';
import { pendingCollections, SearchCatchUp, SLICE_ROWS } from './sqlite-search-defer.js';
import { upgradeLayout } from './sqlite-layout.js';
import { PagePlanner } from './sqlite-plan.js';
import { SearchReads, type SearchPlan } from './sqlite-search-read.js';
import { GroupCommit } from './sqlite-group-commit.js';
import { SqliteTxView } from './sqlite-tx.js';
import { Checkpointer } from './sqlite-checkpoint.js';
import { validateBatchSize, validateFilter, validatePaging, validatePath, validatePipeline, validateProjection, validateSort } from './validate.js';

export interface SqliteStoreOptions {
  /** Directory holding the database file; created when missing. Default ./data. */
  dataDir?: string;
  /**
   * NORMAL (default): in WAL mode a commit is appended to the WAL with write() before it is
   * acknowledged, so it lives in the OS page cache and survives kill -9 / a crash of this process;
   * only an OS crash or power loss can lose the last commits (the database stays consistent).
   * FULL also fsyncs the WAL on every commit: survives power loss, at several times the cost per
   * autocommitted write.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Worker threads that run searches (FTS5 queries) off the event loop, each with a read-only
   * connection. Default 0: searches run on the calling thread.
   */
  searchReaders?: number;
  /**
   * A second, read-only connection to a database another store writes (an import validating on
   * a worker thread): no schema upkeep, writes fail, holdSnapshot() pins what reads see.
   */
  readOnly?: boolean;
  /** WAL checkpoints on a thread of their own (sqlite-checkpoint.ts); default true. */
  backgroundCheckpoints?: boolean;
}

/** A projection of the id alone ({id: 1}), validated as any other. */
function onlyIds(projection: Projection | undefined): boolean {
  if (!projection) return false;
  const keys = Object.keys(projection);
  if (keys.length !== 1 || keys[0] !== 'id' || ((projection.id as unknown) !== 1 && (projection.id as unknown) !== true)) return false;
  validateProjection(projection);
  return true;
}

export class SqliteStore implements Store {
  readonly kind = 'embedded' as const;
  readonly capabilities = { transactions: true };
  readonly file: string;
  readonly readOnly: boolean;
  private readonly db: Database.Database;
  private readonly collections: Collections;
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly planner: PagePlanner;
  private readonly searchReads: SearchReads;
  private readonly group: GroupCommit;
  private readonly catchUp: SearchCatchUp;
  private readonly checkpointer: Checkpointer | null = null;
  private closed = false;
  /** Statements of open cursors (aggregateCursor), ended by close(). */
  private readonly cursors = new Set<PipelineStream>();
  /** Set while transaction() runs: everything else waits, since all share one connection. */
  private txDone: Promise<void> | null = null;

  constructor(options: SqliteStoreOptions = {}) {
    const dir = options.dataDir ?? './data';
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'store.sqlite');
    this.readOnly = options.readOnly === true;
    this.db = new Database(this.file, this.readOnly ? { readonly: true, fileMustExist: true } : undefined);
    if (!this.readOnly) {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    }
    // Another process (a seed or import script) may hold the write lock for a moment.
    this.db.pragma('busy_timeout = 5000');
    // A read-only connection beside the writer (an import's validation) reads mostly by index: 8 MB.
    this.db.pragma(`cache_size = ${this.readOnly ? -8192 : -32768}`);
    registerFunctions(this.db);
    this.collections = new Collections(this.db, (sql) => this.stmt(sql));
    this.planner = new PagePlanner(this.db);
    this.searchReads = new SearchReads(this.db, (sql) => this.stmt(sql), (f) => this.run(f), { file: this.file, readers: options.searchReaders ?? 0 });
    this.group = new GroupCommit(this.db, (f) => this.run(f));
    this.catchUp = new SearchCatchUp((f) => this.run(f), (coll, n) => this.indexWaiting(coll, n), (coll) => this.collections.writes(coll), (coll) => this.searchReads.compactor.schedule(coll));
    if (this.readOnly) return;
    createArraysMeta(this.db);
    upgradeLayout(this.db);
    for (const coll of pendingCollections(this.db)) this.catchUp.schedule(coll);
    if (options.backgroundCheckpoints !== false) {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new Checkpointer(this.file, () => {
        if (!this.closed) this.db.pragma('wal_autocheckpoint = 1000');
      });
    }
  }

  /** Who copies the WAL back into the database file: the checkpoint thread, or commits (SQLite's default). */
  get checkpoints(): 'thread' | 'commits' {
    return this.db.pragma('wal_autocheckpoint', { simple: true }) === 0 ? 'thread' : 'commits';
  }

  /** Indexes up to n rows of a collection's search text that wait (sqlite-search-defer.ts); returns how many are left. */
  private indexWaiting(name: string, n: number): number {
    const c = this.collections.get(name, false);
    const search = c && this.collections.searchOf(c);
    return search?.waiting() ? this.db.transaction(() => search.catchUp(n))() : 0;
  }

  /**
   * Read-only stores: every read from now until releaseSnapshot() sees the database as it is
   * now (a WAL read transaction), whatever the writer commits meanwhile.
   */
  holdSnapshot(): void {
    if (!this.readOnly) throw new StoreError('INVALID_ARGUMENT', 'only a read-only store holds a snapshot');
    this.db.exec('BEGIN');
    this.db.prepare('SELECT count(*) FROM sqlite_schema').get(); // the snapshot starts at the first read
  }

  releaseSnapshot(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  private stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      if (this.stmts.size > 500) this.stmts.clear(); // filters vary per request; keep the cache bounded
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private check(): void {
    if (this.closed) throw new StoreError('CLOSED', 'the store is closed');
  }

  /** Runs a synchronous operation once no transaction() holds the connection. */
  private async run<T>(f: () => T): Promise<T> {
    while (this.txDone) await this.txDone;
    this.check();
    return f();
  }

  // ---- synchronous core, shared by the public methods and the transaction view ----

  ensureSync(spec: CollectionSpec): void {
    this.collections.ensure(spec);
    if ((spec.searchPaths ?? []).length > 0) this.searchReads.compactor.schedule(spec.name);
  }

  insertSync(name: string, input: Doc): StoredDoc {
    const { doc, text } = prepareDocText(input);
    const c = this.collections.get(name, true)!;
    this.db.transaction(() => {
      writeTo(c, () => {
        const rowid = Number(this.stmt(`INSERT INTO ${c.table} (id, doc) VALUES (?, ?)`).run(doc.id, text).lastInsertRowid);
        if (this.collections.searchOf(c)?.added(rowid, rowid)) this.catchUp.schedule(c.name);
      });
      this.collections.noteArrays(c, doc);
    })();
    return doc; // prepareDoc's own copy: nothing else holds it
  }

  insertManySync(name: string, docs: Doc[]): StoredDoc[] {
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'insertMany needs an array');
    const prepared = docs.map(prepareDocText);
    this.insertRows(name, prepared.map((p) => ({ id: p.doc.id, json: p.text })), (c) => {
      for (const p of prepared) this.collections.noteArrays(c, p.doc);
    });
    return prepared.map((p) => p.doc);
  }

  insertManyJsonSync(name: string, docs: readonly SerializedDoc[], arrayPaths: Iterable<string> = []): void {
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'insertMany needs an array');
    this.insertRows(name, docs, (c) => this.collections.notePaths(c, arrayPaths));
  }

  /** The rows in one transaction, with what the caller notes of them (their arrays) in it too. */
  private insertRows(name: string, rows: readonly SerializedDoc[], note: (c: Coll) => void): void {
    const c = this.collections.get(name, true)!;
    const ins = this.stmt(`INSERT INTO ${c.table} (id, doc) VALUES (?, ?)`);
    this.db.transaction(() => {
      let first = 0;
      let last = 0;
      for (const { id, json } of rows) {
        writeTo(c, () => { last = Number(ins.run(id, json).lastInsertRowid); });
        first ||= last;
      }
      note(c);
      // In this transaction nothing else inserts: the rows from first to last are these, and
      // one statement indexes them all (sqlite-search.ts).
      if (first && this.collections.searchOf(c)?.added(first, last)) this.catchUp.schedule(c.name);
    })();
  }

  getSync(name: string, id: string): StoredDoc | null {
    const c = this.collections.get(name, false);
    if (!c || typeof id !== 'string') return null;
    const text = this.stmt(`SELECT doc FROM ${c.table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as StoredDoc);
  }

  findSync(name: string, o: FindOptions = {}): StoredDoc[] {
    validatePaging(o.skip, o.limit);
    if (o.sort !== undefined) validateSort(o.sort);
    validateFilter(o.filter ?? {});
    const terms = afterTerms(o);
    const c = this.collections.get(name, false);
    if (!c || o.limit === 0) return [];
    // Ids alone (a scan for what is missing elsewhere) are read from the id column: no
    // document is read or parsed.
    const idsOnly = onlyIds(o.projection);
    if (terms) return idsOnly ? this.findAfter(c, o, terms, true) : project(this.findAfter(c, o, terms, false), o.projection);
    const plan = this.searchPlan(c, o);
    const page = plan && this.searchReads.pageSync(c, plan, o);
    if (page) return project(page, o.projection);
    const q = this.pageSelect(c, o, true);
    if (idsOnly) return (this.stmt(q.sql.replace(/^SELECT doc /, 'SELECT id ')).pluck().all(...q.params) as string[]).map((id) => ({ id }) as StoredDoc);
    const rows = this.stmt(q.sql).pluck().all(...q.params) as string[];
    return project(rows.map((r) => JSON.parse(r) as StoredDoc), o.projection);
  }

  /**
   * The SELECT of a page: filter, sort (ties by id ascending), skip and limit. Unordered (an
   * aggregation with no $sort at its head), rows come in whatever order SQLite reads them.
   */
  private pageSelect(c: Coll, o: FindOptions, ordered: boolean): { sql: string; params: unknown[] } {
    const window = o.limit === undefined ? undefined : o.limit + (o.skip ?? 0);
    // With a search the FTS index narrows first; the planner only weighs filter indexes against the sort's.
    const filter = o.search || !ordered ? compileFilter(c.env, o.filter) : this.planner.where(c, o.filter, o.sort, window);
    const w = this.withSearch(c, filter, o.search);
    const order = ordered ? ` ORDER BY ${compileSort(c.env, o.sort)}` : '';
    // No LIMIT unless there is one: with any LIMIT (even -1) SQLite sorts into a bounded tree,
    // several times slower than its sorter for a whole sorted read (an export).
    if (o.limit === undefined && !o.skip) return { sql: `SELECT doc FROM ${c.table} WHERE ${w.sql}${order}`, params: w.params };
    return { sql: `SELECT doc FROM ${c.table} WHERE ${w.sql}${order} LIMIT ? OFFSET ?`, params: [...w.params, o.limit ?? -1, o.skip ?? 0] };
  }

  /**
   * A keyset page (keyset.ts): its terms in order, each entering the sort key's (key, id) index
   * at the cursor, until the page is full. The caller's filter is compiled without index use so
   * that SQLite walks that index instead of sorting every match of a filter index on each page.
   */
  private findAfter(c: Coll, o: FindOptions, terms: Filter[], idsOnly: boolean): StoredDoc[] {
    const order = compileSort(c.env, o.sort);
    const filter = compileFilter(c.env, o.filter, { noIndex: true });
    const out: StoredDoc[] = [];
    for (const term of terms) {
      const left = o.limit === undefined ? -1 : o.limit - out.length;
      if (left === 0) break;
      const t = compileFilter(c.env, term);
      const w = this.withSearch(c, { sql: `(${filter.sql}) AND (${t.sql})`, params: [...filter.params, ...t.params] }, o.search);
      const rows = this.stmt(`SELECT ${idsOnly ? 'id' : 'doc'} FROM ${c.table} WHERE ${w.sql} ORDER BY ${order} LIMIT ?`).pluck().all(...w.params, left) as string[];
      for (const r of rows) out.push(idsOnly ? ({ id: r } as StoredDoc) : (JSON.parse(r) as StoredDoc));
    }
    return out;
  }

  /** ANDs a search condition onto a compiled filter. */
  private withSearch(c: Coll, w: { sql: string; params: unknown[] }, search: string | undefined): { sql: string; params: unknown[] } {
    if (search === undefined || search === '') return w;
    if (typeof search !== 'string') throw new StoreError('INVALID_ARGUMENT', 'search must be a string');
    if (!c.searchable) throw new StoreError('INVALID_ARGUMENT', `${c.name} has no search paths`);
    // Rows of a bulk insert whose text waits are indexed first: a search never misses one.
    if (!this.readOnly) this.indexWaiting(c.name, Infinity);
    const s = searchCondition(c.name, search);
    return { sql: `(${w.sql}) AND ${s.sql}`, params: [...w.params, s.param] };
  }

  private searchPlan(c: Coll, o: FindOptions): SearchPlan | null {
    if (!o.search) return null;
    return this.searchReads.plan(c, this.withSearch(c, compileFilter(c.env, o.filter), o.search), compileSort(c.env, o.sort));
  }

  countSync(name: string, filter?: Filter, options: { search?: string } = {}): number {
    validateFilter(filter ?? {});
    const c = this.collections.get(name, false);
    if (!c) return 0;
    const w = this.withSearch(c, compileFilter(c.env, filter), options.search);
    const run = () => this.stmt(`SELECT count(*) FROM ${c.table} WHERE ${w.sql}`).pluck().get(...w.params) as number;
    // Counts are cached like searches: a list asks for the same total on every page.
    return this.searchReads.count(c, w, run);
  }

  /** Replaces a document; the caller runs it in a transaction. */
  private replace(c: Coll, doc: StoredDoc): boolean {
    let changes = 0;
    const search = this.collections.searchOf(c);
    writeTo(c, () => {
      if (!search) {
        changes = this.stmt(`UPDATE ${c.table} SET doc = ? WHERE id = ?`).run(JSON.stringify(doc), doc.id).changes;
        return;
      }
      const rowid = this.stmt(`SELECT rowid FROM ${c.table} WHERE id = ?`).pluck().get(doc.id) as number | undefined;
      if (rowid === undefined) return;
      changes = this.stmt(`UPDATE ${c.table} SET doc = ? WHERE rowid = ?`).run(JSON.stringify(doc), rowid).changes;
      search.changed(rowid);
    });
    if (changes > 0) this.collections.noteArrays(c, doc);
    return changes > 0;
  }

  updateSync(name: string, id: string, input: Doc): StoredDoc {
    const doc = prepareReplacement(id, input);
    const c = this.collections.get(name, false);
    const ok = c ? this.db.transaction(() => this.replace(c, doc))() : false;
    if (!ok) throw new StoreError('NOT_FOUND', `no ${name} with id ${id}`);
    return doc;
  }

  patchSync(name: string, id: string, set: Record<string, JsonValue | undefined>): StoredDoc {
    return this.db.transaction(() => {
      const current = this.getSync(name, id);
      if (!current) throw new StoreError('NOT_FOUND', `no ${name} with id ${id}`);
      const next = applySet(current, set);
      this.replace(this.collections.get(name, false)!, next);
      return next;
    })();
  }

  patchIfSync(name: string, id: string, where: Filter, set: Record<string, JsonValue | undefined>): StoredDoc | null {
    validateFilter(where);
    const c = this.collections.get(name, false);
    if (!c || typeof id !== 'string') return null;
    const w = compileFilter(c.env, where);
    return this.db.transaction(() => {
      const matches = this.stmt(`SELECT 1 FROM ${c.table} WHERE id = ? AND (${w.sql})`).pluck().get(id, ...w.params);
      return matches ? this.patchSync(name, id, set) : null;
    })();
  }

  deleteSync(name: string, id: string): boolean {
    const c = this.collections.get(name, false);
    if (!c || typeof id !== 'string') return false;
    c.writes++;
    const search = this.collections.searchOf(c);
    if (!search) return this.stmt(`DELETE FROM ${c.table} WHERE id = ?`).run(id).changes > 0;
    return this.db.transaction(() => {
      const rowid = this.stmt(`SELECT rowid FROM ${c.table} WHERE id = ?`).pluck().get(id) as number | undefined;
      if (rowid === undefined) return false;
      this.stmt(`DELETE FROM ${c.table} WHERE rowid = ?`).run(rowid);
      search.removed(rowid);
      return true;
    })();
  }

  upsertManySync(name: string, keyPaths: string[], docs: Doc[]): UpsertResult {
    if (!Array.isArray(keyPaths) || keyPaths.length === 0) throw new StoreError('INVALID_ARGUMENT', 'upsertMany needs key paths');
    keyPaths.forEach((p) => validatePath(p, 'INVALID_ARGUMENT'));
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'upsertMany needs an array');
    const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
    const c = this.collections.get(name, true)!;
    this.db.transaction(() => {
      for (const input of docs) {
        const values = keyValues(input, keyPaths);
        const w = compileFilter(c.env, Object.fromEntries(keyPaths.map((p, i) => [p, values[i]])));
        const text = this.stmt(`SELECT doc FROM ${c.table} WHERE ${w.sql} ORDER BY id LIMIT 1`).pluck().get(...w.params) as string | undefined;
        if (text === undefined) {
          this.insertSync(name, input);
          result.inserted++;
          continue;
        }
        const existing = JSON.parse(text) as StoredDoc;
        const next = prepareReplacement(existing.id, input);
        if (sameJson(existing, next)) {
          result.unchanged++;
        } else {
          this.replace(c, next);
          result.updated++;
        }
      }
    })();
    return result;
  }

  aggregateSync(name: string, pipeline: Pipeline): Doc[] {
    const stream = this.openPipeline(name, pipeline, false);
    try {
      return stream.take(Infinity);
    } finally {
      stream.close(); // mingo may stop early ($limit) or throw; an open statement blocks writes
    }
  }

  /**
   * A pipeline's results as a lazy stream (sqlite-aggregate.ts): its head in SQL, the rest in
   * mingo. `own`: the statement stays open across awaits (a cursor), so it is prepared for this
   * stream alone; a cached one could be asked to run again while it iterates. A cursor's rows
   * are handed out as the pipeline made them, objects shared between them (see types.ts).
   */
  private openPipeline(name: string, pipeline: Pipeline, own: boolean): PipelineStream {
    validatePipeline(pipeline);
    const head = splitSqlHead(pipeline);
    const whole = new Map<string, Doc[]>();
    const foreign: ForeignReader = {
      matching: (from, field, keys) => this.findSync(from, { filter: { [field]: { $in: keys } } as Filter }),
      all: (from) => {
        let docs = whole.get(from);
        if (!docs) whole.set(from, (docs = this.findSync(from)));
        return docs;
      },
    };
    const c = this.collections.get(name, false);
    if (!c || head.limit === 0) return new PipelineStream(head.rest, null, foreign, own);
    // A count that depends on join keys alone: the keys grouped in SQL, the stages run once a key (sqlite-keyed.ts).
    const count = head.skip === 0 && head.limit === undefined ? keyedCount(head.rest) : undefined;
    const keys = count && groupedInSql((sql) => this.stmt(sql), c, { ...head, sort: undefined, rest: [count.group] });
    if (count && keys) return new PipelineStream(count.rest, keys.map(count.keyDoc)[Symbol.iterator](), foreign, own, true);
    // A $group SQL answers from key columns alone (sqlite-group.ts): its groups go on through the rest.
    const groups = groupedInSql((sql) => this.stmt(sql), c, head);
    if (groups) return new PipelineStream(head.rest.slice(1), groups[Symbol.iterator](), foreign, own, true);
    const q = this.pageSelect(c, { ...head, filter: this.keyedFilter(c, head, foreign) }, head.sort !== undefined);
    const stmt = own ? this.db.prepare(q.sql) : this.stmt(q.sql);
    return new PipelineStream(head.rest, stmt.pluck().iterate(...q.params), foreign, own);
  }

  /**
   * The head's filter, and the documents whose join key makes no row left out (sqlite-keyed.ts):
   * only for a pipeline read whole, as a page cut in SQL counts documents, not rows; and only
   * without a filter, where the keys' group reads their index alone (with one, it read each row's
   * JSON for the filter's columns, and cost more than the documents it saved).
   */
  private keyedFilter(c: Coll, head: SqlHead, foreign: ForeignReader): Filter | undefined {
    const whole = head.skip === 0 && head.limit === undefined && Object.keys(head.filter ?? {}).length === 0;
    const drop = whole ? keyedDrop(head.rest) : undefined;
    const groups = drop && groupedInSql((sql) => this.stmt(sql), c, { ...head, sort: undefined, rest: [drop.group] }, drop.maxKeys + 1);
    const keyDocs = groups && drop.keyDocs(groups);
    if (!keyDocs) return head.filter;
    const rows = new PipelineStream(drop.stages, keyDocs[Symbol.iterator](), foreign, true, true).take(Infinity);
    const none = drop.filter(groups, new Set(rows.map((r) => r[drop.tag])));
    return none ? (head.filter ? { $and: [head.filter, none] } : none) : head.filter;
  }

  // ---- the asynchronous Store interface ----

  ensureCollection(spec: CollectionSpec) { return this.run(() => this.ensureSync(spec)); }
  insert(coll: string, doc: Doc) { return this.group.add(() => this.insertSync(coll, doc)); }
  insertMany(coll: string, docs: Doc[]) { return this.run(() => this.insertManySync(coll, docs)); }
  insertManyJson(coll: string, docs: readonly SerializedDoc[], arrayPaths?: Iterable<string>) { return this.run(() => this.insertManyJsonSync(coll, docs, arrayPaths)); }
  get(coll: string, id: string) { return this.run(() => this.getSync(coll, id)); }
  async find(coll: string, options?: FindOptions): Promise<StoredDoc[]> {
    if (options?.search) await this.caughtUp(coll);
    if (options?.search && this.searchReads.threaded && options.after === undefined) {
      const page = await this.findThreaded(coll, options);
      if (page) return page;
    }
    return this.run(() => this.findSync(coll, options));
  }

  /** A searched find whose matches a reader thread computes; null when this thread must answer. */
  private async findThreaded(name: string, o: FindOptions): Promise<StoredDoc[] | null> {
    const free = async () => {
      while (this.txDone) await this.txDone;
      this.check();
    };
    await free();
    validatePaging(o.skip, o.limit);
    if (o.sort !== undefined) validateSort(o.sort);
    validateFilter(o.filter ?? {});
    const c = this.collections.get(name, false);
    const plan = c && o.limit !== 0 ? this.searchPlan(c, o) : null;
    const page = plan && (await this.searchReads.pageThreaded(c!, plan, o, free));
    return page ? project(page, o.projection) : null;
  }
  async count(coll: string, filter?: Filter, options?: { search?: string }) {
    if (options?.search) await this.caughtUp(coll);
    return this.run(() => this.countSync(coll, filter, options));
  }

  /** Indexes the rows a search must see, a slice at a time, other requests served in between. */
  private async caughtUp(coll: string): Promise<void> {
    if (this.readOnly || typeof coll !== 'string') return;
    while ((await this.run(() => this.indexWaiting(coll, SLICE_ROWS))) > 0) await new Promise((r) => setImmediate(r));
  }
  update(coll: string, id: string, doc: Doc) { return this.group.add(() => this.updateSync(coll, id, doc)); }
  patch(coll: string, id: string, set: Record<string, JsonValue | undefined>) { return this.group.add(() => this.patchSync(coll, id, set)); }
  patchIf(coll: string, id: string, where: Filter, set: Record<string, JsonValue | undefined>) { return this.group.add(() => this.patchIfSync(coll, id, where, set)); }
  delete(coll: string, id: string) { return this.group.add(() => this.deleteSync(coll, id)); }
  upsertMany(coll: string, keyPaths: string[], docs: Doc[]) { return this.run(() => this.upsertManySync(coll, keyPaths, docs)); }
  aggregate(coll: string, pipeline: Pipeline) { return this.run(() => this.aggregateSync(coll, pipeline)); }
  /**
   * Streams the pipeline: one statement iterated a batch at a time, mingo pulling from it. While
   * it is open the connection serves reads but refuses writes (see types.ts); ending the
   * iteration early (break, return(), a throw) ends the statement.
   */
  async *aggregateCursor(coll: string, pipeline: Pipeline, options: { batchSize?: number } = {}): AsyncGenerator<Doc[]> {
    const size = validateBatchSize(options.batchSize);
    const stream = await this.run(() => this.openPipeline(coll, pipeline, true));
    this.cursors.add(stream);
    try {
      for (;;) {
        // A short batch is the end; after a full one, the next run() fails if the store closed meanwhile.
        const batch = await this.run(() => stream.take(size));
        if (batch.length > 0) yield batch;
        if (batch.length < size) return;
      }
    } finally {
      stream.close();
      this.cursors.delete(stream);
    }
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    while (this.txDone) await this.txDone;
    this.check();
    let release!: () => void;
    this.txDone = new Promise<void>((r) => (release = r));
    const view = new SqliteTxView(this);
    try {
      this.db.exec('BEGIN IMMEDIATE');
      const result = await fn(view);
      this.db.exec('COMMIT');
      return result;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    } finally {
      view.end();
      this.txDone = null;
      release();
    }
  }

  /** For nested transaction() calls on the view: a savepoint gives the same all-or-nothing. */
  async savepoint<T>(view: Store, fn: (tx: Store) => Promise<T>): Promise<T> {
    const name = `sp${Math.random().toString(36).slice(2)}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const r = await fn(view);
      this.db.exec(`RELEASE ${name}`);
      return r;
    } catch (e) {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
      throw e;
    }
  }

  /** The remembered searches and counts (the cache manager lists and clears them). */
  get searchCache(): { readonly size: number; clear(): void } {
    return this.searchReads.cache;
  }

  async close(): Promise<void> {
    while (this.txDone) await this.txDone;
    if (this.closed) return;
    this.closed = true;
    for (const c of this.cursors) c.close();
    this.catchUp.stop();
    await this.searchReads.close();
    this.releaseSnapshot();
    await this.checkpointer?.stop();
    // Fold the WAL back into the main file so a copied data directory is self-contained.
    if (!this.readOnly) this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}
