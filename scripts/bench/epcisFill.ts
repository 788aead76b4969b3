/**
 * GS1-shaped EPCIS events for the EPCIS benches (issue 19), deterministic from a seed: a chain of
 * lots moving between sites, as ObjectEvents (shipping and receiving two serialised items of a
 * lot, with read point, business location, possessing-party source and destination and a
 * purchase order), AggregationEvents (items packed on an SSCC pallet) and TransformationEvents
 * (one lot made into another), in EPC URI syntax as GS1's examples write them.
 *
 * `eventDocuments` makes capture documents of them; `fillEpcisEvents` writes N of them straight
 * into a store as capture would leave them (headers and identifier rows, server/src/epcis/model.ts)
 * for a bench that needs a large history without capturing it: a trace bench can reuse it.
 */
import { rng } from '../../engine/src/random';
import { EPCIS_CONTEXT } from '../../engine/src/index';
import { arrayPaths } from '../../server/src/store/docs';
import { encodeTime } from '../../server/src/store/ids';
import type { Doc, Store } from '../../server/src/store/types';
import { markBuilt } from '../../server/src/summaryMarks';
import { EPCIS_EVENTS, EPCIS_IDS, headerDoc, identifierRows } from '../../server/src/epcis/model';

type Ev = Record<string, unknown>;
const DAY = 86_400_000;
/** Events a lot takes part in, about: a MATCH_anyEPCClass of one lot lists about this many. */
export const EVENTS_PER_LOT = 20;
const SITES = 200;
const GTINS = 1_000;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** A site's SGLN (company prefix 0614141, location reference of 5 digits). */
const sgln = (site: number, ext = '0') => `urn:epc:id:sgln:0614141.${pad(site, 5)}.${ext}`;
const pgln = (site: number) => `urn:epc:id:pgln:0614141.${pad(site, 5)}`;
/** The class of lot `lot` of its GTIN (company prefix 4012345, indicator 0 and a 5-digit item reference). */
export const lotClass = (lot: number) => `urn:epc:class:lgtin:4012345.0${pad(lot % GTINS, 5)}.L${lot}`;
const item = (lot: number, n: number) => `urn:epc:id:sgtin:4012345.0${pad(lot % GTINS, 5)}.${lot}${pad(n, 4)}`;

/** The i-th event of the history of `lots` lots (event i of lot i % lots), at a time after `start`. */
export function gs1Event(i: number, lots: number, start: number, random: () => number): Ev {
  const lot = i % lots;
  const round = Math.floor(i / lots);
  const from = (lot * 7 + round) % SITES;
  const to = (from + 1 + Math.floor(random() * 5)) % SITES;
  const t = new Date(start + round * DAY + Math.floor(random() * DAY)).toISOString();
  const base = { '@context': [EPCIS_CONTEXT], eventTime: t, eventTimeZoneOffset: '+00:00' };
  const kind = round % 5;
  if (kind === 2) {
    return {
      ...base, type: 'AggregationEvent', action: 'ADD', parentID: `urn:epc:id:sscc:0614141.${pad(i % 1_000_000_000, 10)}`,
      childEPCs: [item(lot, round * 2), item(lot, round * 2 + 1)], childQuantityList: [{ epcClass: lotClass(lot), quantity: 40, uom: 'KGM' }],
      bizStep: 'packing', disposition: 'in_progress', readPoint: { id: sgln(from, '1') }, bizLocation: { id: sgln(from) },
    };
  }
  if (kind === 4) {
    return {
      ...base, type: 'TransformationEvent', inputQuantityList: [{ epcClass: lotClass(lot), quantity: 500, uom: 'KGM' }],
      outputQuantityList: [{ epcClass: lotClass((lot + 1) % lots), quantity: 480, uom: 'KGM' }], bizStep: 'commissioning', disposition: 'active',
      readPoint: { id: sgln(from, '1') }, bizLocation: { id: sgln(from) },
      bizTransactionList: [{ type: 'prodorder', bizTransaction: `urn:epcglobal:cbv:bt:0614141000005:PO-${i}` }],
    };
  }
  const shipping = kind !== 1;
  return {
    ...base, type: 'ObjectEvent', action: 'OBSERVE', epcList: [item(lot, round * 2), item(lot, round * 2 + 1)],
    quantityList: [{ epcClass: lotClass(lot), quantity: 200, uom: 'KGM' }],
    bizStep: shipping ? 'shipping' : 'receiving', disposition: shipping ? 'in_transit' : 'in_progress',
    readPoint: { id: sgln(shipping ? from : to, '1') }, bizLocation: { id: sgln(shipping ? from : to) },
    bizTransactionList: [{ type: 'po', bizTransaction: `urn:epcglobal:cbv:bt:0614141000005:${lot}-${round}` }],
    sourceList: [{ type: 'possessing_party', source: pgln(from) }, { type: 'location', source: sgln(from) }],
    destinationList: [{ type: 'possessing_party', destination: pgln(to) }, { type: 'location', destination: sgln(to) }],
  };
}

