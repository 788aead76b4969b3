import {
  availableTransitions, canAccess, DEFAULT_PAGE_SIZE, deriveFields, ERRORS, formatError, formOf, HISTORY_FIELD, localize, referenceSites, planTransition, stampCreate, stampUpdate, type ErrorCode, type Lang,
  type PlanLookup, type Registry, type TransitionDef, type TransitionPlan, type WorkflowDef,
} from '../../../engine/src/index';
import { sortablePaths } from '../../../engine/src/list/index';
import { ApiError, type ErrorDetail } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import { strings } from '../auth/policy';
import { checkedDate, endOf } from '../ledger/stock';
import { ReferenceResolver } from '../masterdata/references';
import { MasterDataService } from '../masterdata/service';
import { buildListQuery } from '../masterdata/query';
import { getPath } from '../store/docs';
import type { Doc, Filter, Store, StoredDoc } from '../store/types';
import { transitionKeys, workflowKeys } from '../../../engine/src/workflow/access';
import { WriteHooks } from '../records/writeHooks';
import { TransitionApplier, type TransitionExtra } from './apply';
import { draftDepositFields, fieldError, LineChecks, linesOf } from './lines';
import { withLineKeys } from './lineKeys';
import { checkRegistered } from './registered';
import { placesOf, relatedRecords, type Touched } from './related';
import { checkUniqueValues } from './unique';

type Rec = Record<string, unknown>;

/** The engine's interpreter (engine/src/workflow/plan.ts); a test may stand in its own. */
export interface WorkflowEngine {
  planTransition: typeof planTransition;
  availableTransitions: typeof availableTransitions;
}
export const ENGINE: WorkflowEngine = { planTransition, availableTransitions };

export interface OperationListQuery {
  state?: string;
  from?: string;
  to?: string;
  deposit?: string;
  depositField?: string;
  q?: string;
  sync?: 'pending' | 'synced' | 'failed';
  page?: number;
  pageSize?: number;
  sort?: string;
}

/**
 * What a caller (the mobile API) adds to a draft's creation or a transition, written in the same
 * write: `set` fields on the record, `companions` made from the record as written, `check` run in
 * the same exclusive section before any write; a draft's `id` chosen by the client; `fill`, values
 * of paths the transition requires (not its input) merged into a record still in its initial
 * state before planning, checked as a draft edit is.
 */
export interface OperationExtra extends TransitionExtra {
  id?: string;
  fill?: Rec;
  check?: (s: Store) => Promise<void>;
}

/** The selected warehouse group and the divisions it holds. */
export interface Warehouse {
  name: string;
  divisions: ReadonlySet<string>;
  /** The companies those divisions belong to: records they own are in the group wherever they are (`ownerField`). */
  companies: ReadonlySet<string>;
}

/** What the engine throws (WorkflowError): an error code of the catalogue with its params. */
function asApiError(e: unknown): ApiError | undefined {
  if (!(e instanceof Error) || (e as { name?: string }).name !== 'WorkflowError') return undefined;
  const { code, params, field } = e as Error & { code: string; params?: Rec; field?: string };
  if (!Object.hasOwn(ERRORS, code)) return undefined;
  return field ? fieldError(code as ErrorCode, params ?? {}, field) : new ApiError(code as ErrorCode, params ?? {});
}

/**
 * Operations, generic over every workflow: list narrowed by the selected warehouse, drafts
 * created and edited through the record pipeline, transitions planned by the engine and
 * applied all or nothing.
 */
export class OperationService {
  readonly applier: TransitionApplier;
  private readonly md: MasterDataService;
  private readonly lines: LineChecks;

  /** `clock`: when things happen; the demo activity plays a past year through it, everything else uses the real time. */
  /** `hooks`: the app's derived fields (writeHooks.ts), current in every record a draft or a transition writes. */
  constructor(
    private readonly reg: Registry, private readonly store: Store, private readonly engine: WorkflowEngine, private readonly clock: () => Date = () => new Date(),
    private readonly hooks: WriteHooks = new WriteHooks(),
  ) {
    this.applier = new TransitionApplier(reg, store, hooks);
    this.md = new MasterDataService(reg, store, hooks);
    this.lines = new LineChecks(reg, store);
  }

