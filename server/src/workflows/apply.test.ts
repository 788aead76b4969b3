/**
 * applyPlan with hand-built plans (the engine's planTransition computes them in production):
 * every part of a plan written together, or nothing; a journaled transition interrupted
 * half-way is completed once by recover(), records taken along and log rows included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitionPlan } from '../../../engine/src/index';
import { openTestStore } from '../testing/harness';
import type { Store, StoredDoc } from '../store/types';
import { BALANCES, MOVEMENTS, writeMovements } from '../ledger/ledger';
import { TransitionApplier, type PreparedTransition } from './apply';
import { JOURNAL } from './journal';
import { SHIPMENT_WORKFLOW as wf, shipmentRegistry } from './testing/fixture';
import { crateRegistry } from './testing/crate';
import { ApiError } from '../apiError';

const reg = shipmentRegistry();
let store: Store;
let dispose: () => Promise<void>;
let applier: TransitionApplier;
let seq = 0;

const draft = async (): Promise<StoredDoc> => store.insert('test_shipment', { shipmentID: `A-${seq++}`, status: 'Draft', deposit: 'D1', history: [], updatedAt: '2025-01-01T00:00:00.000Z' });
const plan = (record: StoredDoc, over: Partial<TransitionPlan> = {}): TransitionPlan => ({
  record: { ...record, status: 'In-Progress', history: [{ transition: 'confirm', from: 'Draft', to: 'In-Progress', by: 'u1', at: '2025-05-01T00:00:00.000Z' }] },
  movements: [{ material: 'M1', batch: 'NEW-1', deposit: 'D1', quantity: 5, unit: 'kg' }],
  lots: [{ material: 'M1', number: 'NEW-1', elaborationDate: '2025-04-01', expirationDate: '2027-04-01' }],
  events: [
    { type: 'ObjectEvent', action: 'ADD', eventTime: '2025-05-01T00:00:00.000Z', bizStep: 'urn:epcglobal:cbv:bizstep:commissioning', readPoint: { id: 'urn:x:D1' } },
    { type: 'TransformationEvent', eventTime: '2025-05-01T00:00:00.000Z', bizStep: 'urn:epcglobal:cbv:bizstep:transforming', inputQuantityList: [], outputQuantityList: [] },
  ],
  alerts: [{ title: { en: 'Low', es: 'Bajo', fr: 'Bas' }, description: { en: 'd', es: 'd', fr: 'd' }, severity: 'warning' }],
  updates: [{ entity: 'material', id: 'M1', set: { critical: true } }],
  records: [],
  logs: [],
  ...over,
});
const counts = async () => Promise.all([MOVEMENTS, BALANCES, 'lot', 'object_events', 'transformation_events', 'alert'].map((c) => store.count(c)));

beforeAll(async () => {
  ({ store, dispose } = await openTestStore(reg, 'tm-apply-'));
  await store.ensureCollection({ name: 'alert', uniqueKeys: [], indexes: [] });
  await store.insert('material', { id: 'M1', name: 'Glyphosate', state: 1 });
  applier = new TransitionApplier(reg, store);
});
afterAll(async () => { await dispose(); });

describe('applyPlan', () => {
  it('writes the record, movements, lot, events, alert and related update together', async () => {
    const rec = await draft();
    const out = await applier.apply(wf, rec, 'confirm', plan(rec), 'u1', '2025-05-01T00:00:00.000Z');
    expect(out).toMatchObject({ id: rec.id, status: 'In-Progress', updatedBy: 'u1' });
    expect(await store.find('lot', { filter: { number: 'NEW-1' } })).toMatchObject([{ material: 'M1', elaborationDate: '2025-04-01', expirationDate: '2027-04-01' }]);
    const [obj] = await store.find('object_events', { filter: { 'operation.id': rec.id } });
    expect(obj).toMatchObject({ biz_step: 'urn:epcglobal:cbv:bizstep:commissioning', read_point: 'urn:x:D1', action: 'ADD', epcis: { type: 'ObjectEvent' } });
    expect(await store.count('transformation_events', { 'operation.id': rec.id })).toBe(1);
    expect(await store.count('alert', { 'operation.id': rec.id })).toBe(1);
    expect((await store.get('material', 'M1'))!.critical).toBe(true);
    // The lot is created once, however many transitions name it.
    const again = await draft();
    await applier.apply(wf, again, 'confirm', plan(again), 'u1');
    expect(await store.count('lot', { number: 'NEW-1' })).toBe(1);
  });

  it('writes nothing when a balance would go negative, or the record moved meanwhile', async () => {
    const rec = await draft();
    const before = await counts();
    await expect(applier.apply(wf, rec, 'confirm', plan(rec, { movements: [{ material: 'M1', batch: 'NEW-1', deposit: 'D1', quantity: -1000 }] }), 'u1'))
      .rejects.toMatchObject({ code: 'STOCK_INSUFFICIENT' });
    await store.patch('test_shipment', rec.id, { updatedAt: '2025-02-02T00:00:00.000Z' });
    await expect(applier.apply(wf, rec, 'confirm', plan(rec), 'u1')).rejects.toMatchObject({ code: 'TRANSITION_CONFLICT', status: 409, params: { state: 'Draft' } });
    expect(await counts()).toEqual(before);
    expect((await store.get('test_shipment', rec.id))!.status).toBe('Draft');
  });

  it('completes a journaled transition interrupted half-way, counting its stock once', async () => {
    const rec = await draft();
    const p: PreparedTransition = {
      opId: 'JOURNALED1', workflow: wf.name, entity: wf.entity, recordId: rec.id, transition: 'confirm', userId: 'u1', at: '2025-06-01T00:00:00.000Z',
      plan: plan(rec, { movements: [{ material: 'M1', batch: 'J', deposit: 'D1', quantity: 3 }, { material: 'M1', batch: 'J', deposit: 'D2', quantity: 2 }], lots: [], updates: [] }),
    };
    await store.insert(JOURNAL, { id: p.opId, prepared: p as never });
    // The crash came after the movements and balances, before the events and the record.
    await writeMovements(store, p.plan.movements, { workflow: wf.name, id: rec.id, transition: 'confirm' }, p.at, p.opId);
    expect(await new TransitionApplier(reg, store).recover()).toBe(1);
    expect(await store.count(JOURNAL)).toBe(0);
    expect((await store.get('test_shipment', rec.id))!.status).toBe('In-Progress');
    expect((await store.find(BALANCES, { filter: { batch: 'J' }, sort: { deposit: 1 } })).map((b) => b.quantity)).toEqual([3, 2]);
    expect(await store.count(MOVEMENTS, { 'operation.id': rec.id })).toBe(2);
    expect(await store.count('object_events', { 'operation.id': rec.id })).toBe(1);
    expect(await new TransitionApplier(reg, store).recover()).toBe(0);
  });
});

describe('applyPlan with records taken along and log rows', () => {
  const crates = crateRegistry();
  const crateWf = crates.workflows.crate_shipment;
  let cs: Store;
  let close: () => Promise<void>;
  let ops: TransitionApplier;
  const at = '2025-07-01T00:00:00.000Z';

  beforeAll(async () => {
    ({ store: cs, dispose: close } = await openTestStore(crates, 'tm-apply-crates-'));
    ops = new TransitionApplier(crates, cs);
  });
  afterAll(async () => { await close(); });

  /** A draft shipment of two full crates, and the plan shipping both with a log row each. */
  const world = async () => {
    const a = await cs.insert('crate', { serial: `K-${seq++}`, depot: 'D1', status: 'full', uses: 1, state: 1, updatedAt: '2025-01-01T00:00:00.000Z' });
    const b = await cs.insert('crate', { serial: `K-${seq++}`, depot: 'D1', status: 'full', uses: 1, state: 1 });
    const rec = await cs.insert('crate_shipment', { shipmentNo: `S-${seq++}`, status: 'Draft', deposit: 'D1', crates: [{ crate: a.id }, { crate: b.id }], history: [] });
    const child = (c: StoredDoc) => ({ workflow: 'crate', entity: 'crate', id: c.id, before: { state: 'full', ...(c.updatedAt ? { updatedAt: c.updatedAt as string } : {}) }, record: { ...c, status: 'away', shipmentNo: rec.shipmentNo } });
    const log = (c: StoredDoc) => ({ entity: 'crate_event', doc: { id: `log-${c.id}`, record: c.id, transition: 'ship', from: 'full', to: 'away', at, serial: c.serial, customer: undefined } });
    const p: TransitionPlan = {
      record: { ...rec, status: 'Shipped' }, movements: [], lots: [], events: [], alerts: [], updates: [],
      records: [child(a), child(b)], logs: [log(a), log(b)],
    };
    return { a, b, rec, p };
  };
  const state = async (ids: string[]) => Promise.all(ids.map(async (id) => (await cs.get('crate', id))!.status));

  it('writes the records taken along, stamped, and the log rows, with the record', async () => {
    const { a, b, rec, p } = await world();
    await ops.apply(crateWf, rec, 'confirm', p, 'u1', at);
    expect(await state([a.id, b.id])).toEqual(['away', 'away']);
    expect(await cs.get('crate', a.id)).toMatchObject({ shipmentNo: rec.shipmentNo, updatedAt: at, updatedBy: 'u1' });
    const rows = await cs.find('crate_event', { filter: { record: { $in: [a.id, b.id] } }, sort: { id: 1 } });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ transition: 'ship', createdBy: 'u1' });
    expect(rows[0]).not.toHaveProperty('customer');
  });

  it('writes nothing when a record taken along changed meanwhile, naming it', async () => {
    const { a, b, rec, p } = await world();
    await cs.patch('crate', b.id, { status: 'empty' });
    await expect(ops.apply(crateWf, rec, 'confirm', p, 'u1', at)).rejects.toMatchObject({ code: 'TRANSITION_CONFLICT', status: 409, params: { entity: `Crate ${b.serial}`, state: 'empty' } });
    await cs.patch('crate', b.id, { status: 'full', updatedAt: '2025-03-03T00:00:00.000Z' });
    await expect(ops.apply(crateWf, rec, 'confirm', p, 'u1', at)).rejects.toMatchObject({ code: 'TRANSITION_CONFLICT' });
    expect(await state([a.id, b.id])).toEqual(['full', 'full']);
    expect((await cs.get('crate_shipment', rec.id))!.status).toBe('Draft');
    expect(await cs.count('crate_event', { record: { $in: [a.id, b.id] } })).toBe(0);
  });

  it('writes nothing when the check run in the same section refuses', async () => {
    const { a, rec, p } = await world();
    await expect(ops.apply(crateWf, rec, 'confirm', p, 'u1', at, async () => { throw new ApiError('VALUE_TAKEN', {}); })).rejects.toMatchObject({ code: 'VALUE_TAKEN' });
    expect(await state([a.id])).toEqual(['full']);
    expect(await cs.count('crate_event', { record: a.id })).toBe(0);
  });

  it('completes a journaled transition interrupted after the first log row: every record and row once', async () => {
    const { a, b, rec, p } = await world();
    const logs = p.logs.map((l) => ({ ...l, doc: { ...l.doc, customer: null } }));
    const prepared: PreparedTransition = { opId: 'JOURNALED2', workflow: crateWf.name, entity: crateWf.entity, recordId: rec.id, transition: 'confirm', userId: 'u1', at, plan: { ...p, logs } };
    await cs.insert(JOURNAL, { id: prepared.opId, prepared: prepared as never });
    // The crash came after one log row, before the other, the crates and the shipment.
    // Written as writeTransition writes it: its id follows the operation's, so the log reads in time order.
    await cs.insert('crate_event', { ...logs[0].doc, id: `${prepared.opId}.l0` } as never);
    expect(await new TransitionApplier(crates, cs).recover()).toBe(1);
    expect(await state([a.id, b.id])).toEqual(['away', 'away']);
    expect((await cs.get('crate_shipment', rec.id))!.status).toBe('Shipped');
    expect(await cs.count('crate_event', { record: { $in: [a.id, b.id] } })).toBe(2);
    expect(await new TransitionApplier(crates, cs).recover()).toBe(0);
  });
});
