/**
 * The MongoDB adapter, on the official driver. Documents are stored as {_id: id, ...doc} plus
 * hidden `_uk` (unique keys, see mongo-util.ts) and `_rev` (optimistic concurrency for patch
 * and upsert); none of them is ever returned.
 *
 * Atomicity of insertMany/upsertMany: on a replica set or mongos they run in a transaction. A
 * standalone server (and mongo-java-server, which CI uses) has no transactions: then a failing
 * batch is undone by compensation (delete what was inserted, restore what was replaced). The
 * caller still sees all or nothing, but a concurrent reader may glimpse the partial batch and a
 * crash in the middle leaves it half applied.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient, type ClientSession, type Collection, type Db } from 'mongodb';
import { applySet, keyValues, prepareDoc, prepareReplacement, project, sameJson } from './docs.js';
import { afterTerms } from './keyset.js';
import { fromMongo, idToMongo, keyName, pipelineToMongo, sortToMongo, toMongo, translateMongoError, uniqueFields } from './mongo-util.js';
import {
  StoreError, type CollectionSpec, type Doc, type Filter, type FindOptions, type JsonValue, type Pipeline,
  type SerializedDoc, type Store, type StoredDoc, type UpsertResult,
} from './types.js';
import { validateBatchSize, validateCollectionName, validateCollectionSpec, validateFilter, validatePaging, validatePath, validatePipeline, validateSort } from './validate.js';

type Raw = Record<string, unknown> & { _id: string };
const META = '__store_meta';

interface Shared {
  client: MongoClient;
  db: Db;
  /** Unique keys per collection, persisted in META so every process computes the same `_uk`. */
  keys: Map<string, string[][]>;
  /** Search paths per collection, as the last ensureCollection of this process gave them. */
  search: Map<string, string[]>;
  closed: boolean;
  uri: string;
}

export interface MongoStoreOptions {
  uri: string;
  /** Defaults to the database named in the URI, else "tracemesh". */
  dbName?: string;
}

type Undo = { coll: string; kind: 'insert'; id: string } | { coll: string; kind: 'replace'; before: Raw };

