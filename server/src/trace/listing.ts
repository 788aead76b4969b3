import {
  locationUri, localize, type HistoryStep, type Lang, type LotHistory, type Registry, type SearchHit, type TraceRow,
} from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import { MOVEMENTS } from '../ledger/ledger';
import type { Filter, SortSpec, Store, StoredDoc } from '../store/types';
import { EVENT_COLLECTIONS, lotIndex, lotKeysNamed, viewOf, type EventView } from './events';
import { Lookups } from './lookups';
import { findIn } from './reader';
import { eventRows } from './rows';
import type { TraceService } from './service';

const SEARCH_LIMIT = 8;

/** Lots, IBCs and shipments whose number contains the text, among those the caller may see. */
export async function searchTraceable(reg: Registry, store: Store, service: TraceService, p: AuthPrincipal, q: string, lang: Lang): Promise<{ data: SearchHit[] }> {
  const text = q.trim();
  if (text.length < 2) return { data: [] };
  const { warehouse } = await service.scope(p);
  const hits: SearchHit[] = [];

  const lots = await store.find('lot', { search: text, limit: 50, projection: { number: 1, material: 1 } });
  const exact = await store.find('lot', { filter: { number: text }, limit: 10, projection: { number: 1, material: 1 } });
  const candidates = [...new Map([...exact, ...lots].map((l) => [`${String(l.material)}|${String(l.number)}`, l])).values()];
  let keep = candidates;
  if (warehouse && candidates.length) {
    const seen = await findIn(store, MOVEMENTS, 'batch', [...new Set(candidates.map((l) => String(l.number)))], { deposit: { $in: [...warehouse.divisions] } }, { material: 1, batch: 1 });
    const ok = new Set(seen.map((m) => `${String(m.material)}|${String(m.batch)}`));
    keep = candidates.filter((l) => ok.has(`${String(l.material)}|${String(l.number)}`));
  }
  const lookups = new Lookups(reg, store);
  await lookups.materialsOf(keep.map((l) => String(l.material)));
  for (const l of keep.slice(0, SEARCH_LIMIT)) {
    const name = lookups.materials.get(String(l.material))?.name ?? String(l.material);
    hits.push({ kind: 'lot', label: String(l.number), detail: name, lot: String(l.number), material: String(l.material) });
  }

  const ibcWf = Object.values(reg.workflows).find((wf) => wf.entity === 'ibc_container');
  const ibcScope = ibcWf ? service.operations.warehouseFilter(ibcWf, warehouse) : undefined;
  for (const i of await store.find('ibc_container', { search: text, ...(ibcScope ? { filter: ibcScope } : {}), limit: SEARCH_LIMIT, projection: { serial_number: 1, status: 1 } })) {
    hits.push({ kind: 'ibc', label: String(i.serial_number ?? i.id), detail: 'IBC', ibc: String(i.serial_number ?? i.id) });
  }

  for (const wf of service.shipmentWorkflows()) {
    const scope = service.operations.warehouseFilter(wf, warehouse);
    const title = service.titleOf(wf);
    for (const r of await store.find(wf.entity, { search: text, ...(scope ? { filter: scope } : {}), limit: SEARCH_LIMIT, projection: { [title]: 1, [wf.dateField]: 1 } })) {
      const date = typeof r[wf.dateField] === 'string' ? ` · ${String(r[wf.dateField]).slice(0, 10)}` : '';
      hits.push({ kind: 'shipment', label: String(r[title] ?? r.id), detail: `${localize(wf.label, lang)}${date}`, shipment: r.id });
    }
  }
  return { data: hits };
}

/** A lot's story in time order, from the ledger: where it was made, moved, used; deposits beyond the caller's access counted, not shown. */
export async function lotHistory(reg: Registry, store: Store, service: TraceService, p: AuthPrincipal, q: { lot: string; material?: string }, lang: Lang): Promise<LotHistory> {
  const { warehouse, visible } = await service.scope(p);
  const { material, movements } = await service.resolveLot(q.lot, q.material, visible, warehouse !== null);
  const shown = movements.filter((m) => visible(m.deposit));
  const lookups = new Lookups(reg, store);
  const ops = new Map(shown.map((m) => [m.operation.id, m.operation.workflow]));
  const [records] = await Promise.all([service.records(ops), lookups.materialsOf([material]), lookups.depositsOf(shown.map((m) => m.deposit)), lookups.lotsOf([`${material}|${q.lot}`]),
    lookups.unitsOf(shown.map((m) => m.unit).filter((u): u is string => u !== undefined))]);
  const steps = new Map<string, HistoryStep>();
  const sorted = [...shown].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
  let balance = 0;
  for (const m of sorted) {
    balance = Math.round((balance + m.quantity) * 1e9) / 1e9;
    const key = `${m.operation.id}|${m.operation.transition}|${m.deposit}|${m.quantity < 0 ? '-' : '+'}`;
    const s = steps.get(key);
    if (s) { s.quantity = Math.round((s.quantity + m.quantity) * 1e9) / 1e9; s.balance = balance; continue; }
    const wf = reg.workflows[m.operation.workflow];
    const r = records.get(m.operation.id);
    steps.set(key, {
      at: m.at, date: m.at.slice(0, 10), workflow: m.operation.workflow, operation: wf ? localize(wf.label, lang) : m.operation.workflow, record: m.operation.id,
      document: wf ? String(r?.[service.titleOf(wf)] ?? '') : '', transition: lookups.transitionLabel(m.operation.workflow, m.operation.transition, lang),
      deposit: m.deposit, depositName: lookups.depositName(m.deposit), quantity: m.quantity, unit: lookups.unit(m.unit), balance,
    });
  }
  const m = lookups.materials.get(material);
  return {
    lot: { material, materialName: m?.name ?? material, ...(m?.gtin ? { gtin: m.gtin } : {}), lot: q.lot, ...(lookups.lots.get(`${material}|${q.lot}`) ?? {}) },
    steps: [...steps.values()],
    beyond: new Set(movements.filter((x) => !visible(x.deposit)).map((x) => x.deposit)).size,
    warehouse: warehouse?.name ?? null,
  };
}

