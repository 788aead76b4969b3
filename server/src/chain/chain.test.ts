/**
 * The tamper-evident ledger through the real server on the real definitions: IBC transitions
 * and true bulk deliveries chain their events to the deployment's test accounts; the verify
 * route names each tampering done directly in the store (an event changed, an event deleted,
 * two entries swapped, an entry deleted, an event never chained, a chain rewritten whole after
 * it was anchored); anchoring sends each account's Merkle root to a loopback fake and records
 * every attempt, failed ones too, which the /blockchain-sync-logs report shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCompany } from '../testing/records';
import { startHarness, type Harness } from '../testing/harness';
import type { Doc } from '../store/types';
import { CHAIN_ENTRY, entryHash, posOf } from './append';
import { eventHash } from './canonical';
import { startFakeAnchor } from './fakeAnchor';
import { merkleRoot } from './merkle';
import type { VerifyReport } from './verify';

let h: Harness;
let fake: Awaited<ReturnType<typeof startFakeAnchor>>;
let staff: Record<string, string>;
let monitor: Record<string, string>;
let ibcId: string;
let deliver: () => Promise<string>;
const TODAY = new Date().toISOString().slice(0, 10);
const IBC = 'agro-ibc-test';
const BULK = 'agro-truebulk-test';

type Body = Record<string, any>;
const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown, status = 200, headers = staff) => {
  const r = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as Body;
};
const verify = async () => (await ok('GET', '/api/ledger/verify', undefined, 200, monitor)) as VerifyReport;
const problemOf = async (account: string) => (await verify()).accounts.find((a) => a.account === account)!.problem;
const entries = (account: string) => h.store.find(CHAIN_ENTRY, { filter: { account }, sort: { seq: 1 } });
let tag = 0;
const mapNfc = () => ok('POST', `/api/v3/operations/ibc/${ibcId}/transitions/mapNfc`, { fields: { nfcTagNumber: `TAG-${++tag}` } });

beforeAll(async () => {
  fake = await startFakeAnchor({ port: 4141 });
  h = await startHarness({ env: { BLOCKCHAIN_ANCHOR_URL: fake.url } });
  staff = (await h.userWith(['Master Data', 'Imports', 'productTraceability', 'Bulk Deliveries', 'Bulk Reception', 'IBC Inventory', 'Map IBC'])).headers;
  monitor = (await h.userWith(['Sync Logs'])).headers;
  const litre = (await h.store.insert('units_of_measurement', { unit_name: 'Litre', code: 'LT', state: 1 })).id;
  const bulk = (await h.store.insert('material', { name: 'Glyphosate bulk', uom: litre, state: 1 })).id;
  const division = async (division_name: string, company_id: string) => (await h.store.insert('company_division', {
    division_name, division_type: 'deposit', senasa_id_type: 'x', erp_id: division_name, company_id, country: 'AR', state: 1,
  })).id;
  const plant = await division('Plant deposit', (await h.store.insert('company', aCompany('Agro SA') as Doc)).id);
  const receiver = (await h.store.insert('company', aCompany('Formulator SRL') as Doc)).id;
  const dist = await division('Formulator deposit', receiver);
  await ok('POST', '/api/v3/masterdata/truck', { truckNo: 'TRK-1', plate: 'AB 123 CD', state: 1 }, 201);
  await ok('POST', '/api/v3/masterdata/iso_tank', { isoTankLicense: 'ISO-1', capacity: 24000, state: 1 }, 201);
  const imp = await ok('POST', '/api/v3/operations/product_import', { importDate: TODAY, importID: 'IMP-BULK', deposit: plant, productData: [{ material: bulk, batchId: 'BULK-1', quantity: 30000, uom: litre }] }, 201);
  await ok('POST', `/api/v3/operations/product_import/${imp.id}/transitions/confirm`, {});
  let n = 0;
  deliver = async () => {
    const d = await ok('POST', '/api/v3/operations/bulk_delivery', {
      sendDate: TODAY, shipmentID: `R-${++n}`, deposit: plant, receiverDeposit: dist, receiver, material: bulk, batchId: 'BULK-1', quantity: 100, uom: litre,
      truckMapping: { truckNo: 'TRK-1', isoTankLicense: 'ISO-1' },
    }, 201);
    await ok('POST', `/api/v3/operations/bulk_delivery/${d.id}/transitions/confirm`, {});
    await ok('POST', `/api/v3/operations/bulk_delivery/${d.id}/transitions/accept`, { fields: { receivedDate: TODAY } });
    return d.id as string;
  };
  ibcId = (await ok('POST', '/api/v3/masterdata/ibc_container', { serial_number: 'IBC-1', manufactured_date: '2025-01-01', material_type: 'rigid_plastic', capacity: 1000, deposit_id: plant, state: 1 }, 201)).id;
  for (let i = 0; i < 3; i++) await mapNfc();
  await deliver();
  await deliver();
});
afterAll(async () => {
  await h?.close();
  await fake?.stop();
});

describe('chaining', () => {
  it('chains every IBC event and every true bulk event to the active (test) accounts, in write order; other events are not chained', async () => {
    const ibc = await entries(IBC);
    const ibcEvents = await h.store.find('ibc_event', { sort: { id: 1 } });
    expect(ibcEvents.length).toBe(3);
    expect(ibc.map((e) => [e.seq, e.collection, e.eventId])).toEqual(ibcEvents.map((e, i) => [i + 1, 'ibc_event', e.id]));
    const bulkEvents = await h.store.find('object_events', { filter: { 'operation.workflow': 'bulk_delivery' }, sort: { id: 1 } });
    expect(bulkEvents.length).toBe(4);
    expect((await entries(BULK)).map((e) => e.eventId)).toEqual(bulkEvents.map((e) => e.id));
    // Each entry: its event's canonical hash, linked to the one before.
    const all = [...ibc, ...(await entries(BULK))];
    for (const e of all) expect(e.hash).toBe(entryHash(e as never));
    expect(ibc[1].prev).toBe(ibc[0].hash);
    expect(ibc[0].eventHash).toBe(eventHash(ibcEvents[0]));
    // The product import's event is no true bulk one: in no chain.
    const importEvent = (await h.store.find('object_events', { filter: { 'operation.workflow': 'product_import' } }))[0];
    expect(await h.store.count(CHAIN_ENTRY, { eventId: importEvent.id })).toBe(0);
    const report = await verify();
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.accounts.map((a) => [a.account, a.active, a.entries])).toEqual([
      ['agro-ibc-production', false, 0], [IBC, true, 3], ['agro-truebulk-production', false, 0], [BULK, true, 4],
    ]);
  });

  it('verify needs Sync Logs or Monitoring', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/ledger/verify', headers: staff })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url: '/api/ledger/verify', headers: (await h.userWith(['Monitoring'])).headers })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api/ledger/verify' })).statusCode).toBe(401);
  });
});

describe('tampering in the store is named by GET /api/ledger/verify', () => {
  /** Tampers, checks what verify says, undoes it and checks the ledger is whole again. */
  async function tampered(account: string, tamper: () => Promise<() => Promise<unknown>>, expected: Record<string, unknown>) {
    const undo = await tamper();
    try {
      expect(await problemOf(account)).toMatchObject(expected);
      expect((await verify()).accounts.filter((a) => !a.ok).map((a) => a.account)).toEqual([account]);
    } finally {
      await undo();
    }
    expect((await verify()).ok).toBe(true);
  }

  it('an event changed after it was chained: altered, the event named', async () => {
    const [, second] = await entries(IBC);
    const original = (await h.store.get('ibc_event', second.eventId as string))!;
    await tampered(IBC, async () => {
      await h.store.patch('ibc_event', original.id, { customer: 'someone else' });
      return () => h.store.update('ibc_event', original.id, original);
    }, { type: 'altered', seq: 2, collection: 'ibc_event', eventId: original.id });
  });

  it('an event deleted: removed, the event named', async () => {
    const [, , third] = await entries(BULK);
    const original = (await h.store.get('object_events', third.eventId as string))!;
    await tampered(BULK, async () => {
      await h.store.delete('object_events', original.id);
      return () => h.store.insert('object_events', original);
    }, { type: 'removed', seq: 3, collection: 'object_events', eventId: original.id });
  });

  it('two entries swapped: reordered, at the first of them', async () => {
    const [, b, c] = await entries(BULK);
    /** Moves b and c to these places (pos and seq), through a free one (the pos is unique). */
    const place = async (seqB: number, seqC: number) => {
      const posAt = (seq: number) => posOf(BULK, seq);
      await h.store.patch(CHAIN_ENTRY, c.id, { pos: 'parked' });
      await h.store.patch(CHAIN_ENTRY, b.id, { pos: posAt(seqB), seq: seqB });
      await h.store.patch(CHAIN_ENTRY, c.id, { pos: posAt(seqC), seq: seqC });
    };
    await tampered(BULK, async () => {
      await place(3, 2);
      return () => place(2, 3);
    }, { type: 'reordered', seq: 2, eventId: c.eventId });
  });

  it('an entry deleted: the gap, at the entry after it', async () => {
    const [first, second] = await entries(IBC);
    await tampered(IBC, async () => {
      await h.store.delete(CHAIN_ENTRY, first.id);
      return () => h.store.insert(CHAIN_ENTRY, first);
    }, { type: 'gap', seq: 2, eventId: second.eventId });
  });

  it('an event no entry names: unchained, the event named', async () => {
    const [model] = await h.store.find('ibc_event', { limit: 1 });
    const forged = { ...model, id: `${model.id}x`, customer: 'forged' } as Doc;
    await tampered(IBC, async () => {
      await h.store.insert('ibc_event', forged);
      return () => h.store.delete('ibc_event', forged.id as string);
    }, { type: 'unchained', collection: 'ibc_event', eventId: forged.id });
  });
});