  workflow(name: string): WorkflowDef {
    const wf = Object.hasOwn(this.reg.workflows, name) ? this.reg.workflows[name] : undefined;
    if (!wf) throw new ApiError('UNKNOWN_WORKFLOW', { workflow: name.slice(0, 60) });
    return wf;
  }

  private superadmin(p: AuthPrincipal): boolean {
    return p.access.includes(this.reg.access.superadmin);
  }

  /** Whether the user may take a transition: its own key, or a key listing one of its operations (the route's check too). */
  private mayTake(p: AuthPrincipal, t: TransitionDef): boolean {
    return transitionKeys(this.reg, t).some((key) => canAccess(p, { key }, this.reg.access.superadmin));
  }

  /** The selected warehouse group (null when none is selected); 403 when the user is not a member. */
  async warehouse(p: AuthPrincipal): Promise<Warehouse | null> {
    const name = p.selectedWarehouse;
    if (!name) return null;
    const member = this.superadmin(p) || p.groups.some((g) => g.name === name);
    const [group] = member ? await this.store.find('group', { filter: { name, state: { $ne: 3 } }, limit: 1 }) : [];
    if (!group) throw new ApiError('WAREHOUSE_NOT_YOURS', { warehouse: name.slice(0, 100) });
    const divisions = new Set(strings(group.warehouses));
    const owners = divisions.size ? await this.store.find('company_division', { filter: { id: { $in: [...divisions] } }, projection: { company_id: 1 } }) : [];
    return { name, divisions, companies: new Set(strings(owners.map((d) => d.company_id))) };
  }

  /**
   * What keeps a workflow's records (or a report's source records) in the selected warehouse
   * group: one of `fields` names one of its deposits, or the record's owner (`ownerField`) is one
   * of their companies. Undefined: no narrowing (no group selected, or nothing naming a deposit,
   * like return requests).
   */
  warehouseFilter(wf: Pick<WorkflowDef, 'depositFields' | 'ownerField'>, warehouse: Warehouse | null, fields: readonly string[] = wf.depositFields): Filter | undefined {
    if (!warehouse || fields.length === 0) return undefined;
    const ors: Filter[] = fields.map((f) => ({ [f]: { $in: [...warehouse.divisions] } }));
    if (wf.ownerField) ors.push({ [wf.ownerField]: { $in: [...warehouse.companies] } });
    return ors.length === 1 ? ors[0] : { $or: ors };
  }

  private depositFieldsOf(wf: WorkflowDef, field: string | undefined): readonly string[] {
    if (field === undefined) return wf.depositFields;
    if (!wf.depositFields.includes(field)) throw new ApiError('INVALID_REQUEST', { detail: `depositField must be one of ${wf.depositFields.join(', ')}` });
    return [field];
  }

  /** A workflow naming no deposit (return requests) is not narrowed by the selected warehouse. */
  inWarehouse(wf: WorkflowDef, record: Rec, warehouse: Warehouse | null): boolean {
    if (!warehouse || wf.depositFields.length === 0) return true;
    if (wf.ownerField && warehouse.companies.has(String(getPath(record, wf.ownerField) ?? ''))) return true;
    return wf.depositFields.some((f) => warehouse.divisions.has(String(getPath(record, f) ?? '')));
  }

  /** `extra`: conditions a capability adds to the generic ones (the IBC fleet's customer, fill count and age). */
  async list(name: string, query: OperationListQuery, p: AuthPrincipal, extra: readonly Filter[] = []): Promise<{ data: Rec[]; total: number; page: number; pageSize: number }> {
    const wf = this.workflow(name);
    const def = this.md.entity(wf.entity);
    const warehouse = await this.warehouse(p);
    const fields = this.depositFieldsOf(wf, query.depositField);
    const sort = query.sort ?? (sortablePaths(this.reg, def).has(wf.dateField) ? `-${wf.dateField}` : undefined);
    const base = buildListQuery(this.reg, def, { q: query.q, page: query.page, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE, sort });
    const and: Filter[] = [...extra];
    const anyOf = (ors: Filter[]) => and.push(ors.length === 1 ? ors[0] : { $or: ors });
    if (query.state) and.push({ [wf.stateField]: { $in: query.state.split(',') } });
    if (query.from) {
      const from = checkedDate(query.from);
      and.push({ [wf.dateField]: { $gte: from.dateOnly ? query.from : from.iso } });
    }
    if (query.to) and.push({ [wf.dateField]: { $lte: endOf(query.to) } });
    if (query.deposit && fields.length) anyOf([...fields].map((f) => ({ [f]: query.deposit })));
    const narrowed = this.warehouseFilter(wf, warehouse, fields);
    if (narrowed) and.push(narrowed);
    if (query.sync === 'pending') anyOf([{ 'sync.status': '' }, { 'sync.status': { $exists: false } }]);
    else if (query.sync) and.push({ 'sync.status': query.sync });
    const filter = and.length === 0 ? {} : and.length === 1 ? and[0] : { $and: and };
    const [data, total] = await Promise.all([
      this.store.find(wf.entity, { filter, search: base.search, sort: base.sort, skip: base.skip, limit: base.limit }),
      this.store.count(wf.entity, filter, { search: base.search }),
    ]);
    return { data: data.map((d) => this.md.present(def, d)), total, page: base.page, pageSize: base.pageSize };
  }

