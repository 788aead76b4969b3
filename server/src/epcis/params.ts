/**
 * The query parameters `GET /api/epcis/events` answers (a subset of the EPCIS 2.0 REST binding's),
 * checked and normalised: list values are pipe-separated (the binding's `pipeDelimited` style) or
 * repeated, identifiers compared in their canonical spelling (digitalLink.ts), CBV terms bare,
 * times in UTC. Any other parameter, or a value of the wrong kind, is a QueryParameterException.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../apiError';
import { canonicalId } from './digitalLink';
import { utcMillis } from './hash';
import { ROLE_GROUP, type Group, type Role } from './model';
import { bareTerm } from './vocabulary';

/** Each MATCH_ parameter: the identifiers' group and the roles it looks at (EPCIS 2.0, 8.2.7.1). */
export const MATCHES: Record<string, readonly Role[]> = {
  MATCH_epc: ['epc'],
  MATCH_parentID: ['parent'],
  MATCH_inputEPC: ['in'],
  MATCH_outputEPC: ['out'],
  MATCH_anyEPC: ['epc', 'parent', 'in', 'out'],
  MATCH_epcClass: ['class'],
  MATCH_inputEPCClass: ['inClass'],
  MATCH_outputEPCClass: ['outClass'],
  MATCH_anyEPCClass: ['class', 'inClass', 'outClass'],
};

const EVENT_TYPES = ['ObjectEvent', 'AggregationEvent', 'TransactionEvent', 'TransformationEvent', 'AssociationEvent'];
const URI_LISTS = ['EQ_readPoint', 'EQ_bizLocation', 'EQ_eventID', ...Object.keys(MATCHES)] as const;
const TEXT_LISTS = ['eventType', 'EQ_action', 'EQ_bizStep', 'EQ_disposition'] as const;
const TIMES = ['GE_eventTime', 'LT_eventTime', 'GE_recordTime', 'LT_recordTime'] as const;
export const QUERY_PARAMETERS = [...TEXT_LISTS, ...TIMES, ...URI_LISTS, 'EXISTS_errorDeclaration', 'perPage', 'nextPageToken'] as const;

/** At most this many values in one list parameter, each at most this long. */
const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 2_000;

export interface Match { parameter: string; group: Group; roles: ReadonlySet<Role>; values: string[] }

export interface ParsedQuery {
  types?: string[];
  actions?: string[];
  bizSteps?: string[];
  dispositions?: string[];
  readPoints?: string[];
  bizLocations?: string[];
  eventIDs?: string[];
  eventTime: { ge?: string; lt?: string };
  recordTime: { ge?: string; lt?: string };
  declared: boolean;
  matches: Match[];
  perPage: number;
  /** The key of the last event of the previous page. */
  after?: string;
}

const invalid = (parameter: string, value: unknown, expected: string) =>
  new ApiError('EPCIS_QUERY_INVALID_VALUE', { parameter, value: String(Array.isArray(value) ? value.join('|') : value).slice(0, 100), expected });

const isUri = (v: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v) && URL.canParse(v);

function listOf(name: string, raw: unknown): string[] {
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => {
    if (typeof v !== 'string') throw invalid(name, v, 'a list of values separated by |');
    return v.split('|');
  }).map((v) => v.trim());
  if (parts.length === 0 || parts.length > MAX_VALUES || parts.some((v) => v === '' || v.length > MAX_VALUE_LENGTH)) {
    throw invalid(name, raw, `a list of 1 to ${MAX_VALUES} values separated by |`);
  }
  return [...new Set(parts)];
}

function single(name: string, raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_VALUE_LENGTH) throw invalid(name, raw, 'a single value');
  return raw.trim();
}

/** The token of the page after `key` for this query (bound to it: another query refuses it). */
export function pageToken(key: string, digest: string): string {
  return Buffer.from(JSON.stringify({ k: key, q: digest })).toString('base64url');
}

function readToken(raw: string, digest: string): string {
  try {
    if (!/^[A-Za-z0-9_-]{1,600}$/.test(raw)) throw new Error('shape');
    const t = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { k?: unknown; q?: unknown };
    if (typeof t.k !== 'string' || t.q !== digest || t.k.length > 200) throw new Error('query');
    return t.k;
  } catch {
    throw new ApiError('EPCIS_PAGE_TOKEN_INVALID');
  }
}

