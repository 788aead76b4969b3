import { cbvName } from './cbv';
import type { EventTemplate, LinesDef, ValueRef } from './types';
import { lineValue, linesOf, resolveRef, type RefScope } from './values';

/**
 * What the server knows about the materials and deposits a transition names, handed in as plain
 * maps so the engine stays free of I/O: GTINs and GLNs make GS1 identifiers, the rest falls back
 * to URIs naming the platform's own ids.
 */
export interface PlanLookup {
  materials?: Readonly<Record<string, { gtin?: string; uom?: string; name?: string }>>;
  /** `companyPrefixLength` splits a GLN into an SGLN; without it the GLN is named by its GS1 Digital Link. */
  deposits?: Readonly<Record<string, { gln?: string; name?: string; companyPrefixLength?: number }>>;
  /**
   * The records `transitionRecords` effects reference, by entity then id, as stored, and their
   * places' names for RECORD_NOT_AVAILABLE (`places`: deposit or company id → name).
   */
  records?: Readonly<Record<string, Readonly<Record<string, Record<string, unknown>>>>>;
  places?: Readonly<Record<string, string>>;
}

export const EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';
/** The URN namespace of identifiers that have no GS1 key (a division without GLN, a lot of a material without GTIN). */
const URN = 'urn:tracemesh';

const enc = encodeURIComponent;

/** A deposit (company_division id) as an EPCIS location. */
export function locationUri(id: string, lookup: PlanLookup = {}): string {
  const d = lookup.deposits?.[id];
  const gln = d?.gln?.trim();
  if (gln && /^\d{13}$/.test(gln)) {
    const p = d?.companyPrefixLength;
    if (p !== undefined && p >= 6 && p <= 12) return `urn:epc:id:sgln:${gln.slice(0, p)}.${gln.slice(p, 12)}.0`;
    return `https://id.gs1.org/414/${gln}`;
  }
  return `${URN}:location:${enc(id)}`;
}

/** A serialised object of the platform (an IBC by its serial number) as an EPCIS epc. */
export function assetUri(entity: string, value: string): string {
  return `${URN}:asset:${enc(entity)}:${enc(value)}`;
}

/** A lot of a material as an EPCIS class (quantityList epcClass). */
export function lotClassUri(material: string, lot: string, lookup: PlanLookup = {}): string {
  const gtin = lookup.materials?.[material]?.gtin?.trim();
  if (gtin && /^\d{8,14}$/.test(gtin)) return `https://id.gs1.org/01/${gtin.padStart(14, '0')}/10/${enc(lot)}`;
  return `${URN}:class:${enc(material)}:${enc(lot)}`;
}

const UNECE: Record<string, string> = {
  kg: 'KGM', kgs: 'KGM', kilo: 'KGM', kilogram: 'KGM', kilograms: 'KGM', kilogramo: 'KGM', kilogramos: 'KGM',
  g: 'GRM', gram: 'GRM', grams: 'GRM', gramo: 'GRM', gramos: 'GRM',
  t: 'TNE', tn: 'TNE', tonne: 'TNE', tonnes: 'TNE', tonelada: 'TNE', toneladas: 'TNE',
  l: 'LTR', lt: 'LTR', litre: 'LTR', litres: 'LTR', liter: 'LTR', liters: 'LTR', litro: 'LTR', litros: 'LTR',
  ml: 'MLT', m3: 'MTQ', u: 'H87', un: 'H87', unit: 'H87', units: 'H87', unidad: 'H87', unidades: 'H87',
};

/** An EPCIS uom is a UN/ECE Rec. 20 code; a unit written by name is mapped when known, else left out. */
export function epcisUom(unit: unknown): string | undefined {
  if (typeof unit !== 'string') return undefined;
  if (/^[A-Z0-9]{2,3}$/.test(unit)) return unit;
  return UNECE[unit.trim().toLowerCase()];
}

/** The offset of an ISO time (`Z` or `±hh:mm`), as EPCIS wants it. */
export function timeZoneOffset(iso: string): string {
  const m = /([+-]\d\d:\d\d)$/.exec(iso);
  return m ? m[1] : '+00:00';
}

/**
 * A stable urn:uuid from a text: a transition planned twice (a retried request, a replay after a
 * crash) names its events the same, so a store can refuse the second copy.
 */
export function stableUuid(text: string): string {
  const words = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map((seed) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    return (h ^ (h >>> 13)) >>> 0;
  });
  const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
  // Version 8 (custom) and the RFC 9562 variant, so it reads as a well-formed UUID.
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface QuantityElement { epcClass: string; quantity: number; uom?: string }

