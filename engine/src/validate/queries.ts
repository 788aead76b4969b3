import { formatError, type ErrorCode } from '../errors';

export interface QueryResult {
  valid: boolean;
  code?: ErrorCode;
  message?: string;
}

/** Entities an import query may name (SPEC 5). */
export const IMPORT_QUERY_ENTITIES = [
  'company', 'material', 'supply', 'recipe', 'ibc_container', 'company_division', 'country', 'units_of_measurement', 'material_package',
] as const;

const ok: QueryResult = { valid: true };
const fail = (code: ErrorCode): QueryResult => ({ valid: false, code, message: formatError(code) });

function field(query: unknown, name: string): unknown {
  return typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
}

/**
 * Query validation per navigation type, consulted before a deep link navigates (SPEC 5).
 * A type without an entry here needs no validation.
 */
export const QUERY_VALIDATORS: Readonly<Record<string, (query: unknown) => QueryResult>> = {
  epc: (q) => (typeof field(q, 'epc') === 'string' ? ok : fail('EPC_NOT_STRING')),
  lot: (q) => (typeof field(q, 'lot') === 'string' ? ok : fail('LOT_NOT_STRING')),
  // The specification pairs this check with the lot message; kept word for word.
  import: (q) => ((IMPORT_QUERY_ENTITIES as readonly unknown[]).includes(field(q, 'entity')) ? ok : fail('LOT_NOT_STRING')),
};

export function validateQuery(type: string, query: unknown): QueryResult {
  const v = QUERY_VALIDATORS[type];
  return v ? v(query) : ok;
}
