import type { CollectionSpec } from '../store/types';

/**
 * Stores without transactions: each transition is written here (one document, so present or
 * absent whole) before any of its effects, and deleted once all of them are written. Whatever is
 * left at start was interrupted, and is rolled forward: every write of a transition is idempotent.
 */
export const JOURNAL = 'operation_journal';
export const JOURNAL_COLLECTION: CollectionSpec = { name: JOURNAL, uniqueKeys: [], indexes: [] };