  private async existing(wf: WorkflowDef, id: string, warehouse: Warehouse | null): Promise<StoredDoc> {
    const doc = await this.store.get(wf.entity, id);
    // A record of another warehouse is not shown: the same answer as none at all.
    if (!doc || !this.inWarehouse(wf, doc, warehouse)) throw new ApiError('RECORD_NOT_FOUND', { entity: wf.entity, id: id.slice(0, 100) });
    return doc;
  }

  async get(name: string, id: string, p: AuthPrincipal, lang: Lang): Promise<{ record: Rec; transitions: Rec[] }> {
    const wf = this.workflow(name);
    const record = await this.existing(wf, id, await this.warehouse(p));
    // Every transition from the state, then those this user holds a key for (its own or one listing its operations).
    const transitions = this.engine.availableTransitions(wf, record, [...p.access], true).filter((t) => this.mayTake(p, t)).map((t) => ({
      id: t.id, label: localize(t.label, lang), to: t.to, requires: t.requires ?? [], input: t.input ?? [], comment: t.comment ?? 'none',
      allowed: t.allowed, ...(t.reason ? { reason: localize(t.reason, lang) } : {}),
    }));
    return { record: this.md.present(this.md.entity(wf.entity), record), transitions };
  }

  /** The draft checks: the record pipeline and references, the lines, and the deposits the draft's first transitions happen at. */
  private async checkedDraft(wf: WorkflowDef, body: unknown, before: StoredDoc | undefined, warehouse: Warehouse | null, lang: Lang): Promise<Rec> {
    const def = this.md.entity(wf.entity);
    // The state is the server's: a draft is in the initial state whatever the body says.
    const filled = await this.lines.withUnits(wf, await withLineKeys(this.reg, this.store, wf, body, lang, (path) => this.lines.label(wf, path, lang)));
    const draft = filled && typeof filled === 'object' && !Array.isArray(filled) ? { ...filled, [wf.stateField]: wf.initial } : filled;
    const value = await this.md.checked(def, draft, before);
    value[wf.stateField] = wf.initial;
    await this.lines.check(wf, value, lang);
    await this.lines.checkDeposits(wf, value, draftDepositFields(wf), warehouse, lang);
    await checkRegistered(this.reg, this.store, wf, value, lang);
    return value;
  }

  /** A workflow governing master data (the IBC life cycle) has no drafts: its records are created and edited in master data. */
  private drafted(name: string, lang: Lang): WorkflowDef {
    const wf = this.workflow(name);
    const def = this.md.entity(wf.entity);
    if (def.kind !== 'operation') throw new ApiError('WORKFLOW_NO_DRAFTS', { entity: localize(def.label, lang) });
    return wf;
  }

  async create(name: string, body: unknown, p: AuthPrincipal, lang: Lang, extra: OperationExtra = {}): Promise<Rec> {
    const wf = this.drafted(name, lang);
    const def = this.md.entity(wf.entity);
    const value = await this.checkedDraft(wf, body, undefined, await this.warehouse(p), lang);
    // Derived last: a server field, which the pipeline keeps from the stored record.
    const doc = this.hooks.apply(wf.entity, {
      ...deriveFields(wf, stampCreate(def, value, p.userId, this.clock().toISOString())), ...extra.set, ...(extra.id ? { id: extra.id } : {}), [HISTORY_FIELD]: [],
    } as Doc);
    if (!extra.companions && !extra.check) return this.md.present(def, await this.md.write(def, () => this.store.insert(wf.entity, doc)));
    return this.md.present(def, await this.applier.exclusive(async (s) => {
      await extra.check?.(s);
      const record = await this.md.write(def, () => s.insert(wf.entity, doc));
      for (const c of extra.companions?.(record) ?? []) await s.insert(c.coll, c.doc);
      return record;
    }));
  }

