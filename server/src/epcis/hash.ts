/**
 * The EPCIS event hash (CBV 2.0, section 8.9): the event's data elements in the canonical
 * property order, each `key=value`, concatenated without separators into a pre-hash string,
 * hashed with SHA-256 and written as `ni:///sha-256;<hex>?ver=CBV2.0`. Values are normalised
 * first: times in UTC with milliseconds, numbers without trailing zeros, CBV terms as web URIs,
 * EPC URIs as canonical Digital Links (digitalLink.ts), list elements sorted, CURIEs expanded.
 * The eventID, recordTime, errorDeclaration and certificationInfo are not part of it: an
 * error declaration (the same event with its eventID and an errorDeclaration) hashes as the
 * event it declares.
 */
import { createHash } from 'node:crypto';
import { canonicalId } from './digitalLink';
import { hashTerm, type CbvKind } from './vocabulary';

type Ev = Record<string, unknown>;
/** Prefix → IRI, from the document's (or event's) JSON-LD context objects. */
export type Prefixes = Record<string, string>;

/** The standard context's prefixes, which documents use without declaring them. */
const STANDARD_PREFIXES: Prefixes = {
  gs1: 'https://gs1.org/voc/', cbv: 'https://ref.gs1.org/cbv/', epcis: 'https://ref.gs1.org/epcis/', cbvmda: 'urn:epcglobal:cbv:mda#',
};

/** The prefixes a JSON-LD `@context` (a URL, an object, or a list of them) declares. */
export function prefixesOf(context: unknown, into: Prefixes = {}): Prefixes {
  for (const c of Array.isArray(context) ? context : [context]) {
    if (!c || typeof c !== 'object') continue;
    for (const [k, v] of Object.entries(c as Ev)) if (typeof v === 'string') into[k] = v;
  }
  return into;
}

/** An ISO date-time in UTC with exactly three fraction digits (the fourth rounds), or the text trimmed when it is none. */
export function utcMillis(value: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(value.trim());
  if (!m) return value.trim();
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  const ms = Math.round(Number(`0.${frac || '0'}`) * 1000);
  const offset = zone.toUpperCase() === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) + ms - offset * 60_000;
  return Number.isFinite(t) ? new Date(t).toISOString() : value.trim();
}

function scalar(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v.trim();
  return String(v);
}

const list = (name: string, items: string[]) => (items.length ? name + [...items].sort().join('') : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const uri = (v: unknown) => canonicalId(scalar(v));

function quantityList(name: string, v: unknown): string {
  if (!Array.isArray(v)) return '';
  return list(name, v.filter((q) => q && typeof q === 'object').map((q: Ev) =>
    `quantityElement${q.epcClass !== undefined ? `epcClass=${uri(q.epcClass)}` : ''}${q.quantity !== undefined ? `quantity=${scalar(q.quantity)}` : ''}${q.uom !== undefined ? `uom=${scalar(q.uom)}` : ''}`));
}

/** A type-tagged list (transactions, sources, destinations): each element `type=…<field>=…`. */
function typedList(name: string, field: string, kind: CbvKind, v: unknown): string {
  if (!Array.isArray(v)) return '';
  return list(name, v.filter((x) => x && typeof x === 'object').map((x: Ev) =>
    `${typeof x.type === 'string' ? `type=${hashTerm(kind, x.type.trim())}` : ''}${field}=${uri(x[field])}`));
}

/** An expanded IRI as the hash writes a key: `{namespace}local`. */
function braced(key: string, prefixes: Prefixes): string {
  const colon = key.indexOf(':');
  let iri = key;
  if (colon > 0 && !key.startsWith('http')) {
    const p = key.slice(0, colon);
    const ns = prefixes[p] ?? STANDARD_PREFIXES[p];
    if (ns) iri = ns + key.slice(colon + 1);
  }
  const hash = iri.lastIndexOf('#');
  const cut = hash >= 0 ? hash : iri.lastIndexOf('/') + 1;
  return hash >= 0 ? `{${iri.slice(0, cut)}}${iri.slice(cut + 1)}` : `{${iri.slice(0, cut)}}${iri.slice(cut)}`;
}

/** Extension elements (user fields, ILMD, extra fields of a read point): each `{ns}local=value`, nested ones inside their parent, sorted. */
function extensions(fields: [string, unknown][], prefixes: Prefixes): string {
  const out: string[] = [];
  const add = (key: string, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) add(key, x);
    else if (v && typeof v === 'object') out.push(key + extensions(Object.entries(v as Ev), prefixes));
    else if (v !== null && v !== undefined) out.push(`${key}=${scalar(v)}`);
  };
  for (const [k, v] of fields) add(braced(k, prefixes), v);
  return out.sort().join('');
}

/** A read point or business location: its id, then any extension fields of it. */
function place(name: string, v: unknown, prefixes: Prefixes): string {
  if (!v || typeof v !== 'object') return '';
  const { id, ...rest } = v as Ev;
  return `${name}${id !== undefined ? `id=${uri(id)}` : ''}${extensions(Object.entries(rest), prefixes)}`;
}

const METADATA = ['time', 'startTime', 'endTime', 'deviceID', 'deviceMetadata', 'rawData', 'dataProcessingMethod', 'bizRules'];
const REPORT = ['type', 'exception', 'deviceID', 'deviceMetadata', 'rawData', 'dataProcessingMethod', 'time', 'microorganism', 'chemicalSubstance',
  'value', 'component', 'stringValue', 'booleanValue', 'hexBinaryValue', 'uriValue', 'minValue', 'maxValue', 'meanValue', 'sDev', 'percRank',
  'percValue', 'uom', 'coordinateReferenceSystem'];
