import type { ExtensionDef, FieldDef } from '../types';
import { recordShape, type Shape } from './shape';

const scalars = (...ids: string[]): Shape => Object.fromEntries(ids.map((id) => [id, { many: false, of: 'scalar' as const }]));

/**
 * Collections a report may read that are no entity: the stock ledger the server keeps
 * (server/src/ledger/ledger.ts) and the summaries kept beside it. Lots, alerts and IBC events are entities (schemas/entities).
 */
export const REPORT_COLLECTIONS: Readonly<Record<string, Shape>> = {
  /** One row per material, batch and deposit; `id` is `material|batch|deposit`, `lastOp` the last operation applied. */
  stock_balance: scalars('id', 'material', 'batch', 'deposit', 'quantity', 'unit', 'lastOp'),
  /** Immutable signed movements; `key` is the balance's id, `operation` the transition that caused it. */
  /**
   * One row per customer: its IBC tally kept as the `ibc_event` log is written
   * (server/src/ibc/tally.ts): taken, returned, the time timed returns stayed (ms) and how many,
   * to return, mean days held (1 decimal, null with no timed return).
   */
  ibc_customer_tally: scalars('id', 'customer', 'taken', 'returned', 'returnMs', 'timedReturns', 'ibcToReturn', 'avgReturnTime', 'lastOp'),
  /** One row per batch number with stock (server/src/ledger/batchStock.ts): the balance holding most (deposit, amount, material, unit), the total over the deposits holding some and how many, the lot's dates. */
  stock_batch: scalars('id', 'batch', 'material', 'deposit', 'amount', 'quantity', 'depositCount', 'unit', 'elaborationDate', 'expirationDate'),
  stock_movement: {
    ...(scalars('id', 'key', 'material', 'batch', 'deposit', 'quantity', 'unit', 'at') as Record<string, never>),
    operation: { many: false, of: scalars('workflow', 'id', 'transition') },
  },
};

/** Paths whose value is unique among a collection's documents, besides `id`: rows keeping one are distinct by it. */
export const UNIQUE_PATHS: Readonly<Record<string, readonly string[]>> = { stock_batch: ['batch'], ibc_customer_tally: ['customer'] };

/** What a collection's records are made of, as the registry describes an entity. */
export interface EntityParts {
  fields: readonly FieldDef[];
  /** The extensions the deployment enables for it. */
  extensions: readonly ExtensionDef[];
  sync?: boolean;
}

/** The shape of a collection's documents: an entity's records or a ledger collection; undefined when it is neither. */
export function collectionShape(name: string, entity: (name: string) => EntityParts | undefined): Shape | undefined {
  const e = entity(name);
  if (e) return recordShape(e.fields, e.extensions, e.sync === true);
  return Object.hasOwn(REPORT_COLLECTIONS, name) ? REPORT_COLLECTIONS[name] : undefined;
}
