import {
  assetUri, localize, type Direction, type Lang, type OperationCategory, type Registry, type TraceAnswer, type TraceEdge, type TraceFlow, type TraceLocation,
  type TraceNode, type TracePlace, type WorkflowDef,
} from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import type { Store, StoredDoc } from '../store/types';
import { ENGINE, OperationService, type Warehouse } from '../workflows/service';
import { categories } from './categories';
import { eventsOf, lotIndex, lotKeysNamed, locationIndex, type EventView } from './events';
import { Lookups } from './lookups';
import { findIn, lotMovements, storeLedger } from './reader';
import { depositNode, ibcNode, LedgerWalk, lotKey, lotNode, operationNode, type Movement } from './walk';

type Rec = Record<string, unknown>;

export interface TraceQuery {
  lot?: string;
  material?: string;
  ibc?: string;
  shipment?: string;
  direction?: Direction;
  maxDepth?: number;
}

/** The walk's bounds: deep enough for any real chain, and reported when reached. */
export const DEFAULT_DEPTH = 64;
export const MAX_DEPTH = 1000;
export const MAX_EDGES = 20_000;

/** A computed trace: the answer, and what the exports read beside it. */
export interface Trace {
  answer: TraceAnswer;
  events: EventView[];
  lookups: Lookups;
  lots: Set<string>;
  ibcSerials: Map<string, string>;
  records: Map<string, StoredDoc>;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * Trace and recall: a lot, IBC or shipment traced backward and forward through the ledger
 * (walk.ts), its nodes named and placed, the EPCIS events behind it, narrowed to the selected
 * warehouse group's deposits with the links beyond them counted.
 */
export class TraceService {
  readonly operations: OperationService;
  private readonly category: Record<string, OperationCategory>;

  constructor(private readonly reg: Registry, private readonly store: Store) {
    this.operations = new OperationService(reg, store, ENGINE);
    this.category = categories(reg);
  }

  /** The workflows a shipment identifier may name: those whose operations ship. */
  shipmentWorkflows(): WorkflowDef[] {
    return Object.values(this.reg.workflows).filter((wf) => this.category[wf.name] === 'shipment');
  }

  titleOf(wf: WorkflowDef): string {
    return this.reg.entities[wf.entity]?.titleField ?? 'id';
  }

  /** The warehouse group and the check of a deposit against it (everything, when none is selected). */
  async scope(p: AuthPrincipal): Promise<{ warehouse: Warehouse | null; visible: (deposit: string) => boolean }> {
    const warehouse = await this.operations.warehouse(p);
    return { warehouse, visible: (d) => !warehouse || warehouse.divisions.has(d) };
  }

  async trace(p: AuthPrincipal, q: TraceQuery, lang: Lang): Promise<Trace> {
    const starts = [q.lot, q.ibc, q.shipment].filter((v) => v !== undefined);
    if (starts.length !== 1) throw new ApiError('TRACE_START_REQUIRED');
    if (q.material !== undefined && q.lot === undefined) throw new ApiError('TRACE_START_REQUIRED');
    const direction = q.direction ?? 'both';
    const maxDepth = q.maxDepth ?? DEFAULT_DEPTH;
    const { warehouse, visible } = await this.scope(p);
    const walk = new LedgerWalk(storeLedger(this.store), visible, { maxDepth, maxEdges: MAX_EDGES });
    const startNodes: string[] = [];
    const extraOps = new Map<string, string>();
    let kind: TraceAnswer['start']['kind'];
    let identifier: string;
    const ibcStart = new Map<string, string>();

    if (q.lot !== undefined) {
      kind = 'lot';
      identifier = q.lot;
      const lot = await this.resolveLot(q.lot, q.material, visible, warehouse !== null);
      startNodes.push(lotNode(lot.material, q.lot));
      walk.seedPositions(lot.movements, direction);
    } else if (q.ibc !== undefined) {
      kind = 'ibc';
      identifier = q.ibc;
      const ibc = await this.startIbc(q.ibc, warehouse);
      startNodes.push(ibcNode(ibc.id));
      ibcStart.set(ibc.id, String(ibc.serial_number ?? ibc.id));
      await this.seedIbc(walk, ibc, direction);
    } else {
      kind = 'shipment';
      identifier = q.shipment!;
      for (const { wf, record } of await this.startShipments(q.shipment!, warehouse)) {
        startNodes.push(operationNode(wf.name, record.id));
        extraOps.set(record.id, wf.name);
        await walk.seedOperation(record.id, direction);
      }
    }
    await walk.run();
    return this.assemble({ walk, kind, identifier, direction, startNodes, extraOps, ibcStart, warehouse, visible, lang, maxDepth });
  }

