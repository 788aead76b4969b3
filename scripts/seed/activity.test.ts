/**
 * The demo year (issue 15, items 5 and 9): played through the operations service on the demo
 * master data, it touches every operation and reception outcome, leaves no stock negative, is
 * the same on a second store, and every EPCIS event it stores validates against GS1's schema
 * with bizStep and disposition from the Core Business Vocabulary.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CBV_BIZ_STEPS, CBV_DISPOSITIONS } from '../../engine/src/workflow/cbv';
import { openTestStore, realRegistry } from '../../server/src/testing/harness';
import type { Store } from '../../server/src/store/types';
import { ensureAdmin } from '../../server/src/boot';
import schema from '../../../shared/epcis/EPCIS-JSON-Schema.json';
import { seedActivity, type ActivityResult } from './activity';
import { seedDemo } from './seed';
import { IbcMeasures } from '../../server/src/ibc/measures';
import { EventSummaries } from '../../server/src/ibc/summary';

const reg = realRegistry();
const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(schema);
const END = new Date(Date.UTC(2026, 10, 24, 12));

async function playedStore(): Promise<{ store: Store; result: ActivityResult | null; dispose(): Promise<void> }> {
  const { store, dispose } = await openTestStore(reg, 'tm-activity-');
  await ensureAdmin(reg, store, 'admin@activity.test', 'Admin-pass-2026');
  await seedDemo(reg, store, 1, END);
  const result = await seedActivity(reg, store, 365, END);
  return { store, result, dispose };
}

/** The ledger in names rather than ids (each store gives its master data ids of its own). */
async function ledgerByName(store: Store): Promise<string[]> {
  const names = new Map<string, string>();
  for (const m of await store.find('material', {})) names.set(m.id, String(m.name));
  for (const d of await store.find('company_division', {})) names.set(d.id, String(d.division_name));
  const rows = await store.find('stock_movement', {});
  return rows.map((m) => [m.at, names.get(String(m.material)), m.batch, names.get(String(m.deposit)), m.quantity, (m.operation as { transition: string }).transition].join(' ')).sort();
}

