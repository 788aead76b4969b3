/**
 * Error declarations as a holder of the capture key who did not capture the event would try
 * them: on an event an operation made (the ledger and the trace stand on it) and on an event
 * another user captured. Real operations (testing/story.ts) and the real capture route; runs on
 * both stores (MONGODB_URI: the wire server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { eventsOf } from './testing/examples';
import { playStory, type Story } from './testing/story';

let h: Harness;
let s: Story;
let alice: Record<string, string>;
let mallory: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  s = await playStory(h);
  alice = (await h.userWith(['Data Import'])).headers;
  mallory = (await h.userWith(['Data Import'])).headers;
  admin = (await h.userWith(['superadmin'])).headers;
}, 120_000);
afterAll(async () => { await h?.close(); });

const CONTEXT = ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'];
const documentOf = (events: unknown[]) => ({ '@context': CONTEXT, type: 'EPCISDocument', schemaVersion: '2.0', creationDate: '2025-01-01T00:00:00Z', epcisBody: { eventList: events } });
const capture = async (events: unknown[], headers: Record<string, string>) => {
  const r = await h.app.inject({ method: 'POST', url: '/api/epcis/capture', headers, payload: documentOf(events) as never });
  expect(r.statusCode, r.body).toBe(202);
  return r.json();
};
const eventById = async (eventID: string): Promise<Record<string, any>> => {
  const r = await h.app.inject({ url: `/api/epcis/events?EQ_eventID=${encodeURIComponent(eventID)}`, headers: admin });
  expect(r.statusCode, r.body).toBe(200);
  const [ev, ...more] = eventsOf(r.json());
  expect(more).toEqual([]);
  return ev;
};
const declared = (ev: Record<string, any>) => {
  const { recordTime: _r, errorDeclaration: _e, ...rest } = ev;
  return { ...rest, errorDeclaration: { declarationTime: '2025-03-20T08:00:00Z', reason: 'did_not_occur' } };
};
const mine = {
  type: 'ObjectEvent', eventID: 'urn:uuid:3a6f0b7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', eventTime: '2025-03-01T10:00:00.000Z', eventTimeZoneOffset: '+00:00',
  action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit', epcList: ['urn:epc:id:sgtin:4012345.011111.9001'], readPoint: { id: 'urn:epc:id:sgln:4012345.00001.0' },
};

describe('an error declaration', () => {
  it('of an event an operation made is refused: the shipment stays as the operation recorded it', async () => {
    const shipped = await eventById(s.steps.shipped.eventID);
    expect(shipped.errorDeclaration).toBeUndefined();
    const job = await capture([declared(shipped)], mallory);
    expect(job).toMatchObject({ success: false, counts: { declarations: 0, stored: 0, rejected: 1 } });
    expect(job.errors).toEqual([expect.objectContaining({ code: 'EPCIS_DECLARATION_NOT_YOURS', status: 403, type: 'epcisException:SecurityException', pointer: '/epcisBody/eventList/0' })]);
    expect((await eventById(s.steps.shipped.eventID)).errorDeclaration).toBeUndefined();
    expect(await h.store.count('epcis_declarations')).toBe(0);
  });

  it('of an event another user captured is refused; whoever captured it may declare it', async () => {
    expect((await capture([mine], alice)).counts.stored).toBe(1);
    const job = await capture([declared(mine)], mallory);
    expect(job).toMatchObject({ success: false, counts: { declarations: 0, rejected: 1 } });
    expect(job.errors).toEqual([expect.objectContaining({ code: 'EPCIS_DECLARATION_NOT_YOURS', status: 403 })]);
    expect((await eventById(mine.eventID)).errorDeclaration).toBeUndefined();
    expect((await capture([declared(mine)], alice)).counts.declarations).toBe(1);
    expect((await eventById(mine.eventID)).errorDeclaration).toEqual({ declarationTime: '2025-03-20T08:00:00Z', reason: 'did_not_occur' });
  });

  it('by an administrator may name any event', async () => {
    expect((await capture([declared(await eventById(s.steps.scrapped.eventID))], admin)).counts.declarations).toBe(1);
    expect((await eventById(s.steps.scrapped.eventID)).errorDeclaration).toMatchObject({ reason: 'did_not_occur' });
  });
});