function quantityList(lines: LinesDef, quantity: ValueRef | undefined, scope: RefScope, lookup: PlanLookup): QuantityElement[] {
  const out: QuantityElement[] = [];
  for (const line of linesOf(scope.record, lines)) {
    const lineScope = { ...scope, line };
    const q = Number(resolveRef(quantity ?? `$line.${lines.quantity}`, lineScope));
    const material = String(lineValue(lines.material, lineScope) ?? '');
    const batch = String(lineValue(lines.batch, lineScope) ?? '');
    if (!(q > 0) || !material) continue;
    const uom = epcisUom(lines.unit ? lineValue(lines.unit, lineScope) : undefined) ?? epcisUom(lookup.materials?.[material]?.uom);
    out.push({ epcClass: lotClassUri(material, batch, lookup), quantity: q, ...(uom ? { uom } : {}) });
  }
  return out;
}

function idOf(ref: ValueRef | undefined, scope: RefScope): string | undefined {
  if (ref === undefined) return undefined;
  const v = resolveRef(ref, scope);
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

export interface EventContext {
  scope: RefScope;
  /** The entity of the record planned: its `epcs` are assets of it. */
  entity: string;
  lookup?: PlanLookup;
  /** Names the event uniquely and stably: workflow, record id, transition, effect index. */
  key: string;
}

/**
 * One EPCIS 2.0 event (JSON-LD, standalone, so with its `@context`) from a template, or nothing
 * when it names no goods: no line with a quantity to list (a receiving event after a total
 * reject) and no epc, since an event about no goods is not valid EPCIS. `lines`, `inputs` and
 * `outputs` are the sanitised ones.
 */
export function buildEvent(tpl: EventTemplate, { scope, entity, lookup = {}, key }: EventContext): Record<string, unknown> | undefined {
  const event: Record<string, unknown> = {
    '@context': [EPCIS_CONTEXT],
    type: tpl.type,
    eventID: stableUuid(key),
    eventTime: scope.now,
    eventTimeZoneOffset: timeZoneOffset(scope.now),
  };
  if (tpl.type === 'ObjectEvent') {
    const list = tpl.lines ? quantityList(tpl.lines, tpl.quantity, scope, lookup) : [];
    const epcs = (tpl.epcs ?? []).flatMap((ref) => { const id = idOf(ref, scope); return id ? [assetUri(entity, id)] : []; });
    if (list.length === 0 && epcs.length === 0) return undefined;
    event.action = tpl.action;
    if (epcs.length) event.epcList = epcs;
    if (list.length) event.quantityList = list;
  } else {
    const inputs = tpl.inputs ? quantityList(tpl.inputs, undefined, scope, lookup) : [];
    const outputs = tpl.outputs ? quantityList(tpl.outputs, undefined, scope, lookup) : [];
    if (inputs.length === 0 && outputs.length === 0) return undefined;
    if (inputs.length) event.inputQuantityList = inputs;
    if (outputs.length) event.outputQuantityList = outputs;
    event.transformationID = `${URN}:transformation:${enc(String(scope.record.id ?? key))}`;
  }
  event.bizStep = cbvName('bizstep', tpl.bizStep);
  if (tpl.disposition) event.disposition = cbvName('disp', tpl.disposition);
  const readPoint = idOf(tpl.readPoint, scope);
  if (readPoint) event.readPoint = { id: locationUri(readPoint, lookup) };
  const bizLocation = idOf(tpl.bizLocation, scope);
  if (bizLocation) event.bizLocation = { id: locationUri(bizLocation, lookup) };
  if (tpl.bizTransaction) {
    const id = idOf(tpl.bizTransaction.value, scope);
    const type = cbvName('btt', tpl.bizTransaction.type);
    if (id) event.bizTransactionList = [{ type, bizTransaction: `${URN}:bt:${enc(type)}:${enc(id)}` }];
  }
  const parties = (list: { type: string; value: ValueRef }[] | undefined, name: 'source' | 'destination') =>
    (list ?? []).flatMap((s) => {
      const id = idOf(s.value, scope);
      return id ? [{ type: cbvName('sdt', s.type), [name]: locationUri(id, lookup) }] : [];
    });
  const sources = parties(tpl.source, 'source');
  if (sources.length) event.sourceList = sources;
  const destinations = parties(tpl.destination, 'destination');
  if (destinations.length) event.destinationList = destinations;
  return event;
}
