import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startImportHarness, type ImportHarness } from './testing/harness';

let h: ImportHarness;
let importer: Record<string, string>;

async function run(entity: string, content: string, fields: Record<string, string> = {}) {
  const body = multipart({ entity, ...fields }, { name: 'events.csv', content });
  const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
  if (r.statusCode !== 202) return r.json();
  await h.runner.idle();
  return (await h.app.inject({ url: `/api/imports/${r.json().id}`, headers: importer })).json();
}

const OBJECT = [
  'event_time,biz_step,action,epcList,quantityList.1.epcClass,quantityList.1.quantity,quantityList.1.uom,quantityList.2.epcClass,quantityList.2.quantity,business_transaction.id',
  '2025-03-01T10:00:00Z,shipping,OBSERVE,"urn:epc:id:sgtin:0614141.107346.2017, urn:epc:id:sgtin:0614141.107346.2018",urn:epc:class:lgtin:4012345.012345.998877,200,KGM,,,PO-1',
  '2025-03-02T11:30:00Z,receiving,ADD,urn:epc:id:sgtin:0614141.107346.2019,urn:epc:class:lgtin:4012345.012345.1,10,LTR,urn:epc:class:lgtin:4012345.012345.2,5,PO-2',
].join('\n');

beforeAll(async () => {
  h = await startImportHarness();
  importer = await h.userWith(['Data Import']);
});
afterAll(async () => { await h?.close(); });

describe('event import', () => {
  it('stores object events with EPC lists and quantity lists, and a re-run adds nothing', async () => {
    const first = await run('object_events', OBJECT);
    expect(first.status).toBe('succeeded');
    expect(first.counts).toEqual({ insert: 2, update: 0, unchanged: 0, reject: 0 });
    const events = await h.store.find('object_events', { sort: { event_time: 1 } });
    expect(events[0]).toMatchObject({
      event_time: '2025-03-01T10:00:00Z',
      epcList: ['urn:epc:id:sgtin:0614141.107346.2017', 'urn:epc:id:sgtin:0614141.107346.2018'],
      quantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.012345.998877', quantity: 200, uom: 'KGM' }],
      business_transaction: { id: 'PO-1' },
    });
    expect(events[1].quantityList).toEqual([
      { epcClass: 'urn:epc:class:lgtin:4012345.012345.1', quantity: 10, uom: 'LTR' },
      { epcClass: 'urn:epc:class:lgtin:4012345.012345.2', quantity: 5 },
    ]);
    expect(events[0].id).toMatch(/^[0-9A-Z]{26}$/);
    const again = await run('object_events', OBJECT);
    expect(again.counts).toEqual({ insert: 0, update: 0, unchanged: 2, reject: 0 });
    expect(await h.store.count('object_events')).toBe(2);
  });

  it('requires the event_time column, and a value in it', async () => {
    const noColumn = await run('object_events', 'biz_step\nshipping\n');
    expect(noColumn.error).toMatchObject({ code: 'IMPORT_MISSING_COLUMNS', message: 'Required columns are missing: Event time (event_time)' });
    const empty = await run('object_events', 'event_time,biz_step\n,shipping\n2025-01-01T00:00:00Z,x\nyesterday,y\n', { dryRun: 'true' });
    expect(empty.errors.data).toEqual([
      { row: 2, messages: [expect.objectContaining({ column: 'event_time', code: 'FORMAT_MANDATORY', message: 'Event time : A value is mandatory.' })] },
      { row: 4, messages: [expect.objectContaining({ column: 'event_time', code: 'FORMAT_PATTERN' })] },
    ]);
  });

  it('reports the same event twice in one file', async () => {
    const j = await run('object_events', 'event_time,biz_step\n2025-05-01T00:00:00Z,a\n2025-05-01T00:00:00Z,a\n', { dryRun: 'true' });
    expect(j.errors.data).toEqual([{ row: 3, messages: [expect.objectContaining({ code: 'IMPORT_DUPLICATE_EVENT', message: 'The same event is already in row 2 of this file' })] }]);
  });

  it('stores transformation events, quantity lists also given as a JSON cell', async () => {
    const j = await run('transformation_events', [
      'Event time,inputEPCList,outputQuantityList',
      '2025-04-01T08:00:00Z,"urn:a, urn:b","[{""epcClass"": ""urn:c"", ""quantity"": 3, ""uom"": ""KGM""}]"',
      '2025-04-01T09:00:00Z,urn:d,not json',
    ].join('\n'), { mode: 'valid-only' });
    expect(j.counts).toEqual({ insert: 1, update: 0, unchanged: 0, reject: 1 });
    expect(j.errors.data[0]).toMatchObject({ row: 3, messages: [{ column: 'outputQuantityList', code: 'IMPORT_BAD_ROWS_CELL' }] });
    const [ev] = await h.store.find('transformation_events');
    expect(ev).toMatchObject({ inputEPCList: ['urn:a', 'urn:b'], outputQuantityList: [{ epcClass: 'urn:c', quantity: 3, uom: 'KGM' }] });
  });
});