/**
 * Parses the query string. `scopeName`: the selected warehouse group, part of what a page token
 * is bound to (a page of one group's events does not continue another's).
 */
export function parseQuery(query: Record<string, unknown>, maxPerPage: number, scopeName: string | null): { parsed: ParsedQuery; digest: string } {
  const known = new Set<string>(QUERY_PARAMETERS);
  for (const name of Object.keys(query)) {
    if (!known.has(name)) throw new ApiError('EPCIS_QUERY_UNKNOWN_PARAMETER', { parameter: name.slice(0, 60), parameters: QUERY_PARAMETERS.join(', ') });
  }
  const has = (n: string) => query[n] !== undefined;
  const parsed: ParsedQuery = { eventTime: {}, recordTime: {}, declared: false, matches: [], perPage: 30 };
  if (has('eventType')) {
    parsed.types = listOf('eventType', query.eventType);
    const bad = parsed.types.find((t) => !EVENT_TYPES.includes(t) && !isUri(t));
    if (bad) throw invalid('eventType', bad, `an event type (${EVENT_TYPES.join(', ')}) or an extension type's URI`);
  }
  if (has('EQ_action')) {
    parsed.actions = listOf('EQ_action', query.EQ_action);
    const bad = parsed.actions.find((a) => !['ADD', 'OBSERVE', 'DELETE'].includes(a));
    if (bad) throw invalid('EQ_action', bad, 'ADD, OBSERVE or DELETE');
  }
  if (has('EQ_bizStep')) parsed.bizSteps = listOf('EQ_bizStep', query.EQ_bizStep).map((v) => bareTerm('bizstep', v));
  if (has('EQ_disposition')) parsed.dispositions = listOf('EQ_disposition', query.EQ_disposition).map((v) => bareTerm('disp', v));
  const uris = (name: string) => {
    const values = listOf(name, query[name]);
    const bad = values.find((v) => !isUri(v));
    if (bad) throw invalid(name, bad, 'a URI');
    return values;
  };
  if (has('EQ_readPoint')) parsed.readPoints = uris('EQ_readPoint').map(canonicalId);
  if (has('EQ_bizLocation')) parsed.bizLocations = uris('EQ_bizLocation').map(canonicalId);
  if (has('EQ_eventID')) parsed.eventIDs = uris('EQ_eventID');
  for (const [parameter, roles] of Object.entries(MATCHES)) {
    if (!has(parameter)) continue;
    parsed.matches.push({ parameter, group: ROLE_GROUP[roles[0]], roles: new Set(roles), values: [...new Set(uris(parameter).map(canonicalId))] });
  }
  for (const name of TIMES) {
    if (!has(name)) continue;
    const v = utcMillis(single(name, query[name]));
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v)) throw invalid(name, query[name], 'a date-time with its time zone (2025-03-01T10:00:00Z)');
    const range = name.endsWith('eventTime') ? parsed.eventTime : parsed.recordTime;
    range[name.startsWith('GE') ? 'ge' : 'lt'] = v;
  }
  if (has('EXISTS_errorDeclaration')) {
    const v = single('EXISTS_errorDeclaration', query.EXISTS_errorDeclaration);
    if (!['true', 'false', ''].includes(v)) throw invalid('EXISTS_errorDeclaration', v, 'true or false');
    parsed.declared = v !== 'false';
  }
  if (has('perPage')) {
    const v = single('perPage', query.perPage);
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1) throw invalid('perPage', v, 'a whole number of at least 1');
    if (Number(v) > maxPerPage) throw new ApiError('EPCIS_PAGE_TOO_LARGE', { value: v, limit: maxPerPage });
    parsed.perPage = Number(v);
  }
  const { perPage: _p, after: _a, ...what } = parsed;
  const digest = createHash('sha256').update(JSON.stringify([what, [...what.matches.map((m) => [m.parameter, m.values])], scopeName])).digest('base64url').slice(0, 16);
  if (has('nextPageToken')) parsed.after = readToken(single('nextPageToken', query.nextPageToken), digest);
  return { parsed, digest };
}
