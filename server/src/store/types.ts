/**
 * The one storage interface the server talks to. Two adapters implement it: the embedded
 * SQLite store (sqlite.ts) and MongoDB (mongo.ts); contract.ts proves they behave alike.
 */

/** Plain JSON values only: the embedded store keeps JSON text, so Dates etc. would not round-trip. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Doc = { [key: string]: JsonValue };
/** A stored document: always has the product's system id. */
export type StoredDoc = Doc & { id: string };

/** A document already checked (validateDocument) and serialised: `json` is its JSON text, `id` the id it carries. */
export interface SerializedDoc {
  id: string;
  json: string;
}

/** A MongoDB-style filter restricted to the subset validateFilter accepts. */
export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;
export type Pipeline = Record<string, unknown>[];

export interface CollectionSpec {
  name: string;
  /** Each entry is one unique key: a list of dotted field paths (compound when more than one). */
  uniqueKeys: string[][];
  /** Dotted paths that are searched or sorted. */
  indexes: string[];
  /**
   * Paths read together, each list one index in that order: an equality on the first and a
   * range on the next (open jobs past their deadline) are then counted in the index alone.
   */
  compoundIndexes?: string[][];
  /** Text paths the `search` option looks in (case-insensitive substring). */
  searchPaths?: string[];
}

export interface FindOptions {
  filter?: Filter;
  /**
   * Ties are always broken by `id` ascending, so paging is stable on both stores.
   * Sorting on fields holding arrays or objects is not supported (order unspecified).
   */
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /**
   * Keyset paging: only the documents that sort after this one (the last of the previous page,
   * with its id and sorted fields). A page then costs the same wherever it lies, where `skip`
   * walks every row before it. Not combined with `skip`; sorted fields must hold scalars.
   */
  after?: Doc;
  /** Inclusion or exclusion of dotted paths; `id` is included unless excluded explicitly. */
  projection?: Projection;
  /**
   * A case-insensitive substring looked for in the collection's searchPaths (ANDed with the
   * filter). The embedded store answers it from a trigram index, MongoDB with $regex.
   */
  search?: string;
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface StoreCapabilities {
  /** True when transaction() is available (always on SQLite; on MongoDB only on a replica set or mongos). */
  transactions: boolean;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  readonly capabilities: StoreCapabilities;

  /** Creates the collection and its indexes; idempotent; call at start for every collection. */
  ensureCollection(spec: CollectionSpec): Promise<void>;

  /** Returns the stored document (with `id` generated when absent). */
  insert(coll: string, doc: Doc): Promise<StoredDoc>;
  /** All or nothing: on any error (for example a duplicate key) nothing of the batch is written. */
  insertMany(coll: string, docs: Doc[]): Promise<StoredDoc[]>;
  /**
   * insertMany for a caller that has the documents' text already (an import stages its rows as
   * JSON): nothing is checked, copied or serialised again. `arrayPaths`: every path at which one
   * of them holds an array (docs.ts arrayPaths), which the embedded store's queries must know.
   */
  insertManyJson(coll: string, docs: readonly SerializedDoc[], arrayPaths?: Iterable<string>): Promise<void>;
  get(coll: string, id: string): Promise<StoredDoc | null>;
  find(coll: string, options?: FindOptions): Promise<StoredDoc[]>;
  count(coll: string, filter?: Filter, options?: { search?: string }): Promise<number>;
  /** Replaces the whole document; throws NOT_FOUND when `id` does not exist. */
  update(coll: string, id: string, doc: Doc): Promise<StoredDoc>;
  /** Sets dotted paths (a value of `undefined` removes the field); throws NOT_FOUND. */
  patch(coll: string, id: string, set: Record<string, JsonValue | undefined>): Promise<StoredDoc>;
  /**
   * patch, only while the document still matches `where` (checked and written as one step: a
   * compare-and-set that concurrent writers and other processes on the same database cannot
   * interleave with). Returns the patched document, or null when it is missing or no longer matches.
   */
  patchIf(coll: string, id: string, where: Filter, set: Record<string, JsonValue | undefined>): Promise<StoredDoc | null>;
  /** Returns false when there was nothing to delete. */
  delete(coll: string, id: string): Promise<boolean>;
  /**
   * Matches each doc to an existing one by the values at keyPaths (all must be present scalars):
   * inserts when none, replaces when different (keeping the existing id), counts it unchanged
   * otherwise. All or nothing, like insertMany.
   */
  upsertMany(coll: string, keyPaths: string[], docs: Doc[]): Promise<UpsertResult>;
  aggregate(coll: string, pipeline: Pipeline): Promise<Doc[]>;
  /**
   * The pipeline's results a batch at a time (`batchSize`, default 1,000: every batch full but
   * the last; none for no results), read from the database as they are consumed, so memory stays
   * flat whatever the size (a report's CSV export). Validation errors reject the first next().
   * The embedded store holds its connection between batches until the iteration ends or is
   * returned: reads still work on it, writes fail (and a store's close() cuts the cursor, whose
   * next batch then fails with CLOSED); use it on a store of one's own (the export worker's
   * read-only store holding a snapshot), never on the server's main store. Both stores run a
   * leading $match, then $sort, $skip, $limit, in the database when they come first; a $limit
   * later in the pipeline stops reading there. The documents of a batch are for reading: two of
   * them may share an object (a document a $lookup joined to both), so they are not to be modified.
   */
  aggregateCursor(coll: string, pipeline: Pipeline, options?: { batchSize?: number }): AsyncIterable<Doc[]>;
  /**
   * Runs fn with a store bound to one transaction: committed when fn resolves, rolled back when
   * it throws. Throws StoreError UNSUPPORTED when capabilities.transactions is false.
   * Inside fn use `tx` only: on the embedded store every other call waits for the transaction
   * to end, so awaiting the outer store from fn never returns. On MongoDB fn may be retried.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Flushes and releases the store; further calls fail. */
  close(): Promise<void>;
}

export type StoreErrorCode =
  | 'DUPLICATE_KEY'
  | 'NOT_FOUND'
  | 'INVALID_FILTER'
  | 'INVALID_PIPELINE'
  | 'INVALID_DOCUMENT'
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED'
  | 'CLOSED'
  | 'STORE_FAILURE';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** For DUPLICATE_KEY: the dotted paths of the violated unique key (['id'] for a duplicate id). */
    readonly fields: string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStoreError(e: unknown, code?: StoreErrorCode): e is StoreError {
  return e instanceof StoreError && (code === undefined || e.code === code);
}
