import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../engine/src/index';
import { realRegistry, startHarness, type Harness } from '../testing/harness';
import type { Doc } from '../store/types';
import { newId } from '../store/ids';
import { addMonths, adrDates, dayOf, IBC_ENTITY } from './dates';
import { alertId, raiseIbcAlerts } from './alerts';
import { IbcMeasures } from './measures';
import { EventSummaries, IBC_EVENT } from './summary';

const DAY = 86_400_000;
const NOW = new Date();
const at = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString();
const SETTINGS = { inspectionIntervalMonths: 30, lifetimeYears: 5, alertDaysBefore: 30, lossAfterDays: 180 };

describe('ADR dates', () => {
  it('next inspection 30 months after the last inspection, else after manufacture; end of life 5 years for rigid plastic and composite only', () => {
    expect(adrDates({ manufactured_date: '2022-03-15' }, SETTINGS)).toEqual({ nextInspectionDate: '2024-09-15', endOfLife: '2027-03-15' });
    expect(adrDates({ manufactured_date: '2022-03-15', lastInspectionDate: '2024-09-01', material_type: 'composite' }, SETTINGS)).toEqual({ nextInspectionDate: '2027-03-01', endOfLife: '2027-03-15' });
    expect(adrDates({ manufactured_date: '2022-03-15', material_type: 'metal' }, SETTINGS)).toEqual({ nextInspectionDate: '2024-09-15' });
    expect(adrDates({ lastInspectionDate: '2024-09-01' }, SETTINGS)).toEqual({});
    // A day past the month's end: the month's last day.
    expect(addMonths('2021-08-31', 30)).toBe('2024-02-29');
    expect(adrDates({ manufactured_date: '2021-08-31' }, { ...SETTINGS, inspectionIntervalMonths: 6, lifetimeYears: 2 })).toEqual({ nextInspectionDate: '2022-02-28', endOfLife: '2023-08-31' });
  });
});

/** A registry whose mobile QC key lists getIBC and whose mobile bulk key lists verifyTruckMapping (access keys' `operations`). */
function registryWithOperationKeys(): Registry {
  const reg = realRegistry();
  const label = { en: 'x', es: 'x', fr: 'x' };
  return {
    ...reg,
    access: {
      ...reg.access,
      keys: [...reg.access.keys, { key: 'ibc.mobile.performqc', label, customerModule: true, operations: ['getIBC', 'completeQC'] }, { key: 'bulk.mobile.delivery', label, customerModule: true, operations: ['verifyTruckMapping'] }] as never,
    },
  };
}

let h: Harness;
let A: string;
let B: string;
const ibc: Record<string, string> = {};

/** One log row as the ibc workflow's `log` writes it. */
function row(record: string, transition: string, from: string, to: string, daysAgo: number, extra: Record<string, unknown> = {}): Doc {
  return { id: newId(), record, serial: record, transition, from, to, at: at(daysAgo), by: 'u', uses: 1, ...extra } as Doc;
}

beforeAll(async () => {
  h = await startHarness({ registry: registryWithOperationKeys() });
  A = (await h.store.insert('company', { company_name: 'Agro A', state: 1 })).id;
  B = (await h.store.insert('company', { company_name: 'Bio B', state: 1 })).id;
  const young = dayOf(NOW, -400);
  const ibcs: Record<string, Doc> = {
    i1: { status: 'prepared', numberOfUses: 2, manufactured_date: young, lastCustomer: A, customerSince: at(289) },
    i2: { status: 'returned', numberOfUses: 1, manufactured_date: young, lastCustomer: A, customerSince: at(297) },
    i3: { status: 'at_customer', numberOfUses: 1, manufactured_date: young, customer: A, lastCustomer: A, customerSince: at(200), nfcTagNumber: 'NFC-3' },
    // Due for inspection in 10 days.
    i4: { status: 'at_customer', numberOfUses: 1, manufactured_date: addMonths(dayOf(NOW, 10), -30)!, customer: B, lastCustomer: B, customerSince: at(10) },
    i5: { status: 'in_stock_empty', numberOfUses: 0, manufactured_date: '2015-01-01' },
    i6: { status: 'disposed', numberOfUses: 3, manufactured_date: '2014-01-01' },
  };
  for (const [k, doc] of Object.entries(ibcs)) ibc[k] = (await h.store.insert(IBC_ENTITY, { serial_number: `SER-${k}`, deposit_id: 'D1', state: 1, ...doc })).id;
  const T0 = 300;
  await h.store.insertMany(IBC_EVENT, [
    row(ibc.i1, 'fill', 'in_stock_empty', 'prepared', T0),
    row(ibc.i3, 'fill', 'in_stock_empty', 'prepared', T0),
    row(ibc.i1, 'receive', 'in_transit', 'at_customer', T0 - 1, { customer: A, customerSince: at(T0 - 1) }),
    row(ibc.i2, 'fill', 'in_stock_empty', 'prepared', T0 - 2),
    row(ibc.i2, 'receive', 'in_transit', 'at_customer', T0 - 3, { customer: A, customerSince: at(T0 - 3) }),
    // Back after 10 and 30 days.
    row(ibc.i1, 'return', 'at_customer', 'returned', T0 - 11, { customer: A, customerSince: at(T0 - 1) }),
    row(ibc.i1, 'fill', 'in_stock_empty', 'prepared', T0 - 20),
    row(ibc.i2, 'return', 'return_requested', 'returned', T0 - 33, { customer: A, customerSince: at(T0 - 3) }),
    row(ibc.i3, 'receive', 'in_transit', 'at_customer', 200, { customer: A, customerSince: at(200) }),
    row(ibc.i4, 'fill', 'in_stock_empty', 'prepared', 12),
    row(ibc.i4, 'receive', 'in_transit', 'at_customer', 10, { customer: B, customerSince: at(10) }),
    row(ibc.i3, 'mapNfc', 'at_customer', 'at_customer', 5, { customer: A }),
  ]);
});
afterAll(async () => { await h?.close(); });

