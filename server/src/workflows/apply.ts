import { localize, type Registry, type TransitionPlan, type WorkflowDef } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { appendToChain } from '../chain/append';
import { chainAccountsFor, chainSettingsOf } from '../chain/settings';
import { addToTallies } from '../ibc/tally';
import { checkMovements, writeMovements } from '../ledger/ledger';
import { newId } from '../store/ids';
import type { Doc, JsonValue, Store, StoredDoc } from '../store/types';
import { WriteHooks } from '../records/writeHooks';
import { JOURNAL } from './journal';
import { indexRows } from '../epcis/indexing';

/** One transition ready to write: everything a replay needs, so it can live in the journal. */
export interface PreparedTransition {
  opId: string;
  workflow: string;
  entity: string;
  recordId: string;
  transition: string;
  userId: string;
  at: string;
  plan: TransitionPlan;
  /** The deposit the record's alerts are for: its workflow's first deposit field (a delivery's sender). */
  alertDeposit?: string;
  /** Per event collection, the ledger account its events are chained to (chain/settings.ts), decided once so a replay chains alike. */
  chain?: Record<string, string>;
  /** Documents written with the transition (writeHooks.ts companions: a declaration's outbox job). */
  companions?: { coll: string; doc: Doc }[];
}

/**
 * What a caller writes with one transition, in the same write (journaled with it): fields set on
 * the record itself, and documents made from the record as written (the mobile API's offline
 * stamp and verdict, server/src/mobile).
 */
export interface TransitionExtra {
  set?: Record<string, JsonValue>;
  companions?: (record: Record<string, unknown>) => { coll: string; doc: Doc }[];
}

/** Where EPCIS events are kept, by their type. */
const EVENT_COLLECTION: Record<string, string> = { ObjectEvent: 'object_events', TransformationEvent: 'transformation_events' };

type Ev = Record<string, unknown>;
const idOf = (v: unknown) => (v && typeof v === 'object' && typeof (v as Ev).id === 'string' ? (v as Ev).id : undefined);

/** An EPCIS 2.0 event as a record of the event entities: their columns, and the event whole under `epcis`. */
export function eventRecord(ev: Ev, p: PreparedTransition, i: number): Doc {
  const inputs = ev.type === 'TransformationEvent';
  const doc: Ev = {
    id: `${p.opId}.e${i}`,
    event_time: ev.eventTime, biz_step: ev.bizStep, disposition: ev.disposition,
    read_point: idOf(ev.readPoint), business_location: idOf(ev.bizLocation),
    ...(inputs
      ? { inputQuantityList: ev.inputQuantityList, outputQuantityList: ev.outputQuantityList }
      : { action: ev.action, quantityList: ev.quantityList }),
    sourceList: ev.sourceList, destinationList: ev.destinationList, business_transaction: ev.bizTransactionList, ilmd: ev.ilmd,
    epcis: ev,
    operation: { workflow: p.workflow, id: p.recordId, transition: p.transition },
    createdAt: p.at, createdBy: p.userId, state: 1,
  };
  return withoutUndefined(doc);
}

/** A copy without the undefined values at any depth: neither the journal nor a collection keeps them. */
function definedOnly<T>(v: T): T {
  if (Array.isArray(v)) return v.map(definedOnly) as T;
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, definedOnly(x)])) as T;
}

function withoutUndefined(doc: Ev): Doc {
  for (const k of Object.keys(doc)) if (doc[k] === undefined) delete doc[k];
  return doc as Doc;
}

/** Inserts the documents whose ids are not there yet (a replay finds some written). */
async function insertMissing(store: Store, coll: string, docs: Doc[], replay: boolean): Promise<void> {
  if (docs.length === 0) return;
  if (!replay) return void (await store.insertMany(coll, docs));
  const have = new Set((await store.find(coll, { filter: { id: { $in: docs.map((d) => d.id as string) } }, projection: { id: 1 } })).map((d) => d.id));
  const fresh = docs.filter((d) => !have.has(d.id as string));
  if (fresh.length) await store.insertMany(coll, fresh);
}

/**
 * Every write of a transition, each idempotent (fixed ids, balances remembering their last
 * operation, lots looked up first, records set not incremented), so a journaled transition
 * interrupted anywhere is completed by running this again.
 */
