/**
 * The headers and identifier rows stay in step with the event rows whoever writes them: CSV
 * imports (and their undo), a journaled transition replayed after a crash, and the build at boot
 * of a store whose events predate them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../boot';
import { multipart } from '../imports/testing/harness';
import { undoChunk } from '../imports/apply';
import { UNDO } from '../imports/jobs';
import { BALANCES } from '../ledger/ledger';
import { forgetBuilt } from '../summaryMarks';
import { openTestStore, startHarness, type Harness } from '../testing/harness';
import type { Store } from '../store/types';
import { ENGINE, OperationService } from '../workflows/service';
import { JOURNAL } from '../workflows/journal';
import { seedShipping, shipmentRegistry } from '../workflows/testing/fixture';
import type { AuthPrincipal } from '../auth/principal';
import { EPCIS_EVENTS, EPCIS_IDS } from './model';
import { isValidDocument } from './schema';
import { eventsOf } from './testing/examples';

let h: Harness;
let importer: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  importer = (await h.userWith(['Data Import'])).headers;
});
afterAll(async () => { await h?.close(); });

const query = async (qs = '') => {
  const r = await h.app.inject({ url: `/api/epcis/events?perPage=1000${qs ? `&${qs}` : ''}`, headers: importer });
  expect(r.statusCode, r.body).toBe(200);
  expect(isValidDocument(r.json()).problems).toEqual([]);
  return eventsOf(r.json());
};

async function importCsv(entity: string, content: string): Promise<{ id: string; status: string; counts: Record<string, number> }> {
  const body = multipart({ entity }, { name: 'events.csv', content });
  const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
  expect(r.statusCode, r.body).toBe(202);
  for (let i = 0; i < 200; i++) {
    const job = (await h.app.inject({ url: `/api/imports/${r.json().id}`, headers: importer })).json();
    if (!['queued', 'validating', 'running', 'applying'].includes(job.status)) return job;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('import did not finish');
}

const OBJECT = [
  'event_time,biz_step,disposition,action,epcList,quantityList.1.epcClass,quantityList.1.quantity,quantityList.1.uom,read_point,business_transaction.id',
  '2025-03-01T10:00:00Z,shipping,in_transit,OBSERVE,"urn:epc:id:sgtin:0614141.107346.2017, urn:epc:id:sgtin:0614141.107346.2018",urn:epc:class:lgtin:4012345.012345.998877,200,KGM,urn:epc:id:sgln:0614141.07346.1234,PO-1',
  '2025-03-02T11:30:00Z,fumigating,,,,,,,Shed 4,',
].join('\n');
const TRANSFORMATION = [
  'event_time,biz_step,inputEPCList,outputQuantityList',
  '2025-04-01T08:00:00Z,commissioning,"urn:epc:id:sgtin:0614141.107346.2018","[{""epcClass"": ""urn:epc:class:lgtin:4012345.012345.777"", ""quantity"": 3, ""uom"": ""KGM""}]"',
].join('\n');

describe('events imported from CSV', () => {
  it('are answered by the query as valid EPCIS, found by their identifiers in either spelling; importing again adds nothing', async () => {
    expect((await importCsv('object_events', OBJECT)).status).toBe('succeeded');
    expect((await importCsv('transformation_events', TRANSFORMATION)).status).toBe('succeeded');
    const events = await query();
    expect(events).toHaveLength(3);
    // One import's rows share their write time; they follow each other in id order, after earlier writes.
    const at = (t: string) => events.find((e) => e.eventTime === t)!;
    const [shipped, odd, transformed] = [at('2025-03-01T10:00:00Z'), at('2025-03-02T11:30:00Z'), at('2025-04-01T08:00:00Z')];
    expect(events.at(-1)).toBe(transformed);
    expect(shipped).toMatchObject({
      type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit', eventTime: '2025-03-01T10:00:00Z', eventTimeZoneOffset: '+00:00',
      epcList: ['urn:epc:id:sgtin:0614141.107346.2017', 'urn:epc:id:sgtin:0614141.107346.2018'],
      quantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.012345.998877', quantity: 200, uom: 'KGM' }],
      readPoint: { id: 'urn:epc:id:sgln:0614141.07346.1234' }, bizTransactionList: [{ bizTransaction: 'urn:tracemesh:bt:PO-1' }],
    });
    expect(shipped.eventID).toMatch(/^ni:\/\/\/sha-256;/);
    // What the row said is kept, as values the schema accepts.
    expect(odd).toMatchObject({ bizStep: 'urn:tracemesh:bizstep:fumigating', readPoint: { id: 'urn:tracemesh:location:Shed%204' }, epcList: [] });
    expect(transformed).toMatchObject({ type: 'TransformationEvent', inputEPCList: ['urn:epc:id:sgtin:0614141.107346.2018'], outputQuantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.012345.777', quantity: 3, uom: 'KGM' }] });
    const ids = (evs: Record<string, any>[]) => evs.map((e) => e.eventID as string);
    expect(ids(await query('MATCH_epc=https://id.gs1.org/01/10614141073464/21/2018'))).toEqual([shipped.eventID]);
    expect(ids(await query('MATCH_anyEPC=urn:epc:id:sgtin:0614141.107346.2018'))).toEqual([shipped.eventID, transformed.eventID]);
    expect(ids(await query(`EQ_eventID=${encodeURIComponent(transformed.eventID)}`))).toEqual([transformed.eventID]);
    const counts = [await h.store.count(EPCIS_EVENTS), await h.store.count(EPCIS_IDS)];
    expect((await importCsv('object_events', OBJECT)).counts).toMatchObject({ insert: 0, unchanged: 2 });
    expect([await h.store.count(EPCIS_EVENTS), await h.store.count(EPCIS_IDS)]).toEqual(counts);
  });

  it('taken back (an import chunk undone) leave the query too', async () => {
    const before = await h.store.count(EPCIS_EVENTS);
    const job = await importCsv('object_events', 'event_time,biz_step,epcList\n2025-06-01T00:00:00Z,receiving,urn:epc:id:sgtin:0614141.107346.999\n');
    expect(await h.store.count(EPCIS_EVENTS)).toBe(before + 1);
    expect(await query('MATCH_epc=urn:epc:id:sgtin:0614141.107346.999')).toHaveLength(1);
    // The chunk's undo record, as the import wrote it before its rows (cleared once the job succeeded).
    const [row] = await h.store.find('object_events', { filter: { event_time: '2025-06-01T00:00:00Z' } });
    await h.store.insert(UNDO, { id: `${job.id}:0`, job: job.id, line: 0, coll: 'object_events', inserted: [row.id], updated: [] });
    await undoChunk(h.store, `${job.id}:0`);
    expect(await h.store.get('object_events', row.id)).toBeNull();
    expect(await h.store.count(EPCIS_EVENTS)).toBe(before);
    expect(await query('MATCH_epc=urn:epc:id:sgtin:0614141.107346.999')).toEqual([]);
  });
});

describe('a store whose events predate the index', () => {
  it('gets it built at boot, once, answering as before', async () => {
    const before = await query();
    expect(before.length).toBeGreaterThan(0);
    for (const coll of [EPCIS_EVENTS, EPCIS_IDS]) for (const d of await h.store.find(coll, { projection: { id: 1 } })) await h.store.delete(coll, d.id);
    expect(await query()).toEqual([]);
    // A store that has it marked built is left alone…
    await prepareStore(h.registry, h.store);
    expect(await query()).toEqual([]);
    // …one that has not gets it built from its event rows.
    await forgetBuilt(h.store, 'epcis_index');
    await prepareStore(h.registry, h.store);
    expect((await query()).map((e) => ({ ...e, recordTime: undefined }))).toEqual(before.map((e) => ({ ...e, recordTime: undefined })));
  });
});

describe('a transition replayed from its journal after a crash', () => {
  it('indexes its events once', async () => {
    const registry = shipmentRegistry();
    const { store, dispose } = await openTestStore(registry, 'tm-epcis-replay-');
    try {
      const seed = await seedShipping(store);
      // The store as a crash sees it: no transactions (the journal is used), and the journal entry left behind.
      let crash = true;
      const crashing = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop === 'capabilities') return { transactions: false };
          if (prop === 'delete') return async (coll: string, id: string) => {
            if (coll === JOURNAL && crash) { crash = false; throw new Error('crash'); }
            return target.delete(coll, id);
          };
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }) as Store;
      const service = new OperationService(registry, crashing, ENGINE);
      const who = { userId: 'u1', email: 'u@test', displayName: 'U', sessionId: 's', groups: [], access: ['superadmin'], selectedWarehouse: null } as AuthPrincipal;
      const draft = await service.create('test_shipment', { shipmentID: 'R-1', deposit: seed.from, receiverDeposit: seed.to, productData: [{ material: seed.material, batchId: seed.lot, amount: 4, uom: seed.uom }] }, who, 'en') as { id: string };
      await store.insert(BALANCES, { id: `${seed.material}|${seed.lot}|${seed.from}`, material: seed.material, batch: seed.lot, deposit: seed.from, quantity: 100, unit: seed.uom });
      await expect(service.transition('test_shipment', draft.id, 'confirm', {}, who, 'en')).rejects.toThrow('crash');
      const written = [await store.count(EPCIS_EVENTS), await store.count(EPCIS_IDS)];
      expect(await store.count(JOURNAL)).toBe(1);
      expect(await service.applier.recover()).toBe(1);
      expect([await store.count(EPCIS_EVENTS), await store.count(EPCIS_IDS)]).toEqual(written);
      expect(await store.count(EPCIS_EVENTS)).toBe(await store.count('object_events'));
    } finally {
      await dispose();
    }
  });
});
