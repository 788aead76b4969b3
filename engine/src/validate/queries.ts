import { formatError, type ErrorCode } from '../errors';
import type { Registry } from '../registry/registry';

export interface QueryResult {
  valid: boolean;
  code?: ErrorCode;
  message?: string;
}

/**
 * Whether an entity's records are edited as master data (its routes, export, imports and
 * screens): not an operation's, which change only by its workflow's transitions.
 */
export function isMasterData(reg: Pick<Registry, 'entities'>, name: string): boolean {
  return Object.hasOwn(reg.entities, name) && reg.entities[name].kind !== 'operation';
}

/** The entities edited as master data (isMasterData). */
export function masterDataEntities(reg: Pick<Registry, 'entities'>): Registry['entities'][string][] {
  return Object.values(reg.entities).filter((e) => isMasterData(reg, e.name));
}

/** Entities records may be imported into: master data whose definition is importable (SPEC 5). */
export function importableEntities(reg: Pick<Registry, 'entities'>, kind?: 'master' | 'event'): string[] {
  return masterDataEntities(reg).filter((e) => e.importable && (kind === undefined || e.kind === kind)).map((e) => e.name);
}

const ok: QueryResult = { valid: true };
const fail = (code: ErrorCode): QueryResult => ({ valid: false, code, message: formatError(code) });

function field(query: unknown, name: string): unknown {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
}

/**
 * Query validation per navigation type, consulted before a deep link navigates (SPEC 5).
 * A type without an entry here needs no validation.
 */
export const QUERY_VALIDATORS: Readonly<Record<string, (query: unknown, reg: Pick<Registry, 'entities'>) => QueryResult>> = {
  epc: (q) => (typeof field(q, 'epc') === 'string' ? ok : fail('EPC_NOT_STRING')),
  lot: (q) => (typeof field(q, 'lot') === 'string' ? ok : fail('LOT_NOT_STRING')),
  // The specification pairs this check with the lot message; kept word for word.
  import: (q, reg) => {
    const entity = field(q, 'entity');
    return typeof entity === 'string' && Object.hasOwn(reg.entities, entity) && reg.entities[entity].importable ? ok : fail('LOT_NOT_STRING');
  },
};

export function validateQuery(type: string, query: unknown, reg: Pick<Registry, 'entities'>): QueryResult {
  const v = QUERY_VALIDATORS[type];
  return v ? v(query, reg) : ok;
}