/** Capture documents of `perDocument` events each, `count` of them, the events of a history of `total` events. */
export function eventDocuments(count: number, perDocument: number, seed = 19): Doc[] {
  const random = rng(seed);
  const lots = Math.max(1, Math.round((count * perDocument) / EVENTS_PER_LOT));
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, d) => ({
    '@context': [EPCIS_CONTEXT], type: 'EPCISDocument', schemaVersion: '2.0', creationDate: new Date(start).toISOString(),
    epcisBody: { eventList: Array.from({ length: perDocument }, (_, k) => { const ev = gs1Event(d * perDocument + k, lots, start, random); delete ev['@context']; return ev; }) },
  }) as unknown as Doc);
}

/** The headers and identifier rows capture writes for these events (keys after `keyTime`, in order). */
export function capturedDocs(events: readonly Ev[], keyTime: number, first: number, recordTime: string): { headers: Doc[]; ids: Doc[] } {
  const headers: Doc[] = [];
  const ids: Doc[] = [];
  events.forEach((event, k) => {
    const key = `${encodeTime(keyTime)}${pad(first + k, 16)}`;
    headers.push(headerDoc({ key, event, recordTime, extra: { capture: 'bench' } }));
    ids.push(...identifierRows(key, event));
  });
  return { headers, ids };
}

/**
 * Writes `n` GS1-shaped events into the store as capture leaves them, in batches, and marks the
 * index built (the store's own events, if any, are not indexed again). Returns the lots' classes
 * (a MATCH_anyEPCClass of one lists its ~20 events) and the time it took.
 */
export async function fillEpcisEvents(store: Store, n: number, seed = 19): Promise<{ lots: string[]; ms: number; rows: number }> {
  const t0 = performance.now();
  const random = rng(seed);
  const lots = Math.max(1, Math.round(n / EVENTS_PER_LOT));
  const start = Date.UTC(2024, 0, 1);
  const keyTime = Date.UTC(2025, 0, 1);
  const BATCH = 5_000;
  let rows = 0;
  const paths = { h: new Set<string>(), i: new Set<string>() };
  for (let first = 0; first < n; first += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, n - first) }, (_, k) => gs1Event(first + k, lots, start, random));
    const { headers, ids } = capturedDocs(events, keyTime, first, new Date(keyTime).toISOString());
    // Array paths are few and the same in every batch: the first batch names them all.
    if (first === 0) {
      for (const d of headers) for (const p of arrayPaths(d)) paths.h.add(p);
      for (const d of ids) for (const p of arrayPaths(d)) paths.i.add(p);
    }
    await store.insertManyJson(EPCIS_EVENTS, headers.map((d) => ({ id: d.id as string, json: JSON.stringify(d) })), paths.h);
    // In id order: a batch's rows land in fewer pages of the primary key's B-tree.
    ids.sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
    await store.insertManyJson(EPCIS_IDS, ids.map((d) => ({ id: d.id as string, json: JSON.stringify(d) })), paths.i);
    rows += headers.length + ids.length;
  }
  await markBuilt(store, 'epcis_index');
  return { lots: lotsOf(n), ms: performance.now() - t0, rows };
}

/** The lot classes of a history of `n` events (what fillEpcisEvents returns), for a store filled earlier. */
export function lotsOf(n: number): string[] {
  return Array.from({ length: Math.max(1, Math.round(n / EVENTS_PER_LOT)) }, (_, l) => lotClass(l));
}
