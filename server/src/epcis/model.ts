/**
 * What the EPCIS API keeps besides the events themselves: one header per event (scalar fields a
 * query filters on, in `epcis_events`) and one identifier row per (identifier, event, role) in
 * `epcis_ids`. The embedded store evaluates a filter on an array path by scanning, so a query
 * matching EPCs, classes or locations reads identifier rows instead: their id is
 * `<group><digest of the identifier>!<event key>!<role>`, so every event naming an identifier is
 * one range of ids, in event order, on both stores' primary keys (no secondary index to keep).
 *
 * The event key is the header's id, which orders the events as they were stored: a new id for a
 * captured event, the time a row of the platform's own was written and its id for those
 * (object_events, transformation_events; an imported row's id is no time). Captured events are
 * kept in their header (`epcis`); the platform's own stay in their rows (`src`, `row`).
 */
import { createHash } from 'node:crypto';
import { encodeTime } from '../store/ids';
import type { CollectionSpec, Doc, JsonValue } from '../store/types';
import { canonicalId } from './digitalLink';
import { eventHash, utcMillis } from './hash';
import { bareTerm } from './vocabulary';
import { eventFromColumns } from './columns';

export const EPCIS_EVENTS = 'epcis_events';
export const EPCIS_IDS = 'epcis_ids';
export const EPCIS_CAPTURES = 'epcis_captures';
export const EPCIS_DECLARATIONS = 'epcis_declarations';

/** The entity collections the platform's own events live in (workflows/apply.ts, CSV imports). */
export const SOURCE_COLLECTIONS = ['object_events', 'transformation_events'] as const;

export const EPCIS_COLLECTIONS: CollectionSpec[] = [
  { name: EPCIS_EVENTS, uniqueKeys: [], indexes: ['eventID', 'hash', 'eventTime'] },
  { name: EPCIS_IDS, uniqueKeys: [], indexes: [] },
  { name: EPCIS_CAPTURES, uniqueKeys: [], indexes: ['createdBy'] },
  { name: EPCIS_DECLARATIONS, uniqueKeys: [], indexes: ['eventID'] },
];

type Ev = Record<string, unknown>;

/** Which identifiers a role belongs to: E any EPC (MATCH_anyEPC), C any class (MATCH_anyEPCClass), L a location. */
export const ROLE_GROUP = { epc: 'E', parent: 'E', in: 'E', out: 'E', class: 'C', inClass: 'C', outClass: 'C', loc: 'L' } as const;
export type Role = keyof typeof ROLE_GROUP;
export type Group = (typeof ROLE_GROUP)[Role];

/** The id prefix of every row of one identifier in one group; the rows of an event key follow it. */
export function idPrefix(group: Group, value: string): string {
  let digest = digests.get(value);
  if (digest === undefined) {
    digest = createHash('sha256').update(value).digest('base64url').slice(0, 22);
    if (digests.size >= 50_000) digests.clear();
    digests.set(value, digest);
  }
  return `${group}${digest}!`;
}
/** An identifier's digest, remembered (up to a bound) as the canonical spellings are. */
const digests = new Map<string, string>();

/** Ids past every row of `key` under `prefix` (a page's cursor): '"' follows the '!' that ends a key. */
export const afterKey = (prefix: string, key: string) => `${prefix}${key}"`;
/** The first id past the prefix's range ('"' follows '!'). */
export const prefixEnd = (prefix: string) => `${prefix.slice(0, -1)}"`;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const classes = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap((q) => (q && typeof q === 'object' && typeof (q as Ev).epcClass === 'string' ? [(q as Ev).epcClass as string] : [])) : []);
const idOf = (v: unknown) => (v && typeof v === 'object' && typeof (v as Ev).id === 'string' ? canonicalId((v as Ev).id as string) : undefined);

/** Where the event happened or went: read point, business location, sources and destinations (canonical). */
export function locationsOf(ev: Ev): string[] {
  const parties = (list: unknown, field: string) => (Array.isArray(list) ? list.flatMap((p) => (p && typeof p === 'object' && typeof (p as Ev)[field] === 'string' ? [canonicalId((p as Ev)[field] as string)] : [])) : []);
  return [...new Set([idOf(ev.readPoint), idOf(ev.bizLocation), ...parties(ev.sourceList, 'source'), ...parties(ev.destinationList, 'destination')].filter((x): x is string => !!x))];
}

