/**
 * An EPCIS event from the columns of an event entity's row, for the rows that carry no event
 * whole (`epcis`): those a CSV import wrote (server/src/imports). Values become what the JSON
 * schema accepts: a CBV term bare, another URI as it is, any other text under the platform's own
 * URN namespace (`urn:tracemesh:bizstep:…`), so the event keeps what the row said and stays valid.
 * A row that cannot be a valid event (no time, a transformation naming nothing) gives none.
 */
import { timeZoneOffset } from '../../../engine/src/index';
import { bareTerm, isTerm, type CbvKind } from './vocabulary';
import { utcMillis } from './hash';

type Row = Record<string, unknown>;
const enc = encodeURIComponent;
const URN = 'urn:tracemesh';

const hasScheme = (v: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v) && URL.canParse(v);

/** A CBV-typed value: the bare term, another vocabulary's URI, or the text under our namespace. */
function term(kind: CbvKind, v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const s = v.trim();
  if (isTerm(kind, s)) return bareTerm(kind, s);
  return hasScheme(s) && !s.startsWith('urn:epcglobal:cbv') && !/^https?:\/\/(ns|ref)\.gs1\.org\/cbv\//.test(s) ? s : `${URN}:${kind}:${enc(s)}`;
}

/** An identifier: a URI as it is, any other text under our namespace. */
function uri(v: unknown, what: string): string | undefined {
  if (typeof v === 'number') v = String(v);
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const s = v.trim();
  return hasScheme(s) ? s : `${URN}:${what}:${enc(s)}`;
}

function uris(v: unknown, what: string): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return [...new Set(list.map((x) => uri(x, what)).filter((x): x is string => x !== undefined))];
}

function quantities(v: unknown): Row[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((q) => {
    if (!q || typeof q !== 'object') return [];
    const r = q as Row;
    const epcClass = uri(r.epcClass, 'class');
    if (!epcClass) return [];
    const quantity = typeof r.quantity === 'number' && Number.isFinite(r.quantity) ? r.quantity : undefined;
    const uom = typeof r.uom === 'string' && /^[A-Z0-9]{2,3}$/.test(r.uom) ? r.uom : undefined;
    return [{ epcClass, ...(quantity !== undefined ? { quantity } : {}), ...(uom && quantity !== undefined ? { uom } : {}) }];
  });
}

function parties(v: unknown, field: 'source' | 'destination'): Row[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((p) => {
    if (!p || typeof p !== 'object') return [];
    const id = uri((p as Row)[field], 'location');
    const type = term('sdt', (p as Row).type);
    return id && type ? [{ type, [field]: id }] : [];
  });
}

function transactions(v: unknown): Row[] {
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
  return list.flatMap((t) => {
    if (!t || typeof t !== 'object') return [];
    const r = t as Row;
    const id = uri(r.bizTransaction ?? r.id, 'bt');
    const type = term('btt', r.type);
    return id ? [{ ...(type ? { type } : {}), bizTransaction: id }] : [];
  });
}

/** The event a row of `coll` (object_events or transformation_events) stands for, or undefined. */
export function eventFromColumns(coll: string, row: Row): Row | undefined {
  const time = typeof row.event_time === 'string' ? utcMillis(row.event_time) : '';
  if (!/Z$/.test(time)) return undefined;
  const event: Row = { type: coll === 'transformation_events' ? 'TransformationEvent' : 'ObjectEvent', eventTime: row.event_time, eventTimeZoneOffset: timeZoneOffset(String(row.event_time)) };
  const put = (k: string, v: unknown) => { if (v !== undefined && !(Array.isArray(v) && v.length === 0)) event[k] = v; };
  if (event.type === 'ObjectEvent') {
    event.action = ['ADD', 'OBSERVE', 'DELETE'].includes(row.action as string) ? row.action : 'OBSERVE';
    const epcs = uris(row.epcList, 'asset');
    const qs = quantities(row.quantityList);
    // An object event names objects, classes, or (with no goods at all) an empty object list.
    if (epcs.length || !qs.length) event.epcList = epcs;
    put('quantityList', qs);
  } else {
    put('inputEPCList', uris(row.inputEPCList, 'asset'));
    put('inputQuantityList', quantities(row.inputQuantityList));
    put('outputEPCList', uris(row.outputEPCList, 'asset'));
    put('outputQuantityList', quantities(row.outputQuantityList));
    const inputs = event.inputEPCList || event.inputQuantityList;
    const outputs = event.outputEPCList || event.outputQuantityList;
    if (!inputs && !outputs) return undefined;
    if (!inputs || !outputs) event.transformationID = `${URN}:transformation:${enc(String(row.id))}`;
  }
  put('bizStep', term('bizstep', row.biz_step));
  put('disposition', term('disp', row.disposition));
  const persistent = term('disp', row.persistent_disposition);
  if (persistent) event.persistentDisposition = { set: [persistent] };
  const readPoint = uri(row.read_point, 'location');
  if (readPoint) event.readPoint = { id: readPoint };
  const bizLocation = uri(row.business_location, 'location');
  if (bizLocation) event.bizLocation = { id: bizLocation };
  put('bizTransactionList', transactions(row.business_transaction));
  put('sourceList', parties(row.sourceList, 'source'));
  put('destinationList', parties(row.destinationList, 'destination'));
  return event;
}