describe('ADR alerts', () => {
  it('raises one alert per IBC and date kind within alertDaysBefore or past, naming the serial and the date, once', async () => {
    await raiseIbcAlerts(h.store, h.registry, NOW);
    const alerts = await h.store.find('alert', { filter: { id: { $regex: '^ibc-' } } });
    const i4 = await h.store.get(IBC_ENTITY, ibc.i4);
    const i5 = await h.store.get(IBC_ENTITY, ibc.i5);
    expect(i5).toMatchObject({ nextInspectionDate: '2017-07-01', endOfLife: '2020-01-01' });
    expect(i4!.nextInspectionDate).toBe(dayOf(NOW, 10));
    expect(alerts.map((a) => a.id).sort()).toEqual([
      alertId('inspection', ibc.i4, dayOf(NOW, 10)), alertId('inspection', ibc.i5, '2017-07-01'), alertId('endOfLife', ibc.i5, '2020-01-01'),
    ].sort());
    const eol = alerts.find((a) => a.id === alertId('endOfLife', ibc.i5, '2020-01-01'))!;
    for (const lang of ['en', 'es', 'fr']) {
      expect((eol.description as Record<string, string>)[lang]).toContain('SER-i5');
      expect((eol.description as Record<string, string>)[lang]).toContain('2020-01-01');
      expect((eol.title as Record<string, string>)[lang]).toContain('SER-i5');
    }
    expect(eol.severity).toBe('error');
    expect(await raiseIbcAlerts(h.store, h.registry, NOW)).toBe(0);
  });
});

describe('holdings and fleet measures', () => {
  it('per customer: taken, returned, to return and mean days held, from the log', async () => {
    const m = new IbcMeasures(h.registry, h.store, new EventSummaries(h.store, () => NOW), () => NOW);
    expect(await m.holdings({})).toEqual([
      { customer: A, customerName: 'Agro A', totalIbcTaken: 3, totalIbcReturned: 2, ibcToReturn: 1, avgReturnTime: 20 },
      { customer: B, customerName: 'Bio B', totalIbcTaken: 1, totalIbcReturned: 0, ibcToReturn: 1, avgReturnTime: null },
    ]);
    const r = await h.app.inject({ url: `/api/v3/ibc/holdings?customer=${B}`, headers: (await h.userWith(['IBC Inventory'])).headers });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.map((x: { customer: string }) => x.customer)).toEqual([B]);
    const bySlowest = await h.app.inject({ url: '/api/v3/ibc/holdings?sort=avgReturnTime&limit=1', headers: (await h.userWith(['ibcTraceability'])).headers });
    expect(bySlowest.json().data).toMatchObject([{ customer: A, avgReturnTime: 20 }]);
  });

  it('for the fleet: statuses, cycle time, dwell, turns, fill counts, losses and ADR counts', async () => {
    await raiseIbcAlerts(h.store, h.registry, NOW); // the ADR dates stored
    const r = await h.app.inject({ url: '/api/v3/ibc/measures', headers: (await h.userWith(['ibcTraceability'])).headers });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      fleetSize: 5,
      byStatus: { in_stock_empty: 1, prepared: 1, in_transit: 0, at_customer: 2, return_requested: 0, returned: 1, in_qc: 0, quarantine: 0, blocked: 0, disposed: 1 },
      cycleTimeDays: 20, dwellAtCustomerDays: 20, turnsPerYear: 1,
      fillCountDistribution: [{ uses: 0, count: 1 }, { uses: 1, count: 3 }, { uses: 2, count: 1 }],
      // i3 at A for 200 days, of the 4 IBCs that went to a customer.
      lost: 1, lossRate: 0.25, lossAfterDays: 180,
      dueForInspection: 1, pastInspection: 1, pastEndOfLife: 1,
    });
  });

  it('keeps up with rows written after the first answer, and refolds when a row lands behind the ones folded', async () => {
    const summaries = new EventSummaries(h.store, () => NOW);
    const m = new IbcMeasures(h.registry, h.store, summaries, () => NOW);
    await m.holdings({});
    await h.store.insert(IBC_EVENT, row(ibc.i4, 'return', 'at_customer', 'returned', 2, { customer: B, customerSince: at(10) }));
    expect((await m.holdings({ customer: B }))[0]).toMatchObject({ totalIbcReturned: 1, ibcToReturn: 0, avgReturnTime: 8 });
    // A transition whose id was made before the rows already folded, committed after them.
    await h.store.insert(IBC_EVENT, { ...row(ibc.i4, 'receive', 'in_transit', 'at_customer', 1, { customer: B, customerSince: at(1) }), id: newId(NOW.getTime() - 3_600_000) } as Doc);
    expect((await m.holdings({ customer: B }))[0]).toMatchObject({ totalIbcTaken: 2, totalIbcReturned: 1, ibcToReturn: 1 });
  });
});

