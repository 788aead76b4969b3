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
  stock_movement: {
    ...(scalars('id', 'key', 'material', 'batch', 'deposit', 'quantity', 'unit', 'at') as Record<string, never>),
    operation: { many: false, of: scalars('workflow', 'id', 'transition') },
  },
};

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