  /**
   * A lot's movements at every deposit; 404 when it names no lot, or none the caller may see; 400
   * when it names lots of several materials the caller may see. A lot of the same number that is
   * only at deposits beyond the selected group is not theirs to know of: not counted, not named.
   */
  async resolveLot(number: string, material: string | undefined, visible: (d: string) => boolean, narrowed: boolean): Promise<{ material: string; movements: Movement[] }> {
    const all = (await lotMovements(this.store, number)).filter((m) => material === undefined || m.material === material);
    let materials = [...new Set(all.filter((m) => visible(m.deposit)).map((m) => m.material))];
    if (all.length === 0 && !narrowed) {
      // A lot on record that never moved (registered in master data): the trace is the lot alone.
      const lots = await this.store.find('lot', { filter: { number, ...(material !== undefined ? { material } : {}) }, projection: { material: 1 } });
      materials = [...new Set(lots.map((l) => String(l.material)))];
    }
    if (materials.length === 0) throw new ApiError('TRACE_LOT_NOT_FOUND', { identifier: number.slice(0, 100) });
    if (materials.length > 1) {
      const lookups = new Lookups(this.reg, this.store);
      await lookups.materialsOf(materials);
      throw new ApiError('TRACE_LOT_AMBIGUOUS', { lot: number.slice(0, 100), materials: materials.map((m) => lookups.materials.get(m)?.name ?? m).sort().join(', ') });
    }
    return { material: materials[0], movements: all.filter((m) => m.material === materials[0]) };
  }

  private async startIbc(serial: string, warehouse: Warehouse | null): Promise<StoredDoc> {
    const ibcWf = Object.values(this.reg.workflows).find((wf) => wf.entity === 'ibc_container');
    const found = await this.store.find('ibc_container', { filter: { $or: [{ serial_number: serial }, { id: serial }] }, limit: 2 });
    const ibc = found.find((d) => d.serial_number === serial) ?? found[0];
    if (!ibc || (ibcWf && !this.operations.inWarehouse(ibcWf, ibc, warehouse))) throw new ApiError('TRACE_IBC_NOT_FOUND', { identifier: serial.slice(0, 100) });
    return ibc;
  }

  /**
   * An IBC's journey: the operations that filled it (walked backward, for what was put in it)
   * and those that carried its content on (walked forward), read from its log and their events.
   */
  private async seedIbc(walk: LedgerWalk, ibc: StoredDoc, direction: Direction): Promise<void> {
    const log = await this.store.find('ibc_event', { filter: { record: ibc.id }, projection: { operation: 1 } });
    const ops = [...new Set([ibc.id, ...log.map((r) => text((r.operation as Rec | undefined)?.id)).filter((x): x is string => x !== undefined)])];
    const me = assetUri('ibc_container', String(ibc.serial_number ?? ''));
    const events = (await eventsOf(this.store, ops)).filter((e) => (e.epcis.epcList as unknown[] | undefined)?.includes(me) && e.elements.length > 0);
    for (const e of events) {
      const keys = await lotKeysNamed(this.store, e.elements.map((el) => el.epcClass));
      if (keys.size === 0) continue;
      if (e.bizStep === 'packing') { if (direction !== 'forward') await walk.seedOperation(e.operation.id, 'backward', keys); }
      else if (direction !== 'backward') await walk.seedOperation(e.operation.id, 'forward', keys);
    }
  }

  private async startShipments(v: string, warehouse: Warehouse | null): Promise<{ wf: WorkflowDef; record: StoredDoc }[]> {
    const out: { wf: WorkflowDef; record: StoredDoc }[] = [];
    for (const wf of this.shipmentWorkflows()) {
      const found = await this.store.find(wf.entity, { filter: { $or: [{ id: v }, { [this.titleOf(wf)]: v }] }, limit: 5 });
      for (const record of found) if (this.operations.inWarehouse(wf, record, warehouse)) out.push({ wf, record });
    }
    if (out.length === 0) throw new ApiError('TRACE_SHIPMENT_NOT_FOUND', { identifier: v.slice(0, 100) });
    return out;
  }

