import { locationUri } from '../../../engine/src/index';
import type { Store, StoredDoc } from '../store/types';
import type { Lookups } from './lookups';
import { findIn } from './reader';

/** Where transitions keep their EPCIS events (workflows/apply.ts), each with the operation that emitted it. */
export const EVENT_COLLECTIONS = ['object_events', 'transformation_events'] as const;

type Rec = Record<string, unknown>;

/** One quantity of an event: a lot class and how much, and its role in a transformation. */
export interface EventElement {
  role: 'quantity' | 'input' | 'output';
  epcClass: string;
  quantity: number;
  uom?: string;
}

/** An event as the trace reads it: its EPCIS body, what it names, where, and its operation. */
export interface EventView {
  doc: StoredDoc;
  epcis: Rec;
  type: string;
  eventID: string;
  at: string;
  bizStep: string;
  disposition: string;
  readPoint?: string;
  bizLocation?: string;
  source?: string;
  destination?: string;
  elements: EventElement[];
  /** Assets in its epcList, as `<entity>:<value>` (an IBC: `ibc_container:<serial>`). */
  assets: { entity: string; value: string }[];
  operation: { workflow: string; id: string; transition: string };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function elements(list: unknown, role: EventElement['role']): EventElement[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((q: Rec) => (q && typeof q.epcClass === 'string' ? [{ role, epcClass: q.epcClass, quantity: Number(q.quantity ?? 0), ...(typeof q.uom === 'string' ? { uom: q.uom } : {}) }] : []));
}

/** `urn:tracemesh:asset:<entity>:<value>` (engine/src/workflow/events.ts assetUri). */
export function parseAsset(uri: string): { entity: string; value: string } | undefined {
  const m = /^urn:tracemesh:asset:([^:]+):(.+)$/.exec(uri);
  if (!m) return undefined;
  try {
    return { entity: decodeURIComponent(m[1]), value: decodeURIComponent(m[2]) };
  } catch {
    return undefined;
  }
}

/** A lot class (lotClassUri): the platform's `urn:tracemesh:class:<material>:<lot>`, or a GS1 Digital Link of a GTIN and lot. */
export function parseLotClass(uri: string): { material?: string; gtin?: string; lot: string } | undefined {
  try {
    const own = /^urn:tracemesh:class:([^:]+):(.+)$/.exec(uri);
    if (own) return { material: decodeURIComponent(own[1]), lot: decodeURIComponent(own[2]) };
    const dl = /^https:\/\/id\.gs1\.org\/01\/(\d{14})\/10\/([^/?#]+)/.exec(uri);
    if (dl) return { gtin: dl[1], lot: decodeURIComponent(dl[2]) };
  } catch {
    return undefined;
  }
  return undefined;
}

/** The stored event's EPCIS body; an event imported as columns (no `epcis`) is read from them. */
function bodyOf(doc: StoredDoc, coll: string): Rec {
  if (doc.epcis && typeof doc.epcis === 'object') return doc.epcis as Rec;
  const place = (v: unknown) => (typeof v === 'string' && v ? { id: v } : undefined);
  return {
    type: coll === 'transformation_events' ? 'TransformationEvent' : 'ObjectEvent', eventTime: doc.event_time, bizStep: doc.biz_step, disposition: doc.disposition,
    readPoint: place(doc.read_point), bizLocation: place(doc.business_location), action: doc.action, quantityList: doc.quantityList,
    inputQuantityList: doc.inputQuantityList, outputQuantityList: doc.outputQuantityList, sourceList: doc.sourceList, destinationList: doc.destinationList,
    epcList: Array.isArray(doc.epcList) ? doc.epcList : typeof doc.epcList === 'string' ? [doc.epcList] : undefined,
  };
}

export function viewOf(doc: StoredDoc, coll = 'object_events'): EventView {
  const e = bodyOf(doc, coll);
  const op = (doc.operation ?? {}) as Rec;
  const place = (v: unknown) => (v && typeof v === 'object' ? str((v as Rec).id) : '') || undefined;
  const party = (list: unknown, key: 'source' | 'destination') => (Array.isArray(list) ? list.map((x: Rec) => str(x?.[key])).find(Boolean) : undefined);
  return {
    doc, epcis: e, type: str(e.type), eventID: str(e.eventID) || doc.id, at: str(e.eventTime) || str(doc.event_time), bizStep: str(e.bizStep), disposition: str(e.disposition),
    readPoint: place(e.readPoint), bizLocation: place(e.bizLocation), source: party(e.sourceList, 'source'), destination: party(e.destinationList, 'destination'),
    elements: [...elements(e.quantityList, 'quantity'), ...elements(e.inputQuantityList, 'input'), ...elements(e.outputQuantityList, 'output')],
    assets: (Array.isArray(e.epcList) ? e.epcList : []).map((x) => parseAsset(str(x))).filter((x): x is { entity: string; value: string } => x !== undefined),
    operation: { workflow: str(op.workflow), id: str(op.id), transition: str(op.transition) },
  };
}

/** The events of these operations, both collections, oldest first. */
export async function eventsOf(store: Store, operations: readonly string[]): Promise<EventView[]> {
  const views: EventView[] = [];
  for (const coll of EVENT_COLLECTIONS) views.push(...(await findIn(store, coll, 'operation.id', operations)).map((d) => viewOf(d, coll)));
  return views.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.doc.id < b.doc.id ? -1 : 1));
}

/**
 * Reads an event's location URIs back to deposit ids, for the deposits the lookups hold: the
 * URI the engine names each by (by GLN when it has one, by id otherwise).
 */
export function locationIndex(lookups: Lookups): Map<string, string> {
  const index = new Map<string, string>();
  for (const d of lookups.deposits.values()) {
    index.set(locationUri(d.id), d.id);
    if (d.gln) index.set(locationUri(d.id, { deposits: { [d.id]: { gln: d.gln } } }), d.id);
  }
  return index;
}

/** Lot classes back to `material|lot` keys, for the lots of a trace (by material id, or by GTIN for the materials that have one). */
export function lotIndex(lots: Iterable<string>, lookups: Lookups): (epcClass: string) => string | undefined {
  const known = new Set(lots);
  const byGtin = new Map<string, string[]>();
  for (const key of known) {
    const material = key.slice(0, key.indexOf('|'));
    const gtin = lookups.materials.get(material)?.gtin;
    if (gtin && /^\d{8,14}$/.test(gtin)) {
      const g = gtin.padStart(14, '0');
      byGtin.set(g, [...(byGtin.get(g) ?? []), material]);
    }
  }
  return (epcClass) => {
    const c = parseLotClass(epcClass);
    if (!c) return undefined;
    if (c.material !== undefined) return known.has(`${c.material}|${c.lot}`) ? `${c.material}|${c.lot}` : undefined;
    for (const material of byGtin.get(c.gtin!) ?? []) if (known.has(`${material}|${c.lot}`)) return `${material}|${c.lot}`;
    return undefined;
  };
}

/**
 * The `material|lot` keys a list of lot classes names: a material's own class directly, a GS1
 * one through the materials holding its GTIN (with or without its leading zeros).
 */
export async function lotKeysNamed(store: Store, epcClasses: Iterable<string>): Promise<Set<string>> {
  const keys = new Set<string>();
  const gtins = new Map<string, string[]>();
  for (const uri of epcClasses) {
    const c = parseLotClass(uri);
    if (c?.material !== undefined) keys.add(`${c.material}|${c.lot}`);
    else if (c?.gtin) gtins.set(c.gtin, [...(gtins.get(c.gtin) ?? []), c.lot]);
  }
  if (gtins.size) {
    const materials = await findIn(store, 'material', 'gtin', [...gtins.keys()].flatMap((g) => [g, g.replace(/^0+/, '')]), {}, { id: 1, gtin: 1 });
    for (const m of materials) for (const lot of gtins.get(String(m.gtin).padStart(14, '0')) ?? []) keys.add(`${m.id}|${lot}`);
  }
  return keys;
}
