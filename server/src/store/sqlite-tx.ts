/** The embedded store as seen inside transaction(); split from sqlite.ts to keep modules small. */
import type { SqliteStore } from './sqlite.js';
import { StoreError, type CollectionSpec, type Doc, type Filter, type FindOptions, type JsonValue, type Pipeline, type SerializedDoc, type Store } from './types.js';

/** The store as seen inside transaction(): same operations, without waiting for the lock it holds. */
export class SqliteTxView implements Store {
  readonly kind = 'embedded' as const;
  readonly capabilities = { transactions: true };
  private ended = false;
  constructor(private readonly s: SqliteStore) {}
  end(): void { this.ended = true; }
  private async go<T>(f: () => T): Promise<T> {
    if (this.ended) throw new StoreError('CLOSED', 'the transaction has ended');
    return f();
  }
  ensureCollection(spec: CollectionSpec) { return this.go(() => this.s.ensureSync(spec)); }
  insert(coll: string, doc: Doc) { return this.go(() => this.s.insertSync(coll, doc)); }
  insertMany(coll: string, docs: Doc[]) { return this.go(() => this.s.insertManySync(coll, docs)); }
  insertManyJson(coll: string, docs: readonly SerializedDoc[], arrayPaths?: Iterable<string>) { return this.go(() => this.s.insertManyJsonSync(coll, docs, arrayPaths)); }
  get(coll: string, id: string) { return this.go(() => this.s.getSync(coll, id)); }
  find(coll: string, options?: FindOptions) { return this.go(() => this.s.findSync(coll, options)); }
  count(coll: string, filter?: Filter, options?: { search?: string }) { return this.go(() => this.s.countSync(coll, filter, options)); }
  update(coll: string, id: string, doc: Doc) { return this.go(() => this.s.updateSync(coll, id, doc)); }
  patch(coll: string, id: string, set: Record<string, JsonValue | undefined>) { return this.go(() => this.s.patchSync(coll, id, set)); }
  patchIf(coll: string, id: string, where: Filter, set: Record<string, JsonValue | undefined>) { return this.go(() => this.s.patchIfSync(coll, id, where, set)); }
  delete(coll: string, id: string) { return this.go(() => this.s.deleteSync(coll, id)); }
  upsertMany(coll: string, keyPaths: string[], docs: Doc[]) { return this.go(() => this.s.upsertManySync(coll, keyPaths, docs)); }
  aggregate(coll: string, pipeline: Pipeline) { return this.go(() => this.s.aggregateSync(coll, pipeline)); }
  aggregateCursor(): AsyncIterable<never> { throw new StoreError('UNSUPPORTED', 'aggregateCursor is not available inside a transaction'); }
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.go(() => this.s.savepoint(this, fn)).then((p) => p);
  }
  async close(): Promise<void> {
    throw new StoreError('UNSUPPORTED', 'close the store, not the transaction');
  }
}