  /** Records of the operations, by id: each workflow's entity read in batches. */
  async records(ops: ReadonlyMap<string, string>): Promise<Map<string, StoredDoc>> {
    const byWorkflow = new Map<string, string[]>();
    for (const [id, wf] of ops) byWorkflow.set(wf, [...(byWorkflow.get(wf) ?? []), id]);
    const out = new Map<string, StoredDoc>();
    for (const [wf, ids] of byWorkflow) {
      const entity = this.reg.workflows[wf]?.entity;
      if (!entity) continue;
      for (const r of await findIn(this.store, entity, 'id', ids)) out.set(r.id, r);
    }
    return out;
  }

  /** Top-level references of an operation's entity to companies and countries: supplier, customer, origin, destination. */
  private partiesOf(workflow: string, record: StoredDoc | undefined, to: 'company' | 'country', visible: (d: string) => boolean): { id: string; role: string }[] {
    const wf = this.reg.workflows[workflow];
    const def = this.reg.entities[wf?.entity ?? ''];
    if (!def || !record) return [];
    // A shipment to a deposit the caller may not see names no one: its receiver is beyond their access.
    if (wf.depositFields.some((f) => { const d = text(record[f]); return d !== undefined && !visible(d); })) return [];
    return def.fields.filter((f) => f.type === 'reference' && f.ref === to && !f.multiple).flatMap((f) => {
      const id = text(record[f.id]);
      return id ? [{ id, role: f.id }] : [];
    });
  }