describe('IBC routes', () => {
  it('look up an IBC by serial or NFC tag for the IBC keys and any key listing getIBC; 404 naming the value; 400 with neither or both', async () => {
    for (const access of [['ibcTraceability'], ['IBC Inventory'], ['ibc.mobile.performqc']]) {
      const headers = (await h.userWith(access)).headers;
      const bySerial = await h.app.inject({ url: '/api/v3/ibc/lookup?serial=SER-i3', headers });
      expect(bySerial.statusCode, access[0]).toBe(200);
      expect(bySerial.json()).toMatchObject({ id: ibc.i3, serial_number: 'SER-i3', customer: A });
      expect((await h.app.inject({ url: '/api/v3/ibc/lookup?nfc=NFC-3', headers })).json().id).toBe(ibc.i3);
    }
    const headers = (await h.userWith(['ibcTraceability'])).headers;
    const missing = await h.app.inject({ url: '/api/v3/ibc/lookup?nfc=NFC-404', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'VALUE_NOT_FOUND' });
    expect(missing.json().error.message).toContain('NFC-404');
    for (const q of ['', '?serial=SER-i3&nfc=NFC-3', '?serial=']) expect((await h.app.inject({ url: `/api/v3/ibc/lookup${q}`, headers })).statusCode, q).toBe(400);
    expect((await h.app.inject({ url: '/api/v3/ibc/lookup?serial=SER-i3', headers: (await h.userWith(['Imports'])).headers })).statusCode).toBe(403);
  });

  it("answer an IBC's log newest first, paged; 404 for an unknown IBC", async () => {
    const headers = (await h.userWith(['ibc.mobile.performqc'])).headers;
    const r = await h.app.inject({ url: `/api/v3/ibc/${ibc.i1}/events?pageSize=2`, headers });
    expect(r.statusCode).toBe(200);
    expect(r.json().total).toBe(4);
    expect(r.json().data.map((e: { transition: string }) => e.transition)).toEqual(['fill', 'return']);
    const page2 = await h.app.inject({ url: `/api/v3/ibc/${ibc.i1}/events?pageSize=2&page=2`, headers });
    expect(page2.json().data.map((e: { transition: string }) => e.transition)).toEqual(['receive', 'fill']);
    expect((await h.app.inject({ url: '/api/v3/ibc/NOPE/events', headers })).statusCode).toBe(404);
    expect((await h.app.inject({ url: `/api/v3/ibc/${ibc.i1}/events?pageSize=0`, headers })).statusCode).toBe(400);
  });

  it('list IBCs by status, customer, fill count and age in whole years', async () => {
    const headers = (await h.userWith(['IBC Inventory'])).headers;
    const serials = async (q: string) => {
      const r = await h.app.inject({ url: `/api/v3/ibc?${q}`, headers });
      expect(r.statusCode, `${q} ${r.body}`).toBe(200);
      return r.json().data.map((d: { serial_number: string }) => d.serial_number).sort();
    };
    expect(await serials(`customer=${A}`)).toEqual(['SER-i3']);
    expect(await serials('state=at_customer,returned')).toEqual(['SER-i2', 'SER-i3', 'SER-i4']);
    expect(await serials('usesMin=1&usesMax=1')).toEqual(['SER-i2', 'SER-i3', 'SER-i4']);
    expect(await serials('ageMin=5')).toEqual(['SER-i5', 'SER-i6']);
    expect(await serials('ageMin=2&ageMax=2')).toEqual(['SER-i4']);
    expect(await serials('ageMax=1')).toEqual(['SER-i1', 'SER-i2', 'SER-i3']);
    expect(await serials('q=SER-i5')).toEqual(['SER-i5']);
    for (const bad of ['usesMin=-1', 'ageMax=x', 'sort=nope', 'customer=a%20b']) expect((await h.app.inject({ url: `/api/v3/ibc?${bad}`, headers })).statusCode, bad).toBe(400);
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    for (const p of ['/api/v3/ibc/lookup', '/api/v3/ibc/holdings', '/api/v3/ibc/measures', '/api/v3/ibc', '/api/v3/ibc/{id}/events']) expect(doc.paths[p]?.get, p).toBeDefined();
    expect(doc.paths['/api/v3/bulk/verify-truck']?.post).toBeDefined();
  });
});