describe('anchoring', () => {
  it('anchors each account with new entries on demand: its Merkle root to the network, recorded; the next one goes on from there', async () => {
    const first = (await ok('POST', '/api/ledger/anchor', undefined, 200, monitor)).data as Body[];
    expect(first.map((a) => [a.account, a.fromSeq, a.toSeq, a.status])).toEqual([[IBC, 1, 3, 'anchored'], [BULK, 1, 4, 'anchored']]);
    expect(first[0].root).toBe(merkleRoot((await entries(IBC)).map((e) => e.hash as string)));
    expect(fake.control.anchored.map((a) => [a.account, a.network, a.root, a.txHash])).toEqual(first.map((a) => [a.account, 'agro-traceability', a.root, a.txHash]));
    // Nothing new: nothing sent.
    expect((await ok('POST', '/api/ledger/anchor', undefined, 200, monitor)).data).toEqual([]);
    await mapNfc();
    const next = (await ok('POST', '/api/ledger/anchor', undefined, 200, monitor)).data as Body[];
    expect(next.map((a) => [a.account, a.fromSeq, a.toSeq, a.status])).toEqual([[IBC, 4, 4, 'anchored']]);
    expect((await verify()).accounts.find((a) => a.account === IBC)).toMatchObject({ ok: true, anchoredThrough: 4 });
  });

  it('records a failed anchoring with its error and covers its entries next time', async () => {
    fake.control.mode = 'down';
    await deliver();
    const failed = (await ok('POST', '/api/ledger/anchor', undefined, 200, monitor)).data as Body[];
    expect(failed).toMatchObject([{ account: BULK, fromSeq: 5, toSeq: 6, status: 'failed', error: expect.stringContaining('503') }]);
    fake.control.mode = 'up';
    await deliver();
    expect((await ok('POST', '/api/ledger/anchor', undefined, 200, monitor)).data).toMatchObject([{ account: BULK, fromSeq: 5, toSeq: 8, status: 'anchored' }]);
    expect((await h.store.find('chain_anchor', { filter: { account: BULK }, sort: { at: 1 } })).map((a) => a.status)).toEqual(['anchored', 'failed', 'anchored']);
  });

  it('a chain rewritten whole after an event was changed (every hash redone) is caught by its anchored root', async () => {
    const chain = await entries(IBC);
    const original = (await h.store.get('ibc_event', chain[1].eventId as string))!;
    const originals = chain.map((e) => ({ ...e }));
    await h.store.patch('ibc_event', original.id, { customer: 'rewritten' });
    // The forger redoes the event's hash and every entry after it: the links all hold.
    let prev = chain[0].hash as string;
    for (const e of chain.slice(1)) {
      const body = { ...e, prev, eventHash: e.eventId === original.id ? eventHash((await h.store.get('ibc_event', original.id))!) : e.eventHash };
      prev = entryHash(body as never);
      await h.store.update(CHAIN_ENTRY, e.id, { ...body, hash: prev } as Doc);
    }
    try {
      expect(await problemOf(IBC)).toMatchObject({ type: 'anchorMismatch', seq: 1, anchor: { fromSeq: 1, toSeq: 3 } });
    } finally {
      await h.store.update('ibc_event', original.id, original);
      for (const e of originals) await h.store.update(CHAIN_ENTRY, e.id, e);
    }
    expect((await verify()).ok).toBe(true);
  });

  it('an anchoring is the server\'s: the master-data API cannot forge one, and one that is no range of the chain is a mismatch, not a failure', async () => {
    const forged = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/chain_anchor', headers: (await h.userWith(['Sync Logs', 'Master Data'])).headers, payload: {
      at: '2026-01-01T00:00:00Z', account: IBC, kind: 'ibc', environment: 'test', network: 'n', fromSeq: 5, toSeq: 2, entries: 3, root: 'x', status: 'anchored',
    } });
    expect(forged.statusCode).toBe(400);
    // Written straight into the store (a damaged or hand-made record): named, and verify still answers.
    const bad = await h.store.insert('chain_anchor', { at: '2026-01-01T00:00:00Z', account: IBC, kind: 'ibc', environment: 'test', network: 'n', fromSeq: 5, toSeq: 2, entries: 3, root: 'x', status: 'anchored' });
    try {
      expect(await problemOf(IBC)).toMatchObject({ type: 'anchorMismatch', anchor: { id: bad.id, fromSeq: 5, toSeq: 2 } });
    } finally {
      await h.store.delete('chain_anchor', bad.id);
    }
    expect((await verify()).ok).toBe(true);
  });

  it('/blockchain-sync-logs shows every anchoring, newest first, its labels in the user\'s language', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/v3/reports/blockchain_sync_logs/rows?status=failed', headers: { ...monitor, 'accept-language': 'es' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().anchorData).toMatchObject([{ account: BULK, fromSeq: 5, toSeq: 6, statusLabel: { es: 'Fallido' }, error: expect.stringContaining('503') }]);
    const all = (await ok('GET', '/api/v3/reports/blockchain_sync_logs/rows', undefined, 200, monitor)).anchorData as Body[];
    expect(all.length).toBe(5);
    expect(all.map((a) => a.at)).toEqual([...all.map((a) => a.at)].sort().reverse());
    expect((await h.app.inject({ method: 'GET', url: '/api/v3/reports/blockchain_sync_logs/rows', headers: staff })).statusCode).toBe(403);
  });
});