describe('a year of demo activity', () => {
  let a: Awaited<ReturnType<typeof playedStore>>;
  let b: Awaited<ReturnType<typeof playedStore>>;
  beforeAll(async () => {
    a = await playedStore();
    b = await playedStore();
  }, 180_000);
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
  });

  it('plays every operation and every reception outcome, with no stock below zero', async () => {
    expect(a.result).not.toBeNull();
    // Operations are created; the ibc workflow governs master records, taken through transitions only.
    for (const wf of Object.values(reg.workflows)) {
      if (reg.entities[wf.entity].kind === 'master') expect(await a.store.count(wf.log!.entity, {}), wf.name).toBeGreaterThan(0);
      else expect(a.result!.byWorkflow[wf.name] ?? 0, wf.name).toBeGreaterThan(0);
    }
    const states = new Set((await a.store.find('delivery', {})).flatMap((d) => ((d.history as { to: string }[]) ?? []).map((h) => h.to)));
    for (const s of ['In-Progress', 'Accepted', 'Partial Reject', 'Total Reject', 'Rejection Accepted']) expect(states, s).toContain(s);
    expect(await a.store.count('stock_balance', { quantity: { $lt: 0 } })).toBe(0);
    expect(await a.store.count('stock_movement', {})).toBeGreaterThan(500);
    // Played at its simulated dates: the ledger spans the year.
    const [first] = await a.store.find('stock_movement', { sort: { at: 1 }, limit: 1 });
    expect(String(first.at) < '2025-12-01').toBe(true);
  });

  it('plays every IBC and bulk outcome: both receptions, withdrawn and received returns, accepted and rejected bulk in registered trucks', async () => {
    const transitions = async (entity: string) => new Set((await a.store.find(entity, {})).flatMap((d) => ((d.history as { transition: string }[]) ?? []).map((h) => h.transition)));
    expect([...await transitions('ibc_delivery')]).toEqual(expect.arrayContaining(['confirm', 'receive', 'receiveByTransporter']));
    expect([...await transitions('return_request')]).toEqual(expect.arrayContaining(['request', 'withdraw', 'receive']));
    expect([...await transitions('bulk_delivery')]).toEqual(expect.arrayContaining(['confirm', 'accept', 'reject', 'acceptRejection']));
    const logged = new Set((await a.store.find('ibc_event', { projection: { transition: 1 } })).map((e) => e.transition));
    for (const t of reg.workflows.ibc.transitions.map((x) => x.id).filter((x) => x !== 'cancelReturnRequest' || logged.has(x))) expect(logged, t).toContain(t);
    const trucks = new Set((await a.store.find('truck', {})).map((t) => t.truckNo));
    const tanks = new Set((await a.store.find('iso_tank', {})).map((t) => t.isoTankLicense));
    for (const b of await a.store.find('bulk_delivery', {})) {
      const m = b.truckMapping as { truckNo: string; isoTankLicense: string };
      expect(trucks.has(m.truckNo) && tanks.has(m.isoTankLicense), m.truckNo).toBe(true);
    }
  });

  it('leaves a plausible fleet: some IBCs at customers, some lost, quarantined, blocked and disposed, refilled, inspected, past their dates', async () => {
    const measures = new IbcMeasures(reg, a.store, new EventSummaries(a.store, () => END), () => END);
    const m = await measures.fleet();
    const disposed = m.byStatus.disposed;
    expect(m.fleetSize + disposed).toBe(2000);
    for (const s of ['in_stock_empty', 'at_customer', 'return_requested', 'quarantine', 'blocked', 'disposed']) expect(m.byStatus[s], s).toBeGreaterThan(0);
    expect(disposed).toBeLessThan(200);
    expect(m.lost).toBeGreaterThan(0);
    expect(m.lossRate).toBeGreaterThan(0);
    expect(m.lossRate).toBeLessThan(0.2);
    expect(m.fillCountDistribution.filter((f) => f.uses > 1).reduce((n, f) => n + f.count, 0)).toBeGreaterThan(50);
    expect(m.turnsPerYear).toBeGreaterThan(0.3);
    expect(m.dwellAtCustomerDays).toBeGreaterThan(14);
    expect(m.dwellAtCustomerDays).toBeLessThan(90);
    expect(m.cycleTimeDays).toBeGreaterThan(m.dwellAtCustomerDays!);
    expect(m.pastInspection).toBeGreaterThan(0);
    expect(m.pastEndOfLife).toBeGreaterThan(0);
    // A QC inspection renewed the date of some (it sets the last inspection to the QC's date).
    expect((await a.store.find('ibc_container', { filter: { qcStatus: 'passed' } })).filter((i) => i.lastInspectionDate === i.qcDate).length).toBeGreaterThan(0);
    // Holdings: what every customer took less what came back is what it holds now.
    const holdings = await measures.holdings({});
    expect(holdings.length).toBeGreaterThan(3);
    for (const h of holdings) {
      expect(h.ibcToReturn, h.customerName ?? h.customer).toBe(await a.store.count('ibc_container', { customer: h.customer, status: { $in: ['at_customer', 'return_requested'] } }));
    }
    expect(holdings.reduce((n, h) => n + h.ibcToReturn, 0)).toBe(m.byStatus.at_customer + m.byStatus.return_requested);
  });

  it('is deterministic: a second store gets the same ledger', async () => {
    expect(b.result).toEqual(a.result);
    expect(await ledgerByName(b.store)).toEqual(await ledgerByName(a.store));
  });

  it('stores only events that validate against the GS1 EPCIS 2.0 schema, with CBV bizStep and disposition', async () => {
    const events = [...await a.store.find('object_events', {}), ...await a.store.find('transformation_events', {})];
    expect(events.length).toBeGreaterThan(100);
    const kinds = new Set<string>();
    for (const e of events) {
      const ev = e.epcis as Record<string, unknown>;
      kinds.add(`${String(ev.type)} ${String(ev.bizStep)}`);
      expect(validate(ev), `${String(ev.type)} ${String(ev.bizStep)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(CBV_BIZ_STEPS).toContain(ev.bizStep);
      if (ev.disposition !== undefined) expect(CBV_DISPOSITIONS).toContain(ev.disposition);
    }
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['ObjectEvent shipping', 'ObjectEvent receiving', 'ObjectEvent destroying', 'TransformationEvent commissioning']));
  });
});
