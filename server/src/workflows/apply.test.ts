/**
 * applyPlan with hand-built plans (the engine's planTransition computes them in production):
 * every part of a plan written together, or nothing; a journaled transition interrupted
 * half-way is completed once by recover().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitionPlan } from '../../../engine/src/index';
import { openTestStore } from '../testing/harness';
import type { Store, StoredDoc } from '../store/types';
import { BALANCES, MOVEMENTS, writeMovements } from '../ledger/ledger';
import { TransitionApplier, type PreparedTransition } from './apply';
import { JOURNAL } from './journal';
import { SHIPMENT_WORKFLOW as wf, shipmentRegistry } from './testing/fixture';

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