  async update(name: string, id: string, body: unknown, p: AuthPrincipal, lang: Lang): Promise<Rec> {
    const wf = this.drafted(name, lang);
    const def = this.md.entity(wf.entity);
    const warehouse = await this.warehouse(p);
    const before = await this.existing(wf, id, warehouse);
    const notDraft = (state: unknown) => new ApiError('OPERATION_NOT_DRAFT', { entity: localize(def.label, lang), state: String(state ?? ''), initial: wf.initial });
    if (before[wf.stateField] !== wf.initial) throw notDraft(before[wf.stateField]);
    const value = await this.checkedDraft(wf, body, before, warehouse, lang);
    const doc = this.hooks.apply(wf.entity, { ...deriveFields(wf, stampUpdate(this.reg, def, before, value, p.userId, this.clock().toISOString())), [wf.stateField]: wf.initial, [HISTORY_FIELD]: before[HISTORY_FIELD] ?? [] } as Doc);
    return this.md.present(def, await this.applier.exclusive(async (s) => {
      // Confirmed meanwhile: the edit would rewrite what already left the deposit.
      const now = await s.get(wf.entity, id);
      if (!now || now[wf.stateField] !== wf.initial) throw notDraft(now?.[wf.stateField]);
      return this.md.write(def, () => s.update(wf.entity, id, doc));
    }));
  }

  /**
   * What planning needs to know: the records the transition takes along (transitionRecords) and
   * where they are; for events, the GTIN, unit and name of the materials and the GLN and name of
   * the deposits of every record it touches.
   */
  private async lookup(wf: WorkflowDef, t: TransitionDef, record: Rec, input: Rec | undefined): Promise<PlanLookup> {
    const { records, touched } = await relatedRecords(this.reg, this.store, wf, t, record, input);
    const ids = (pick: (x: Touched) => unknown[]) => [...new Set(touched.flatMap(pick).filter((v): v is string => typeof v === 'string' && v !== ''))];
    const materialIds = ids(({ wf: w, record: r }) => (w.lines ? linesOf(r, w.lines).map((l) => getPath(l, w.lines!.material)) : []));
    const depositIds = ids(({ wf: w, record: r }) => w.depositFields.map((f) => getPath(r, f)));
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    const [materials, deposits] = await Promise.all([
      materialIds.length ? this.store.find('material', { filter: { id: { $in: materialIds } } }) : [],
      depositIds.length ? this.store.find('company_division', { filter: { id: { $in: depositIds } } }) : [],
    ]);
    return {
      materials: Object.fromEntries(materials.map((m) => [m.id, { gtin: text(m.gtin), uom: text(m.uom), name: text(m.name) }])),
      deposits: Object.fromEntries(deposits.map((d) => [d.id, { gln: text(d.gln), name: text(d.division_name) }])),
      records,
      places: touched.length > 1 ? await placesOf(this.reg, this.store, touched) : {},
    };
  }