/** The furthest an events page may reach into the merged list: deeper, narrow by date. */
export const MAX_EVENT_OFFSET = 10_000;

const EVENT_SORTS: Record<string, string> = { time: 'event_time', bizStep: 'biz_step', disposition: 'disposition' };
export const EVENT_SORT_COLUMNS = Object.keys(EVENT_SORTS);

/**
 * Every event (both collections, merged in one order), a page at a time, narrowed to the events
 * read at the selected group's deposits; each event's rows (one per lot it names). `total`
 * counts events.
 */
export async function allEvents(
  reg: Registry, store: Store, service: TraceService, p: AuthPrincipal, q: { page?: number; pageSize?: number; sort?: string; from?: string; to?: string }, lang: Lang,
): Promise<{ data: TraceRow[]; total: number; page: number; pageSize: number }> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  if (page * pageSize > MAX_EVENT_OFFSET) throw new ApiError('INVALID_REQUEST', { detail: `a page may reach at most ${MAX_EVENT_OFFSET} events in; narrow the list by date` });
  const desc = (q.sort ?? '-time').startsWith('-');
  const column = (q.sort ?? '-time').replace(/^-/, '');
  const field = EVENT_SORTS[column];
  if (!field) throw new ApiError('INVALID_REQUEST', { detail: `events sort by ${EVENT_SORT_COLUMNS.join(', ')}` });
  const { warehouse, visible } = await service.scope(p);
  const and: Filter[] = [];
  if (warehouse) {
    const divisions = await findIn(store, 'company_division', 'id', [...warehouse.divisions], {}, { id: 1, gln: 1 });
    const uris = divisions.flatMap((d) => [locationUri(d.id), ...(typeof d.gln === 'string' && d.gln ? [locationUri(d.id, { deposits: { [d.id]: { gln: d.gln } } })] : [])]);
    and.push({ $or: [{ read_point: { $in: uris } }, { business_location: { $in: uris } }] });
  }
  if (q.from) and.push({ event_time: { $gte: q.from } });
  if (q.to) and.push({ event_time: { $lte: q.to.length === 10 ? `${q.to}T23:59:59.999Z` : q.to } });
  const filter = and.length === 0 ? {} : and.length === 1 ? and[0] : { $and: and };
  const sort: SortSpec = { [field]: desc ? -1 : 1, id: desc ? -1 : 1 };
  const reach = page * pageSize;
  const parts = await Promise.all(EVENT_COLLECTIONS.map(async (coll) => ({
    docs: (await store.find(coll, { filter, sort, limit: reach })).map((d) => viewOf(d, coll)),
    total: await store.count(coll, filter),
  })));
  const key = (e: EventView) => String((e.doc as StoredDoc)[field] ?? '');
  const merged = parts.flatMap((x) => x.docs).sort((a, b) => {
    const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0;
    return desc ? -c : c;
  });
  const events = merged.slice((page - 1) * pageSize, reach);
  const lookups = new Lookups(reg, store);
  const keys = await lotKeysNamed(store, events.flatMap((e) => e.elements.map((el) => el.epcClass)));
  const ops = new Map(events.filter((e) => e.operation.id && Object.hasOwn(reg.workflows, e.operation.workflow)).map((e) => [e.operation.id, e.operation.workflow] as const));
  const [records] = await Promise.all([
    service.records(ops), lookups.materialsOf([...keys].map((k) => k.slice(0, k.indexOf('|')))),
    lookups.depositsAt(events.flatMap((e) => [e.readPoint, e.bizLocation, e.source, e.destination].filter((u): u is string => u !== undefined)), visible),
  ]);
  await lookups.unitsOf([...lookups.materials.values()].map((m) => m.uom).filter((u): u is string => u !== undefined));
  const data = eventRows(reg, {
    events, lotOf: lotIndex(keys, lookups), ibcs: new Set(events.flatMap((e) => e.assets.filter((x) => x.entity === 'ibc_container').map((x) => x.value))),
    operation: (workflow, id) => {
      const wf = reg.workflows[workflow];
      const r = records.get(id);
      return wf ? { workflowLabel: localize(wf.label, lang), document: String(r?.[service.titleOf(wf)] ?? '') || undefined } : undefined;
    },
    unit: () => undefined,
  }, lookups, lang, visible);
  return { data, total: parts.reduce((n, x) => n + x.total, 0), page, pageSize };
}