export async function writeTransition(store: Store, p: PreparedTransition, replay = false): Promise<StoredDoc> {
  const operation = { workflow: p.workflow, id: p.recordId, transition: p.transition };
  // Lots before the movements: the batches' stock they update carries the lot's dates.
  for (const lot of p.plan.lots) {
    const exists = await store.find('lot', { filter: { material: lot.material, number: lot.number }, limit: 1, projection: { id: 1 } });
    if (exists.length) continue;
    const dates = Object.fromEntries(Object.entries({ elaborationDate: lot.elaborationDate, expirationDate: lot.expirationDate }).filter(([, v]) => v !== undefined));
    await store.insert('lot', { material: lot.material, number: lot.number, ...dates, createdAt: p.at, createdBy: p.userId, state: 1 } as Doc);
  }
  await writeMovements(store, p.plan.movements, operation, p.at, p.opId, { replay });
  const events = p.plan.events.map((ev, i) => ({ coll: EVENT_COLLECTION[String(ev.type)] ?? 'object_events', doc: eventRecord(ev, p, i) }));
  for (const coll of new Set(events.map((e) => e.coll))) await insertMissing(store, coll, events.filter((e) => e.coll === coll).map((e) => e.doc), replay);
  // The EPCIS query's headers and identifier rows (epcis/indexing.ts), idempotent on replay as the events are.
  for (const coll of new Set(events.map((e) => e.coll))) await indexRows(store, coll, events.filter((e) => e.coll === coll).map((e) => e.doc as Doc & { id: string }), replay);
  await insertMissing(store, 'alert', p.plan.alerts.map((a, i) => ({
    id: `${p.opId}.a${i}`, title: a.title, description: a.description, severity: a.severity,
    // As the IBC alerts: the time the alerts report shows and sorts by, the deposit it narrows on.
    operation, timestamp: p.at, read: false, ...(p.alertDeposit ? { deposit: p.alertDeposit } : {}), createdAt: p.at, createdBy: p.userId, state: 1,
  } as unknown as Doc)), replay);
  for (const u of p.plan.updates) await store.patch(u.entity, u.id, u.set as Record<string, JsonValue>);
  // Ids after the operation's (time-ordered, as replayable as the engine's): a log is read in id
  // order by those that fold it as it grows (ibc/summary.ts), which the engine's hashed ids are not.
  const logs = p.plan.logs.map((l, i) => ({ entity: l.entity, doc: { createdAt: p.at, createdBy: p.userId, ...l.doc, id: `${p.opId}.l${i}` } as Doc }));
  for (const entity of new Set(logs.map((l) => l.entity))) await insertMissing(store, entity, logs.filter((l) => l.entity === entity).map((l) => l.doc), replay);
  await addToTallies(store, logs, p.opId);
  const chain = p.chain ?? {};
  await appendToChain(store, [...events.map((e) => ({ collection: e.coll, doc: e.doc })), ...logs.map((l) => ({ collection: l.entity, doc: l.doc }))]
    .filter((e) => chain[e.collection]).map((e) => ({ ...e, account: chain[e.collection] })), p.at);
  const companions = p.companions ?? [];
  for (const coll of new Set(companions.map((c) => c.coll))) await insertMissing(store, coll, companions.filter((c) => c.coll === coll).map((c) => c.doc), replay);
  const stamp = { updatedAt: p.at, updatedBy: p.userId };
  for (const r of p.plan.records) await store.update(r.entity, r.id, { ...r.record, id: r.id, ...stamp } as Doc);
  return store.update(p.entity, p.recordId, { ...p.plan.record, id: p.recordId, ...stamp } as Doc);
}

/**
 * Applies transition plans all or nothing. With transactions, each runs in one; without
 * (MongoDB standalone, the wire server), they run one at a time in this process behind a
 * journal entry, so a crash leaves each either complete after recover() or never started.
 */
/** Without transactions, one queue per store: every applier over it (the operations routes', the mobile API's…) takes turns. */
const queues = new WeakMap<Store, { tail: Promise<unknown> }>();

export class TransitionApplier {

  /** `hooks`: derived fields brought up to date in the record and every record it takes along, before the plan is journaled. */
  constructor(private readonly reg: Registry, private readonly store: Store, private readonly hooks: WriteHooks = new WriteHooks()) {}

