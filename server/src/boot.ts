import { collectionSpecs, type Registry } from '../../engine/src/index';
import type { Doc, Store } from './store/types';
import { SESSION_COLLECTION } from './auth/sessions';
import { CHAIN_ENTRY_COLLECTION } from './chain/append';
import { hashPassword } from './auth/passwords';
import { superadminRecord } from './auth/superadmins';
import { ensureCustomerTallies } from './ibc/tally';
import { ensureBatchStock } from './ledger/batchStock';
import { LEDGER_COLLECTIONS } from './ledger/ledger';
import { JOURNAL_COLLECTION } from './workflows/journal';
import { syncCollections } from './sync/collections';
import { EPCIS_COLLECTIONS } from './epcis/model';
import { ensureEpcisIndex } from './epcis/indexing';

/** Collections the platform keeps besides the entities of the definitions. */
export const SYSTEM_COLLECTIONS = [
  { name: SESSION_COLLECTION, uniqueKeys: [], indexes: ['userId'] },
  { name: 'password_reset', uniqueKeys: [], indexes: ['userId', 'expiresAt'] },
  { name: 'auth_flow', uniqueKeys: [], indexes: ['expiresAt'] },
  ...LEDGER_COLLECTIONS,
  JOURNAL_COLLECTION,
  CHAIN_ENTRY_COLLECTION,
  ...syncCollections,
  ...EPCIS_COLLECTIONS,
];

export async function prepareStore(registry: Registry, store: Store): Promise<void> {
  for (const spec of collectionSpecs(registry)) await store.ensureCollection(spec);
  for (const spec of SYSTEM_COLLECTIONS) await store.ensureCollection(spec);
  // Summaries the reports read, built once on a store written before they existed.
  await ensureCustomerTallies(store);
  await ensureBatchStock(store);
  // The EPCIS API's headers and identifier rows of the events already stored (docs/epcis.md).
  await ensureEpcisIndex(store);
}

/** On an empty user collection, the first superadmin comes from ADMIN_EMAIL and ADMIN_PASSWORD. */
export async function ensureAdmin(registry: Registry, store: Store, email: string, password: string): Promise<boolean> {
  if ((await store.count('user', {})) > 0) return false;
  await store.insert('user', superadminRecord(registry, email, await hashPassword(password), 'system') as Doc);
  return true;
}