  private async assemble(a: {
    walk: LedgerWalk; kind: TraceAnswer['start']['kind']; identifier: string; direction: Direction; startNodes: string[]; extraOps: Map<string, string>;
    ibcStart: Map<string, string>; warehouse: Warehouse | null; visible: (d: string) => boolean; lang: Lang; maxDepth: number;
  }): Promise<Trace> {
    const { walk, lang } = a;
    let edges = walk.edges;
    const ops = new Map<string, string>([...a.extraOps]);
    for (const o of walk.operations.values()) ops.set(o.id, o.workflow);
    const records = await this.records(ops);
    const lookups = new Lookups(this.reg, this.store);

    const lots = new Set<string>();
    for (const e of edges) lots.add(`${e.material}|${e.lot}`);
    for (const s of a.startNodes) if (s.startsWith('lot:')) lots.add(s.slice(4));
    const deposits = new Set(edges.map((e) => e.deposit));
    // Where each operation happened: its first deposit field the caller may see.
    const opDeposit = new Map<string, string>();
    const edgeDeposit = new Map<string, string>();
    const edgeUnit = new Map<string, string>();
    for (const e of edges) {
      if (!edgeDeposit.has(e.operation.id)) edgeDeposit.set(e.operation.id, e.deposit);
      if (e.unit !== undefined) edgeUnit.set(`${e.operation.id}|${e.material}|${e.lot}`, e.unit);
    }
    for (const [id, wf] of ops) {
      const def = this.reg.workflows[wf];
      const r = records.get(id);
      const own = def?.depositFields.map((f) => text(r?.[f])).find((d) => d !== undefined && a.visible(d))
        ?? (this.category[wf] === 'container' ? text(r?.deposit_id) : undefined);
      const at = own && a.visible(own) ? own : edgeDeposit.get(id);
      if (at) { opDeposit.set(id, at); deposits.add(at); }
    }
    const companyIds: string[] = [];
    const countryIds: string[] = [];
    for (const [id, wf] of ops) {
      const cat = this.category[wf];
      if (cat !== 'import' && cat !== 'shipment') continue;
      companyIds.push(...this.partiesOf(wf, records.get(id), 'company', a.visible).map((x) => x.id));
      countryIds.push(...this.partiesOf(wf, records.get(id), 'country', a.visible).map((x) => x.id));
    }
    await Promise.all([
      lookups.materialsOf([...lots].map((k) => k.slice(0, k.indexOf('|')))),
      lookups.unitsOf(edges.map((e) => e.unit).filter((u): u is string => u !== undefined)),
      lookups.depositsOf(deposits),
      lookups.countriesOf(countryIds),
      lookups.lotsOf(lots),
    ]);
    await lookups.companiesOf(companyIds);

    // The events behind the trace: of its operations, where the caller may see, naming its lots or IBCs.
    const all = ops.size ? await eventsOf(this.store, [...ops.keys()]) : [];
    await lookups.depositsAt(all.flatMap((e) => [e.readPoint, e.bizLocation, e.source, e.destination].filter((u): u is string => u !== undefined)), a.visible);
    const lotOf = lotIndex(lots, lookups);
    const where = locationIndex(lookups);
    const seen = (e: EventView) => {
      if (!a.warehouse) return true;
      const loc = e.readPoint ?? e.bizLocation;
      if (loc === undefined) return true;
      const d = where.get(loc);
      return d !== undefined && a.visible(d);
    };
    const serials = new Set<string>(a.ibcStart.values());
    for (const e of all) for (const x of e.assets) if (x.entity === 'ibc_container') serials.add(x.value);
    const ibcs = serials.size ? await findIn(this.store, 'ibc_container', 'serial_number', [...serials], {}, { id: 1, serial_number: 1, deposit_id: 1 }) : [];
    const ibcBySerial = new Map(ibcs.map((d) => [String(d.serial_number), d]));
    const ibcSerials = new Map<string, string>(a.ibcStart);

    // An IBC's content: filled by an operation (packing), carried into the next ones.
    const ibcEdges = new Map<string, TraceEdge>();
    const events: EventView[] = [];
    for (const e of all) {
      if (!seen(e)) continue;
      const named = e.elements.map((el) => ({ el, key: lotOf(el.epcClass) })).filter((x) => x.key !== undefined) as { el: EventView['elements'][number]; key: string }[];
      const mine = e.assets.filter((x) => x.entity === 'ibc_container' && ibcBySerial.has(x.value) && (named.length > 0 || a.ibcStart.has(ibcBySerial.get(x.value)!.id)));
      if (named.length === 0 && mine.length === 0) continue;
      events.push(e);
      for (const x of mine) {
        const ibc = ibcBySerial.get(x.value)!;
        ibcSerials.set(ibc.id, x.value);
        for (const { el, key } of named) {
          const fill = e.bizStep === 'packing';
          const kind = fill ? 'filled' : 'carried';
          const id = `${kind}|${e.operation.id}|${key}|${ibc.id}`;
          if (ibcEdges.has(id)) continue;
          const op = operationNode(e.operation.workflow, e.operation.id);
          const unit = edgeUnit.get(`${e.operation.id}|${key}`) ?? el.uom;
          const [material, lot] = [key.slice(0, key.indexOf('|')), key.slice(key.indexOf('|') + 1)];
          ibcEdges.set(id, {
            id, kind, from: fill ? op : ibcNode(ibc.id), to: fill ? ibcNode(ibc.id) : op, material, lot, quantity: el.quantity, ...(unit ? { unit } : {}),
            deposit: opDeposit.get(e.operation.id) ?? '', at: e.at, operation: { ...e.operation },
          });
        }
      }
    }
    // A lot carried in IBCs goes into the operation through them, not around them.
    const carried = new Set([...ibcEdges.values()].filter((e) => e.kind === 'carried').map((e) => `${e.operation.id}|${e.material}|${e.lot}`));
    edges = [...edges.filter((e) => !(e.kind === 'consumed' && carried.has(`${e.operation.id}|${e.material}|${e.lot}`))), ...ibcEdges.values()];
    const ibcFill = new Map<string, string>();
    for (const e of ibcEdges.values()) if (e.kind === 'filled' && e.deposit) ibcFill.set(e.to, e.deposit);

    const nodes = new Map<string, TraceNode>();
    const place = (deposit: string | undefined) => (deposit ? lookups.deposits.get(deposit)?.location : undefined);
    const withPlace = (n: TraceNode, deposit: string | undefined): TraceNode => {
      const loc = place(deposit);
      return { ...n, ...(deposit ? { deposit } : {}), ...(loc ? { location: loc } : {}) };
    };
    const lotPlace = new Map<string, string>();
    for (const e of edges) if (e.kind === 'produced') lotPlace.set(e.to, lotPlace.get(e.to) ?? e.deposit);
    for (const e of edges) if (e.kind === 'consumed') lotPlace.set(e.from, lotPlace.get(e.from) ?? e.deposit);
    for (const key of lots) {
      const [material, lot] = [key.slice(0, key.indexOf('|')), key.slice(key.indexOf('|') + 1)];
      const m = lookups.materials.get(material);
      const id = lotNode(material, lot);
      const dates = lookups.lots.get(key) ?? {};
      nodes.set(id, withPlace({
        id, kind: 'lot', label: `${m?.name ?? material} · ${lot}`, material, materialName: m?.name ?? material, ...(m?.gtin ? { gtin: m.gtin } : {}), lot, ...dates,
      }, lotPlace.get(id)));
    }
    for (const [id, wf] of ops) {
      const r = records.get(id);
      const def = this.reg.workflows[wf];
      const cat = this.category[wf] ?? 'operation';
      const document = def ? text(r?.[this.titleOf(def)]) : undefined;
      const stateId = def ? text(r?.[def.stateField]) : undefined;
      const state = def?.states.find((s) => s.id === stateId);
      const date = def ? text(r?.[def.dateField]) : undefined;
      const parties = cat === 'import' || cat === 'shipment';
      const companies = parties ? this.partiesOf(wf, r, 'company', a.visible).map((x) => ({ ...x, name: lookups.companies.get(x.id)?.name ?? x.id })) : [];
      const countries = parties ? this.partiesOf(wf, r, 'country', a.visible).map((x) => ({ ...x, name: lookups.countries.get(x.id) ?? x.id })) : [];
      const label = def ? `${localize(def.label, lang)} ${document ?? ''}`.trim() : wf;
      const nid = operationNode(wf, id);
      nodes.set(nid, withPlace({
        id: nid, kind: 'operation', label, workflow: wf, workflowLabel: def ? localize(def.label, lang) : wf, record: id, category: cat,
        ...(document ? { document } : {}), ...(date ? { date: date.slice(0, 10) } : {}), ...(state ? { state: localize(state.label, lang) } : {}),
        ...(companies.length ? { companies } : {}), ...(countries.length ? { countries } : {}),
      }, opDeposit.get(id)));
    }
    for (const e of edges) {
      if (e.kind !== 'arrived' || nodes.has(e.to)) continue;
      const d = lookups.deposits.get(e.deposit);
      const company = d?.company ? lookups.companies.get(d.company) : undefined;
      nodes.set(e.to, withPlace({ id: e.to, kind: 'deposit', label: lookups.depositName(e.deposit), ...(company ? { company: company.id, companyName: company.name } : {}) }, e.deposit));
    }
    for (const [id, serial] of ibcSerials) {
      const nid = ibcNode(id);
      nodes.set(nid, withPlace({ id: nid, kind: 'ibc', label: `IBC ${serial}`, serial, record: id }, ibcFill.get(nid)));
    }
    for (const s of a.startNodes) { const n = nodes.get(s); if (n) n.start = true; }
    let beyondNodes = 0;
    let links = 0;
    for (const [id, set] of walk.beyond) {
      links += set.size;
      const n = nodes.get(id);
      if (n) { n.beyond = set.size; beyondNodes++; }
    }

    const answerEdges = edges.map((e) => ({ ...e, unit: lookups.unit(e.unit) })).sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : x.id < y.id ? -1 : 1));
    const { places, flows } = this.map(nodes, answerEdges, lookups);
    const answer: TraceAnswer = {
      start: { kind: a.kind, nodes: a.startNodes, identifier: a.identifier },
      direction: a.direction,
      nodes: [...nodes.values()],
      edges: answerEdges,
      places,
      flows,
      summary: this.summary(nodes, answerEdges, lookups, events.length),
      boundary: { links, nodes: beyondNodes, warehouse: a.warehouse?.name ?? null },
      limits: { maxDepth: a.maxDepth, depth: walk.depth, truncated: walk.truncated },
    };
    return { answer, events, lookups, lots, ibcSerials, records };
  }

  /** The located places (deposits, and the companies of imports and exports) and the flows of goods between them. */
  private map(nodes: Map<string, TraceNode>, edges: TraceAnswer['edges'], lookups: Lookups): { places: TracePlace[]; flows: TraceFlow[] } {
    const places = new Map<string, TracePlace>();
    const at = (id: string, kind: TracePlace['kind'], label: string, location: TraceLocation | undefined, node?: string) => {
      if (!location) return undefined;
      let p = places.get(id);
      if (!p) places.set(id, (p = { id, kind, label, location, nodes: [] }));
      if (node && !p.nodes.includes(node)) p.nodes.push(node);
      return p;
    };
    for (const n of nodes.values()) if (n.deposit) at(`deposit:${n.deposit}`, 'deposit', lookups.depositName(n.deposit), n.location, n.id);
    const flows: TraceFlow[] = [];
    const delivered = new Set(edges.filter((x) => x.kind === 'arrived').map((x) => x.from));
    for (const e of edges) {
      const op = nodes.get(e.kind === 'arrived' || e.kind === 'produced' || e.kind === 'filled' ? e.from : e.to);
      if (!op || op.kind !== 'operation') continue;
      if (e.kind === 'arrived' && op.deposit && op.deposit !== e.deposit) {
        const from = at(`deposit:${op.deposit}`, 'deposit', lookups.depositName(op.deposit), op.location);
        const to = at(`deposit:${e.deposit}`, 'deposit', lookups.depositName(e.deposit), lookups.deposits.get(e.deposit)?.location);
        if (from && to) flows.push({ from: from.id, to: to.id, material: e.material, lot: e.lot, quantity: e.quantity, unit: e.unit, operation: op.id });
      }
      // Where an import came from (its supplier) and an export went (its customer), when they are located.
      const inbound = op.category === 'import' && e.kind === 'produced';
      const outbound = op.category === 'shipment' && e.kind === 'consumed' && !delivered.has(op.id);
      if (!op.deposit || !op.location || !(inbound || outbound)) continue;
      for (const c of op.companies ?? []) {
        const company = lookups.companies.get(c.id);
        if (!company?.location) continue;
        const p = at(`company:${c.id}`, 'company', company.name, company.location, op.id)!;
        const here = at(`deposit:${op.deposit}`, 'deposit', lookups.depositName(op.deposit), op.location)!;
        const [from, to] = inbound ? [p, here] : [here, p];
        flows.push({ from: from.id, to: to.id, material: e.material, lot: e.lot, quantity: e.quantity, unit: e.unit, operation: op.id });
      }
    }
    return { places: [...places.values()], flows };
  }

  private summary(nodes: Map<string, TraceNode>, edges: TraceAnswer['edges'], lookups: Lookups, events: number): TraceAnswer['summary'] {
    const list = [...nodes.values()];
    const named = (ids: Iterable<string>, name: (id: string) => string) => [...new Set(ids)].map((id) => ({ id, name: name(id) })).sort((x, y) => x.name.localeCompare(y.name));
    const ops = list.filter((n) => n.kind === 'operation');
    // Customers: the companies shipments reached other than the senders' own.
    const senders = new Set(ops.filter((n) => n.category === 'shipment' && n.deposit).map((n) => lookups.deposits.get(n.deposit!)?.company).filter(Boolean));
    const reached = edges.filter((e) => e.kind === 'arrived').map((e) => lookups.deposits.get(e.deposit)?.company).filter((c): c is string => c !== undefined && !senders.has(c));
    const exported = ops.filter((n) => n.category === 'shipment').flatMap((n) => (n.companies ?? []).map((c) => c.id)).filter((c) => !senders.has(c));
    const suppliers = ops.filter((n) => n.category === 'import').flatMap((n) => (n.companies ?? []).map((c) => c.id));
    const countries = ops.flatMap((n) => (n.countries ?? []).map((c) => c.id));
    return {
      lots: list.filter((n) => n.kind === 'lot').length,
      operations: ops.length,
      shipments: ops.filter((n) => n.category === 'shipment').length,
      ibcs: list.filter((n) => n.kind === 'ibc').length,
      deposits: new Set(list.map((n) => n.deposit).filter(Boolean)).size,
      events,
      customers: named([...reached, ...exported], (id) => lookups.companies.get(id)?.name ?? id),
      suppliers: named(suppliers, (id) => lookups.companies.get(id)?.name ?? id),
      countries: named(countries, (id) => lookups.countries.get(id) ?? id),
    };
  }
}

export { depositNode, lotKey };
