import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { QueuedAction } from './types';

/**
 * The device's store, IndexedDB through `idb`: the action queue (by seq) and a key-value store
 * for the device id, the last seq, and the answers cached for offline use (the app's feature
 * definitions, the records each feature lists, master-data lists for pickers, IBC look-ups).
 */
export interface MobileDbSchema extends DBSchema {
  queue: { key: number; value: QueuedAction };
  kv: { key: string; value: unknown };
}

export type MobileDb = IDBPDatabase<MobileDbSchema>;

export const DB_NAME = 'tracemesh-mobile';

export function openMobileDb(name = DB_NAME): Promise<MobileDb> {
  return openDB<MobileDbSchema>(name, 1, {
    upgrade(db) {
      db.createObjectStore('queue', { keyPath: 'seq' });
      db.createObjectStore('kv');
    },
  });
}

/** A cached answer and when it was read (ms). */
export interface Cached<T> {
  at: number;
  data: T;
}

/** Cached answers, by key; the keys of the signed-in user's data start with `u:` and go on sign-out. */
export class Cache {
  constructor(private readonly db: MobileDb, private readonly now: () => number = Date.now) {}

  async get<T>(key: string): Promise<Cached<T> | undefined> {
    return (await this.db.get('kv', key)) as Cached<T> | undefined;
  }

  async set<T>(key: string, data: T): Promise<Cached<T>> {
    const entry = { at: this.now(), data };
    await this.db.put('kv', entry, key);
    return entry;
  }

  /** Forgets the user's cached answers (sign-out); the queue, device id and seq stay. */
  async clearUser(): Promise<void> {
    const tx = this.db.transaction('kv', 'readwrite');
    for (const key of await tx.store.getAllKeys()) if (key.startsWith('u:')) await tx.store.delete(key);
    await tx.done;
  }
}
