/**
 * What the service reads before planning a transition over referenced records: the records its
 * `transitionRecords` effects name, one level into their own transitions (an operation over
 * operations), and the names of the places they are at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransitionDef, WorkflowDef } from '../../../engine/src/index';
import { openTestStore } from '../testing/harness';
import type { Store } from '../store/types';
import { placesOf, relatedRecords } from './related';
import { crateRegistry, seedCrates, type CrateWorld } from './testing/crate';

const reg = crateRegistry();
let store: Store;
let dispose: () => Promise<void>;
let w: CrateWorld;

beforeAll(async () => {
  ({ store, dispose } = await openTestStore(reg, 'tm-related-'));
  w = await seedCrates(store);
});
afterAll(async () => { await dispose(); });

/** A convoy confirming every shipment it lists: shipments taken along, and through them their crates. */
const confirmAll: TransitionDef = {
  id: 'go', label: { en: 'Go', es: 'Go', fr: 'Go' }, from: ['Draft'], to: 'Gone', access: 'Crates',
  effects: [{ type: 'transitionRecords', workflow: 'crate_shipment', transition: 'confirm', records: { field: 'shipments', id: 'shipment' } }],
};
const convoy = { ...reg.workflows.crate_shipment, name: 'convoy', transitions: [confirmAll] } as WorkflowDef;

describe('relatedRecords', () => {
  it('reads the records referenced, and theirs one level down, by entity and id; places are named by their titles', async () => {
    const a = await store.insert('crate', { serial: 'R-1', depot: w.north, status: 'full', state: 1 });
    const b = await store.insert('crate', { serial: 'R-2', depot: w.south, customer: w.customer, status: 'away', state: 1 });
    const unrelated = await store.insert('crate', { serial: 'R-3', depot: w.north, status: 'full', state: 1 });
    const s = await store.insert('crate_shipment', { shipmentNo: 'RS-1', status: 'Draft', deposit: w.north, crates: [{ crate: a.id }, { crate: b.id }, { crate: 'missing' }] });
    const { records, touched } = await relatedRecords(reg, store, convoy, confirmAll, { shipments: [{ shipment: s.id }, { shipment: s.id }, {}] });
    expect(Object.keys(records.crate_shipment)).toEqual([s.id]);
    expect(Object.keys(records.crate).sort()).toEqual([a.id, b.id].sort());
    expect(records.crate).not.toHaveProperty(unrelated.id);
    expect(touched.map((t) => t.wf.name)).toEqual(['convoy', 'crate_shipment', 'crate', 'crate']);
    expect(await placesOf(reg, store, touched)).toEqual({ [w.north]: 'North depot', [w.south]: 'South depot', [w.customer]: 'Farm Coop' });
  });

  it('takes the lines from the request when the transition takes them as input', async () => {
    const a = await store.insert('crate', { serial: 'R-4', depot: w.north, status: 'full', state: 1 });
    const t = { ...reg.workflows.crate_shipment.transitions[0], input: ['crates'] };
    const { records } = await relatedRecords(reg, store, reg.workflows.crate_shipment, t, { crates: [] }, { crates: [{ crate: a.id }] });
    expect(Object.keys(records.crate)).toEqual([a.id]);
  });
});