export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;

  private constructor(
    private readonly shared: Shared,
    readonly capabilities: { transactions: boolean },
    private readonly session?: ClientSession,
  ) {}

  static async connect(options: MongoStoreOptions): Promise<MongoStore> {
    const client = new MongoClient(options.uri, { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    const db = client.db(options.dbName);
    const admin = db.admin();
    // `hello` from MongoDB 4.4.2 on; older servers (and mongo-java-server) only know isMaster.
    const hello = await admin.command({ hello: 1 })
      .catch(() => admin.command({ isMaster: 1 }))
      .catch(() => ({}) as Record<string, unknown>);
    // Transactions need sessions on a replica set member or a mongos.
    const transactions = hello.logicalSessionTimeoutMinutes != null && (hello.setName != null || hello.msg === 'isdbgrid');
    return new MongoStore({ client, db, keys: new Map(), search: new Map(), closed: false, uri: options.uri }, { transactions });
  }

  /** Where another process or thread connects to reach the same database (a report export's worker). */
  connection(): Required<MongoStoreOptions> {
    return { uri: this.shared.uri, dbName: this.shared.db.databaseName };
  }

  private col(name: string): Collection<Raw> {
    if (this.shared.closed) throw new StoreError('CLOSED', 'the store is closed');
    validateCollectionName(name);
    return this.shared.db.collection<Raw>(name);
  }

  private get opts() {
    return this.session ? { session: this.session } : {};
  }

  private async keysOf(name: string): Promise<string[][]> {
    let keys = this.shared.keys.get(name);
    if (!keys) {
      const meta = await this.shared.db.collection<{ _id: string; uniqueKeys: string[][] }>(META).findOne({ _id: name }, this.opts);
      keys = meta?.uniqueKeys ?? [];
      this.shared.keys.set(name, keys);
    }
    return keys;
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const c = this.col(spec.name);
    validateCollectionSpec(spec);
    this.shared.search.set(spec.name, spec.searchPaths ?? []);
    this.shared.keys.delete(spec.name); // another process may have added keys
    const known = await this.keysOf(spec.name);
    const names = new Set(known.map(keyName));
    const added = spec.uniqueKeys.filter((k) => !names.has(keyName(k)) && !(k.length === 1 && k[0] === 'id'));
    const all = [...known, ...added];
    if (added.length > 0) {
      // Documents written before this key existed need its hidden field before the index is built.
      for await (const raw of c.find({}, this.opts)) {
        const uk = uniqueFields(fromMongo(raw), added);
        if (uk) await c.updateOne({ _id: raw._id }, { $set: Object.fromEntries(Object.entries(uk).map(([k, v]) => [`_uk.${k}`, v])) }, this.opts);
      }
    }
    try {
      for (const key of all) {
        const name = keyName(key);
        await c.createIndex({ [`_uk.${name}`]: 1 }, { unique: true, sparse: true, name: `uk:${name}`, ...this.opts });
      }
    } catch (e) {
      translateMongoError(e, spec.name);
    }
    for (const p of spec.indexes) {
      if (p !== 'id') await c.createIndex({ [p]: 1, _id: 1 }, { name: `i:${p}`, ...this.opts });
    }
    for (const key of spec.compoundIndexes ?? []) {
      await c.createIndex({ ...Object.fromEntries(key.map((p) => [p, 1])), _id: 1 }, { name: `i:${key.join('+')}`, ...this.opts });
    }
    await this.shared.db.collection<{ _id: string; uniqueKeys: string[][] }>(META)
      .updateOne({ _id: spec.name }, { $set: { uniqueKeys: all } }, { upsert: true, ...this.opts });
    this.shared.keys.set(spec.name, all);
  }

  async insert(coll: string, input: Doc): Promise<StoredDoc> {
    const doc = prepareDoc(input);
    const c = this.col(coll);
    await c.insertOne(toMongo(doc, await this.keysOf(coll), randomUUID()) as Raw, this.opts).catch((e) => translateMongoError(e, coll));
    return doc;
  }

  /** The wire protocol sends objects: the text is read back and written as insertMany would. */
  async insertManyJson(coll: string, docs: readonly SerializedDoc[]): Promise<void> {
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'insertMany needs an array');
    await this.insertMany(coll, docs.map((d) => JSON.parse(d.json) as Doc));
  }

  async insertMany(coll: string, docs: Doc[]): Promise<StoredDoc[]> {
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'insertMany needs an array');
    const prepared = docs.map(prepareDoc);
    if (prepared.length === 0) return [];
    const c = this.col(coll);
    const keys = await this.keysOf(coll);
    return this.atomically(async (tx) => {
      const raws = prepared.map((d) => toMongo(d, keys, randomUUID()) as Raw);
      try {
        await c.insertMany(raws, { ordered: true, ...tx.opts });
      } catch (e) {
        // Ordered: everything before the failing document went in; take those out again.
        const failedAt = (e as { writeErrors?: { index: number }[] }).writeErrors?.[0]?.index ?? 0;
        if (!tx.session && failedAt > 0) await c.deleteMany({ _id: { $in: raws.slice(0, failedAt).map((r) => r._id) } });
        translateMongoError(e, coll);
      }
      return prepared;
    });
  }

  async get(coll: string, id: string): Promise<StoredDoc | null> {
    if (typeof id !== 'string') return null;
    const raw = await this.col(coll).findOne({ _id: id }, this.opts);
    return raw ? fromMongo(raw) : null;
  }

  /** MongoDB has no substring index: a search is a case-insensitive $regex over the search paths. */
  private withSearch(coll: string, filter: Filter, search: string | undefined): Filter {
    if (search === undefined || search === '') return filter;
    if (typeof search !== 'string') throw new StoreError('INVALID_ARGUMENT', 'search must be a string');
    const paths = this.shared.search.get(coll);
    if (!paths?.length) throw new StoreError('INVALID_ARGUMENT', `${coll} has no search paths`);
    const regex = search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const or = { $or: paths.map((p) => ({ [p]: { $regex: regex, $options: 'i' } })) };
    return Object.keys(filter).length === 0 ? or : { $and: [filter, or] };
  }

  async find(coll: string, o: FindOptions = {}): Promise<StoredDoc[]> {
    validatePaging(o.skip, o.limit);
    if (o.sort !== undefined) validateSort(o.sort);
    validateFilter(o.filter ?? {});
    const terms = afterTerms(o);
    const filter = this.withSearch(coll, terms ? { $and: [o.filter ?? {}, { $or: terms }] } : o.filter ?? {}, o.search);
    if (o.limit === 0) return [];
    const cursor = this.col(coll).find(idToMongo(filter), { sort: sortToMongo(o.sort), skip: o.skip ?? 0, ...this.opts });
    if (o.limit !== undefined) cursor.limit(o.limit);
    return project((await cursor.toArray()).map(fromMongo), o.projection);
  }

  async count(coll: string, filter: Filter = {}, options: { search?: string } = {}): Promise<number> {
    validateFilter(filter);
    return this.col(coll).countDocuments(idToMongo(this.withSearch(coll, filter, options.search)), this.opts);
  }

  async update(coll: string, id: string, input: Doc): Promise<StoredDoc> {
    const doc = prepareReplacement(id, input);
    const c = this.col(coll);
    const raw = toMongo(doc, await this.keysOf(coll), randomUUID());
    const r = await c.replaceOne({ _id: id }, raw, this.opts).catch((e) => translateMongoError(e, coll));
    if (r.matchedCount === 0) throw new StoreError('NOT_FOUND', `no ${coll} with id ${id}`);
    return doc;
  }

  /**
   * Replaces `before` only if nobody changed it since it was read (its `_rev` is unchanged) and,
   * for a conditional patch, only if it still matches `where`: the write itself checks the
   * condition, so the compare-and-set holds even when a server answered the read with a document
   * that no longer matched it (mongo-java-server does: a find racing an update returns the
   * updated document; MongoDB never does).
   */
  private async replaceIfUnchanged(coll: string, before: Raw, next: StoredDoc, where?: Filter): Promise<boolean> {
    const raw = toMongo(next, await this.keysOf(coll), randomUUID());
    const unchanged = { _id: before._id, _rev: before._rev ?? null };
    const r = await this.col(coll).replaceOne(where ? { $and: [unchanged, idToMongo(where)] } : unchanged, raw, this.opts)
      .catch((e) => translateMongoError(e, coll));
    return r.matchedCount > 0;
  }

  async patch(coll: string, id: string, set: Record<string, JsonValue | undefined>): Promise<StoredDoc> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const before = typeof id === 'string' ? await this.col(coll).findOne({ _id: id }, this.opts) : null;
      if (!before) throw new StoreError('NOT_FOUND', `no ${coll} with id ${id}`);
      const next = applySet(fromMongo(before), set);
      if (await this.replaceIfUnchanged(coll, before, next)) return next;
    }
    throw new StoreError('STORE_FAILURE', `patch of ${coll} ${id} kept colliding with concurrent writes`);
  }

  async patchIf(coll: string, id: string, where: Filter, set: Record<string, JsonValue | undefined>): Promise<StoredDoc | null> {
    validateFilter(where);
    for (let attempt = 0; attempt < 20; attempt++) {
      // The id at the top level, where every server looks it up by its index (not inside an $and).
      const filter = 'id' in where ? { $and: [{ id }, where] } : { ...where, id };
      const before = typeof id === 'string' ? await this.col(coll).findOne(idToMongo(filter), this.opts) : null;
      if (!before) return null;
      // The write names the revision read: a writer in between makes it miss, and the condition is checked again.
      const next = applySet(fromMongo(before), set);
      if (await this.replaceIfUnchanged(coll, before, next, where)) return next;
    }
    throw new StoreError('STORE_FAILURE', `conditional patch of ${coll} ${id} kept colliding with concurrent writes`);
  }

  async delete(coll: string, id: string): Promise<boolean> {
    if (typeof id !== 'string') return false;
    return (await this.col(coll).deleteOne({ _id: id }, this.opts)).deletedCount > 0;
  }

  async upsertMany(coll: string, keyPaths: string[], docs: Doc[]): Promise<UpsertResult> {
    if (!Array.isArray(keyPaths) || keyPaths.length === 0) throw new StoreError('INVALID_ARGUMENT', 'upsertMany needs key paths');
    keyPaths.forEach((p) => validatePath(p, 'INVALID_ARGUMENT'));
    if (!Array.isArray(docs)) throw new StoreError('INVALID_ARGUMENT', 'upsertMany needs an array');
    docs.forEach((d) => keyValues(d, keyPaths)); // refuse a bad batch before writing anything
    return this.atomically(async (tx, undo) => {
      const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
      const c = tx.col(coll);
      // When the key is a declared unique key, look it up through its hidden field: that index
      // exists everywhere (mongo-java-server ignores the compound indexes on plain paths).
      const unique = (await tx.keysOf(coll)).find((k) => k.length === keyPaths.length && k.every((p, i) => p === keyPaths[i]));
      for (const input of docs) {
        const values = keyValues(input, keyPaths);
        const filter = unique
          ? { [`_uk.${keyName(unique)}`]: JSON.stringify(values) }
          : idToMongo(Object.fromEntries(keyPaths.map((p, i) => [p, values[i]])));
        for (let attempt = 0; ; attempt++) {
          // A unique key matches at most one document, so no sort: mongo-java-server sorts the whole
          // collection before it filters. Otherwise the lowest id wins, as on SQLite.
          const before = unique
            ? await c.findOne(filter, tx.opts)
            : await c.find(filter, { sort: { _id: 1 }, limit: 1, ...tx.opts }).next();
          if (!before) {
            const doc = await tx.insert(coll, input);
            undo.push({ coll, kind: 'insert', id: doc.id });
            result.inserted++;
            break;
          }
          const next = prepareReplacement(before._id, input);
          if (sameJson(fromMongo(before), next)) {
            result.unchanged++;
            break;
          }
          if (await tx.replaceIfUnchanged(coll, before, next)) {
            undo.push({ coll, kind: 'replace', before });
            result.updated++;
            break;
          }
          if (attempt > 20) throw new StoreError('STORE_FAILURE', 'upsert kept colliding with concurrent writes');
        }
      }
      return result;
    });
  }

  /**
   * Runs a multi-document write all-or-nothing: in a transaction when the server has them (or
   * one is already open), otherwise undoing the recorded steps when it fails.
   */
  private async atomically<T>(fn: (tx: MongoStore, undo: Undo[]) => Promise<T>): Promise<T> {
    if (this.session) return fn(this, []);
    if (this.capabilities.transactions) return this.transaction((tx) => fn(tx as MongoStore, []));
    const undo: Undo[] = [];
    try {
      return await fn(this, undo);
    } catch (e) {
      for (const step of undo.reverse()) {
        const c = this.col(step.coll);
        if (step.kind === 'insert') await c.deleteOne({ _id: step.id });
        else await c.replaceOne({ _id: step.before._id }, step.before);
      }
      throw e;
    }
  }

  async aggregate(coll: string, pipeline: Pipeline): Promise<Doc[]> {
    validatePipeline(pipeline);
    return (await this.col(coll).aggregate(pipelineToMongo(pipeline), this.opts).toArray()) as Doc[];
  }

  async *aggregateCursor(coll: string, pipeline: Pipeline, options: { batchSize?: number } = {}): AsyncGenerator<Doc[]> {
    validatePipeline(pipeline);
    const size = validateBatchSize(options.batchSize);
    const cursor = this.col(coll).aggregate(pipelineToMongo(pipeline), { ...this.opts, batchSize: size, allowDiskUse: true });
    try {
      let batch: Doc[] = [];
      for await (const doc of cursor) {
        batch.push(doc as Doc);
        if (batch.length >= size) { yield batch; batch = []; }
      }
      if (batch.length) yield batch;
    } finally {
      await cursor.close();
    }
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (!this.capabilities.transactions) {
      throw new StoreError('UNSUPPORTED', 'transactions need a MongoDB replica set or mongos');
    }
    if (this.session) return fn(this); // already inside one: MongoDB has no nested transactions
    const session = this.shared.client.startSession();
    try {
      // withTransaction retries fn on transient errors, so fn may run more than once.
      return await session.withTransaction(() => fn(new MongoStore(this.shared, this.capabilities, session)));
    } finally {
      await session.endSession();
    }
  }

  async close(): Promise<void> {
    if (this.session) throw new StoreError('UNSUPPORTED', 'close the store, not the transaction');
    if (this.shared.closed) return;
    this.shared.closed = true;
    await this.shared.client.close();
  }
}
