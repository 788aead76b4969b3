import { MongoStore } from './mongo.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export * from './types.js';
export { validateFilter, validatePipeline, validateSort } from './validate.js';
export { newId } from './ids.js';

export interface OpenStoreOptions {
  /** Embedded store directory (DATA_DIR); default ./data. Ignored when mongodbUri is set. */
  dataDir?: string;
  /** MONGODB_URI: when set, the MongoDB adapter is used instead of the embedded store. */
  mongodbUri?: string;
  /** Embedded only: FULL makes commits survive power loss, not just process crashes. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Embedded only: threads that run searches off the event loop (see SqliteStoreOptions). */
  searchReaders?: number;
}

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  if (options.mongodbUri) return MongoStore.connect({ uri: options.mongodbUri });
  return new SqliteStore({ dataDir: options.dataDir ?? './data', synchronous: options.synchronous, searchReaders: options.searchReaders });
}