const TIMES = new Set(['time', 'startTime', 'endTime']);

/** A sensor part: its standard fields in order (times in UTC, identifiers canonical), then its extensions. */
function sensorPart(name: string, v: unknown, order: string[], prefixes: Prefixes): string {
  if (!v || typeof v !== 'object') return '';
  const o = v as Ev;
  const known = order.filter((k) => o[k] !== undefined).map((k) => {
    const x = o[k];
    if (TIMES.has(k)) return `${k}=${utcMillis(scalar(x))}`;
    if (k === 'type' && typeof x === 'string' && !x.includes(':')) return `type=https://ref.gs1.org/voc/${x.trim()}`;
    return `${k}=${typeof x === 'string' ? uri(x) : scalar(x)}`;
  }).join('');
  return name + known + extensions(Object.entries(o).filter(([k]) => !order.includes(k)), prefixes);
}

function sensors(v: unknown, prefixes: Prefixes): string {
  if (!Array.isArray(v)) return '';
  return v.filter((e) => e && typeof e === 'object').map((e: Ev) => {
    const reports = Array.isArray(e.sensorReport) ? e.sensorReport.map((r) => sensorPart('sensorReport', r, REPORT, prefixes)).sort().join('') : '';
    const rest = Object.entries(e).filter(([k]) => k !== 'sensorMetadata' && k !== 'sensorReport');
    return `sensorElement${sensorPart('sensorMetadata', e.sensorMetadata, METADATA, prefixes)}${reports}${extensions(rest, prefixes)}`;
  }).sort().join('');
}

/** Fields the pre-hash writes by name, or leaves out on purpose; every other field is a user extension. */
const STANDARD_FIELDS = new Set([
  '@context', 'type', 'eventTime', 'eventTimeZoneOffset', 'eventID', 'recordTime', 'errorDeclaration', 'certificationInfo',
  'epcList', 'parentID', 'inputEPCList', 'childEPCs', 'quantityList', 'childQuantityList', 'inputQuantityList', 'outputEPCList',
  'outputQuantityList', 'action', 'transformationID', 'bizStep', 'disposition', 'persistentDisposition', 'readPoint', 'bizLocation',
  'bizTransactionList', 'sourceList', 'destinationList', 'sensorElementList', 'ilmd',
]);

/** The pre-hash string of an event; `prefixes` are those of the document it came in (its own `@context` adds to them). */
const one = (name: string, v: unknown, f: (x: unknown) => string = scalar) => (v === undefined || v === null ? '' : `${name}=${f(v)}`);
const epcs = (name: string, v: unknown) => list(name, strings(v).map((e) => `epc=${canonicalId(e)}`));
const dispositions = (pd: Ev, key: string) => strings(pd[key]).map((d) => `${key}=${hashTerm('disp', d.trim())}`).sort().join('');
const time = (v: unknown) => utcMillis(scalar(v));
const bizStep = (v: unknown) => hashTerm('bizstep', scalar(v));
const disposition = (v: unknown) => hashTerm('disp', scalar(v));

export function preHash(ev: Ev, prefixes: Prefixes = {}): string {
  const px = ev['@context'] === undefined ? prefixes : prefixesOf(ev['@context'], { ...prefixes });
  const pd = ev.persistentDisposition as Ev | undefined;
  return [
    one('eventType', ev.type),
    one('eventTime', ev.eventTime, time),
    one('eventTimeZoneOffset', ev.eventTimeZoneOffset),
    epcs('epcList', ev.epcList),
    one('parentID', ev.parentID, uri),
    epcs('inputEPCList', ev.inputEPCList),
    epcs('childEPCs', ev.childEPCs),
    quantityList('quantityList', ev.quantityList),
    quantityList('childQuantityList', ev.childQuantityList),
    quantityList('inputQuantityList', ev.inputQuantityList),
    epcs('outputEPCList', ev.outputEPCList),
    quantityList('outputQuantityList', ev.outputQuantityList),
    one('action', ev.action),
    one('transformationID', ev.transformationID, uri),
    one('bizStep', ev.bizStep, bizStep),
    one('disposition', ev.disposition, disposition),
    pd && typeof pd === 'object' ? `persistentDisposition${dispositions(pd, 'set')}${dispositions(pd, 'unset')}` : '',
    place('readPoint', ev.readPoint, px),
    place('bizLocation', ev.bizLocation, px),
    typedList('bizTransactionList', 'bizTransaction', 'btt', ev.bizTransactionList),
    typedList('sourceList', 'source', 'sdt', ev.sourceList),
    typedList('destinationList', 'destination', 'sdt', ev.destinationList),
    sensors(ev.sensorElementList, px),
    ev.ilmd && typeof ev.ilmd === 'object' ? `ilmd${extensions(Object.entries(ev.ilmd as Ev), px)}` : '',
    extensions(Object.entries(ev).filter(([k]) => !STANDARD_FIELDS.has(k)), px),
  ].join('');
}

/** The event's hash as an `ni` URI (RFC 6920), the form an eventID takes when the repository assigns it. */
export function eventHash(ev: Ev, prefixes: Prefixes = {}): string {
  return `ni:///sha-256;${createHash('sha256').update(preHash(ev, prefixes)).digest('hex')}?ver=CBV2.0`;
}