  /** Runs fn alone among the writes that check a record's state: a store transaction, or this process's queue. */
  exclusive<T>(fn: (s: Store) => Promise<T>): Promise<T> {
    if (this.store.capabilities.transactions) return this.store.transaction(fn);
    let queue = queues.get(this.store);
    if (!queue) queues.set(this.store, (queue = { tail: Promise.resolve() }));
    const run = queue.tail.then(() => fn(this.store));
    queue.tail = run.catch(() => undefined);
    return run;
  }

  /** Throws TRANSITION_CONFLICT unless the record is still as `before` was read (same state, same last write). */
  async unchanged(s: Store, wf: WorkflowDef, before: StoredDoc): Promise<StoredDoc> {
    const now = await this.current(s, wf, before.id, { state: String(before[wf.stateField] ?? ''), updatedAt: before.updatedAt }, false);
    return now!;
  }

  /**
   * The record as stored now, or TRANSITION_CONFLICT when its state or last write is not what the
   * plan was computed from; a record other than the one asked for is named by its title.
   */
  private async current(s: Store, wf: WorkflowDef, id: string, was: { state: string; updatedAt?: unknown }, named: boolean): Promise<StoredDoc | null> {
    const now = await s.get(wf.entity, id);
    const state = now ? String(now[wf.stateField] ?? '') : '';
    if (now && state === was.state && now.updatedAt === was.updatedAt) return now;
    const def = this.reg.entities[wf.entity];
    const label = def ? localize(def.label) : wf.entity;
    const title = named && def ? now?.[def.titleField] ?? id : undefined;
    throw new ApiError('TRANSITION_CONFLICT', { entity: title === undefined ? label : `${label} ${String(title)}`, state });
  }

  /**
   * Writes the plan computed from `before`, or nothing: 409 when the record or one it transitions
   * moved meanwhile, 400 when stock is short, or whatever `check` (run in the same section, before
   * any write) throws.
   */
  async apply(
    wf: WorkflowDef, before: StoredDoc, transition: string, plan: TransitionPlan, userId: string, at = new Date().toISOString(),
    check?: (s: Store) => Promise<void>, extra: TransitionExtra = {},
  ): Promise<StoredDoc> {
    // A log field naming a blank record field is left out: neither the journal nor a collection keeps undefined.
    const logs = plan.logs.map((l) => ({ entity: l.entity, doc: withoutUndefined({ ...l.doc }) }));
    // Derived here, not in writeTransition: a replay writes what the journal holds, whatever hooks it runs with.
    // An input field mapped from a blank one (a batch's productionPlant, not given) is left out, as in the logs.
    const derived = {
      record: this.hooks.apply(wf.entity, definedOnly({ ...plan.record, ...extra.set })),
      records: plan.records.map((r) => ({ ...r, record: this.hooks.apply(r.entity, definedOnly(r.record)) })),
    };
    const deposit = derived.record[wf.depositFields[0]];
    const companions = [
      ...this.hooks.companions({ workflow: wf.name, transition, recordId: before.id, at, record: derived.record }),
      ...(extra.companions?.(derived.record) ?? []),
    ];
    const p: PreparedTransition = {
      opId: newId(), workflow: wf.name, entity: wf.entity, recordId: before.id, transition, userId, at, plan: { ...plan, ...derived, logs },
      ...(plan.alerts.length && typeof deposit === 'string' ? { alertDeposit: deposit } : {}),
      chain: chainAccountsFor(chainSettingsOf(this.reg), wf.name),
      ...(companions.length ? { companions } : {}),
    };
    return this.exclusive(async (s) => {
      await this.unchanged(s, wf, before);
      for (const r of plan.records) await this.current(s, this.reg.workflows[r.workflow], r.id, r.before, true);
      await check?.(s);
      await checkMovements(s, plan.movements);
      if (this.store.capabilities.transactions) return writeTransition(s, p);
      await s.insert(JOURNAL, { id: p.opId, prepared: p as unknown as Doc });
      const record = await writeTransition(s, p);
      await s.delete(JOURNAL, p.opId);
      return record;
    });
  }

  /** Completes every transition a crash interrupted, oldest first; returns how many. */
  async recover(): Promise<number> {
    const left = await this.store.find(JOURNAL, { sort: { id: 1 } });
    for (const j of left) {
      await writeTransition(this.store, j.prepared as unknown as PreparedTransition, true);
      await this.store.delete(JOURNAL, j.id);
    }
    return left.length;
  }
}