  /** `before` with `fill` merged and checked as a draft edit: only while it is in its initial state. */
  private async filled(wf: WorkflowDef, before: StoredDoc, fill: Rec, warehouse: Warehouse | null, lang: Lang): Promise<StoredDoc> {
    if (before[wf.stateField] !== wf.initial) {
      throw new ApiError('OPERATION_NOT_DRAFT', { entity: localize(this.md.entity(wf.entity).label, lang), state: String(before[wf.stateField] ?? ''), initial: wf.initial });
    }
    const merge = (to: Rec, from: Rec): Rec => Object.fromEntries([...new Set([...Object.keys(to), ...Object.keys(from)])].map((k) => {
      const [a, b] = [to[k], from[k]];
      const plain = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);
      return [k, plain(a) && plain(b) ? merge(a, b) : Object.hasOwn(from, k) ? b : a];
    }));
    const value = await this.checkedDraft(wf, merge(before, fill), before, warehouse, lang);
    return { ...before, ...value } as StoredDoc;
  }

  /**
   * The transition's input with each reference it sets resolved as a draft's are (an id, or the
   * target's key fields, to the id): the engine checks only a reference's shape, so without this
   * a transfer could write a deposit that does not exist, or an object, and a value not a string
   * would pass the warehouse check. 400 naming each that names no record; a value of the wrong
   * type is left for the engine to refuse.
   */
  private async resolvedInput(wf: WorkflowDef, t: TransitionDef, fields: Rec, lang: Lang): Promise<Rec> {
    const input = t.input ?? [];
    if (input.length === 0 || !fields || typeof fields !== 'object' || Array.isArray(fields)) return fields;
    const taken = (path: string) => {
      const bare = path.split('.').filter((part) => !/^\d+$/.test(part)).join('.');
      return input.some((i) => bare === i || bare.startsWith(`${i}.`));
    };
    const value = structuredClone(fields);
    const resolver = new ReferenceResolver(this.reg, this.store);
    const details: ErrorDetail[] = [];
    for (const site of referenceSites(formOf(this.reg, wf.entity)!.fields, value)) {
      const v = site.value;
      const shaped = (typeof v === 'string' && v !== '') || typeof v === 'number' || (!!v && typeof v === 'object' && !Array.isArray(v));
      if (!shaped || !taken(site.path)) continue;
      const id = await resolver.resolve(site.field.ref!, v);
      if (id) site.set(id);
      else details.push({
        field: site.path, code: 'FORMAT_REFERENCE_NOT_FOUND',
        message: formatError('FORMAT_REFERENCE_NOT_FOUND', { label: localize(site.field.label, lang), type: site.field.ref, value: JSON.stringify(v).slice(0, 100) }),
      });
    }
    if (details.length) throw new ApiError('VALIDATION_FAILED', { entity: wf.entity, count: details.length }, details);
    return value;
  }

  async transition(
    name: string, id: string, transitionId: string, body: { comment?: string; fields?: Rec } | undefined, p: AuthPrincipal, lang: Lang, extra: OperationExtra = {},
  ): Promise<Rec> {
    const wf = this.workflow(name);
    const warehouse = await this.warehouse(p);
    const before = await this.existing(wf, id, warehouse);
    const t = wf.transitions.find((x) => x.id === transitionId);
    if (!t) throw new ApiError('TRANSITION_NOT_ALLOWED', { transition: transitionId.slice(0, 60), state: String(before[wf.stateField] ?? '') });
    if (!this.mayTake(p, t)) throw new ApiError('FORBIDDEN', { key: t.access });
    let plan: TransitionPlan;
    const now = this.clock().toISOString();
    const from = extra.fill && Object.keys(extra.fill).length ? await this.filled(wf, before, extra.fill, warehouse, lang) : before;
    const fields = body?.fields === undefined ? undefined : await this.resolvedInput(wf, t, body.fields, lang);
    const lookup = await this.lookup(wf, t, from, fields);
    try {
      const ctx = { userId: p.userId, userName: p.displayName, now, lang, lookup };
      plan = this.engine.planTransition(this.reg, wf, from, t.id, { comment: body?.comment, fields }, ctx);
    } catch (e) {
      throw asApiError(e) ?? e;
    }
    if (t.at) await this.lines.checkDeposits(wf, plan.record, [t.at], warehouse, lang);
    await checkRegistered(this.reg, this.store, wf, plan.record, lang);
    for (const r of plan.records) await checkRegistered(this.reg, this.store, this.workflow(r.workflow), r.record, lang);
    const written = [
      { entity: wf.entity, id, before: before as Rec, after: plan.record },
      ...plan.records.map((r) => ({ entity: r.entity, id: r.id, before: lookup.records?.[r.entity]?.[r.id] ?? {}, after: r.record })),
    ];
    const check = async (s: Store) => {
      await checkUniqueValues(this.reg, s, written, lang);
      await extra.check?.(s);
    };
    const record = await this.applier.apply(wf, before, t.id, plan, p.userId, now, check, { set: extra.set, companions: extra.companions });
    return { record: this.md.present(this.md.entity(wf.entity), record) };
  }
}