/** Every (identifier, role) an event names, identifiers canonical, each pair once. */
export function identifiersOf(ev: Ev): { value: string; role: Role }[] {
  const out = new Map<string, { value: string; role: Role }>();
  const add = (role: Role, values: string[]) => { for (const v of values) { const value = canonicalId(v); out.set(`${role} ${value}`, { value, role }); } };
  add('epc', [...strings(ev.epcList), ...strings(ev.childEPCs)]);
  if (typeof ev.parentID === 'string') add('parent', [ev.parentID]);
  add('in', strings(ev.inputEPCList));
  add('out', strings(ev.outputEPCList));
  add('class', [...classes(ev.quantityList), ...classes(ev.childQuantityList)]);
  add('inClass', classes(ev.inputQuantityList));
  add('outClass', classes(ev.outputQuantityList));
  add('loc', locationsOf(ev));
  return [...out.values()];
}

/**
 * Only a place that may be a deposit gets a location row (the platform's own location URN, or a
 * GLN's Digital Link without extension): those rows serve the warehouse narrowing alone, which
 * looks for deposits, while a header keeps every place of its event (`locs`) and the EQ_ queries
 * read the header's fields. A GS1-shaped event names a dozen places of which two are sites.
 */
export const mayBeDeposit = (place: string) => place.startsWith('urn:tracemesh:location:') || /^https:\/\/id\.gs1\.org\/414\/\d{13}$/.test(place);

export function identifierRows(key: string, ev: Ev): Doc[] {
  return identifiersOf(ev).filter(({ value, role }) => role !== 'loc' || mayBeDeposit(value))
    .map(({ value, role }) => ({ id: `${idPrefix(ROLE_GROUP[role], value)}${key}!${role}`, v: value }));
}

/** The role an identifier row's id ends with. */
export const roleOfRow = (id: string) => id.slice(id.lastIndexOf('!') + 1) as Role;

/** A header: the fields queries filter on, normalised (times in UTC, terms bare, places canonical). */
export interface HeaderFields {
  key: string;
  event: Ev;
  recordTime: string;
  /** The entity collection holding the event (own events); absent: the header holds it (captured). */
  src?: string;
  /** The eventID when the event has none: its hash (imported rows, captured events without one). */
  hash?: string;
  extra?: Doc;
}

export function headerDoc({ key, event, recordTime, src, hash, extra }: HeaderFields): Doc {
  const h = hash ?? eventHash(event);
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const doc: Record<string, JsonValue | undefined> = {
    id: key,
    type: text(event.type),
    eventTime: typeof event.eventTime === 'string' ? utcMillis(event.eventTime) : undefined,
    recordTime: utcMillis(recordTime),
    action: text(event.action),
    bizStep: typeof event.bizStep === 'string' ? bareTerm('bizstep', event.bizStep) : undefined,
    disposition: typeof event.disposition === 'string' ? bareTerm('disp', event.disposition) : undefined,
    readPoint: idOf(event.readPoint),
    bizLocation: idOf(event.bizLocation),
    eventID: text(event.eventID) ?? h,
    hash: h,
    locs: locationsOf(event),
    ...(event.errorDeclaration && typeof event.errorDeclaration === 'object' ? { declared: true } : {}),
    ...(src ? { src } : { epcis: event as JsonValue }),
    ...extra,
  };
  for (const k of Object.keys(doc)) if (doc[k] === undefined) delete doc[k];
  return doc as Doc;
}

/** The event an entity row stands for: the event it carries whole, or one made from its columns. */
export function eventOfRow(coll: string, row: Ev): Ev | undefined {
  return row.epcis && typeof row.epcis === 'object' ? (row.epcis as Ev) : eventFromColumns(coll, row);
}

/** The event key of an entity row: when it was written, then its id (hashed when long, so identifier rows stay short). */
export function rowKey(row: Ev & { id: string }): string {
  const t = Date.parse(typeof row.createdAt === 'string' ? row.createdAt : '');
  const id = row.id.length > 60 ? createHash('sha256').update(row.id).digest('base64url').slice(0, 22) : row.id;
  return `${encodeTime(Number.isFinite(t) && t > 0 ? t : 0)}${id}`;
}

/** The header and identifier rows of an entity row (one of SOURCE_COLLECTIONS), or none when it is no valid event. */
export function indexOfRow(coll: string, row: Ev & { id: string }): { header: Doc; ids: Doc[] } | undefined {
  const event = eventOfRow(coll, row);
  if (!event) return undefined;
  const recordTime = typeof row.createdAt === 'string' ? row.createdAt : String(event.eventTime);
  const key = rowKey(row);
  return { header: headerDoc({ key, event, recordTime, src: coll, extra: { row: row.id } }), ids: identifierRows(key, event) };
}
