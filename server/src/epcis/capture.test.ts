import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { EPCIS_COLLECTIONS } from './model';
import { isValidDocument } from './schema';
import { eventsOf, gs1Examples, withoutRecordTime } from './testing/examples';

let h: Harness;
let capturer: { id: string; headers: Record<string, string> };
let other: Record<string, string>;
let admin: Record<string, string>;

// Small limits, so going over them costs little: 3 events and 16 KB a capture.
beforeAll(async () => {
  h = await startHarness({ env: { EPCIS_CAPTURE_LIMIT: '3', EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB: '16' } });
  capturer = await h.userWith(['Data Import']);
  other = (await h.userWith(['Data Import'])).headers;
  admin = (await h.userWith(['superadmin'])).headers;
});
afterAll(async () => { await h?.close(); });

const capture = (payload: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/api/epcis/capture', headers: { ...capturer.headers, ...headers }, payload: payload as never });
const query = async (qs: string, headers = capturer.headers) => {
  const r = await h.app.inject({ url: `/api/epcis/events?${qs}`, headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
/** A digest of the EPCIS collections and the event entities: a refused capture changes none of them. */
async function snapshot(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of [...EPCIS_COLLECTIONS.map((c) => c.name), 'object_events', 'transformation_events']) hash.update(name).update(JSON.stringify(await h.store.find(name, { sort: { id: 1 } })));
  return hash.digest('hex');
}

const CONTEXT = ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'];
const documentOf = (events: unknown[]) => ({ '@context': CONTEXT, type: 'EPCISDocument', schemaVersion: '2.0', creationDate: '2025-01-01T00:00:00Z', epcisBody: { eventList: events } });
let serial = 0;
/** A GS1-shaped object event of its own (a fresh serial each). */
const objectEvent = (extra: Record<string, unknown> = {}): Record<string, any> => ({
  type: 'ObjectEvent', eventTime: '2025-03-01T10:00:00.000Z', eventTimeZoneOffset: '+00:00', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit',
  epcList: [`urn:epc:id:sgtin:4012345.011111.${++serial}`], readPoint: { id: 'urn:epc:id:sgln:4012345.00001.0' }, ...extra,
});

describe("GS1's example documents", () => {
  it('are captured, and come back from the query as they were, in a document valid against the schema', async () => {
    for (const { name, doc } of gs1Examples()) {
      const r = await capture(doc);
      expect(r.statusCode, `${name}: ${r.body}`).toBe(202);
      const job = r.json();
      expect(job).toMatchObject({ running: false, success: true, captureErrorBehaviour: 'rollback', errors: [] });
      expect(job.counts, name).toMatchObject({ events: doc.epcisBody.eventList.length, stored: doc.epcisBody.eventList.length, duplicates: 0 });
      expect(r.headers.location).toBe(`/api/epcis/capture/${job.captureID}`);
      for (const ev of doc.epcisBody.eventList) {
        const answer = await query(`EQ_eventID=${encodeURIComponent(ev.eventID)}`);
        expect(isValidDocument(answer).problems, name).toEqual([]);
        const [back, ...more] = eventsOf(answer);
        expect(more).toEqual([]);
        expect(withoutRecordTime(back), name).toEqual(ev);
        expect(back.recordTime).toMatch(/^\d{4}-.*Z$/);
        // The prefixes the document declared come back with the events that use them.
        expect(answer['@context'], name).toEqual(expect.arrayContaining(doc['@context']));
      }
    }
  });

  it('captured again add nothing, and the job says so', async () => {
    for (const { name, doc } of gs1Examples()) {
      const before = await snapshot();
      const r = await capture(doc);
      expect(r.statusCode, name).toBe(202);
      expect(r.json()).toMatchObject({ success: true, counts: { stored: 0, duplicates: doc.epcisBody.eventList.length } });
      const jobs = await h.store.count('epcis_captures');
      expect(await h.store.count('epcis_events')).toBeGreaterThan(0);
      // Only the new job is written.
      const after = await snapshot();
      expect(after).not.toBe(before);
      await h.store.delete('epcis_captures', r.json().captureID);
      expect(await snapshot()).toBe(before);
      expect(await h.store.count('epcis_captures')).toBe(jobs - 1);
    }
  });

  it('are the same event whatever the spelling: another eventID, CBV URNs, Digital Links, the fields reordered', async () => {
    const [ex] = gs1Examples().filter((e) => e.name.startsWith('Example_9.6.2'));
    const ev = ex.doc.epcisBody.eventList[0];
    const respelt = {
      ...Object.fromEntries(Object.entries(ev).reverse()), eventID: 'urn:uuid:4f1c0e5e-1111-4a2b-8c3d-000000000001',
      bizStep: 'urn:epcglobal:cbv:bizstep:receiving', disposition: 'https://ref.gs1.org/cbv/Disp-in_progress',
      quantityList: [{ epcClass: 'https://id.gs1.org/01/04012345123456/10/998877', quantity: 200, uom: 'KGM' }],
    };
    const r = await capture({ ...ex.doc, epcisBody: { eventList: [respelt] } });
    expect(r.json().counts).toMatchObject({ stored: 0, duplicates: 1 });
  });
});

describe('error declarations', () => {
  it('mark the event they name: the query shows its declaration, EXISTS_errorDeclaration finds it, and the declaration is kept', async () => {
    const original = objectEvent({ eventID: 'urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427' });
    expect((await capture(documentOf([original]))).json().counts.stored).toBe(1);
    expect(eventsOf(await query('EXISTS_errorDeclaration=true')).map((e) => e.eventID)).not.toContain(original.eventID);
    const errorDeclaration = { declarationTime: '2025-03-02T08:00:00Z', reason: 'incorrect_data', correctiveEventIDs: ['urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca428'] };
    const declaration = { ...original, errorDeclaration };
    const r = await capture(documentOf([declaration]));
    expect(r.json()).toMatchObject({ success: true, counts: { stored: 0, declarations: 1 } });
    const declared = eventsOf(await query('EXISTS_errorDeclaration=true'));
    expect(declared.map((e) => e.eventID)).toContain(original.eventID);
    const [back] = eventsOf(await query(`EQ_eventID=${original.eventID}`));
    // The event as declared: the original's content with its declaration, one event for its eventID.
    expect(withoutRecordTime(back)).toEqual(declaration);
    const kept = await h.store.find('epcis_declarations', { filter: { eventID: original.eventID } });
    expect(kept).toHaveLength(1);
    expect(kept[0].event).toEqual(declaration);
    // The same declaration again adds nothing; another one for the same event is refused.
    expect((await capture(documentOf([declaration]))).json()).toMatchObject({ success: true, counts: { duplicates: 1, declarations: 0 } });
    const before = await snapshot();
    const second = await capture(documentOf([{ ...original, errorDeclaration: { ...errorDeclaration, reason: 'did_not_occur' } }]));
    expect(second.statusCode).toBe(202);
    expect(second.json()).toMatchObject({ success: false, counts: { declarations: 0 } });
    expect(second.json().errors).toEqual([expect.objectContaining({ code: 'EPCIS_ALREADY_DECLARED', pointer: '/epcisBody/eventList/0', type: 'epcisException:ValidationException' })]);
    await h.store.delete('epcis_captures', second.json().captureID);
    expect(await snapshot()).toBe(before);
  });

  it('of an event this repository does not hold is kept as an event of its own, found by EXISTS_errorDeclaration', async () => {
    const declaration = objectEvent({ eventID: 'urn:uuid:9a0d2b4c-0000-4000-8000-00000000abcd', errorDeclaration: { declarationTime: '2025-03-02T08:00:00Z', reason: 'did_not_occur' } });
    expect((await capture(documentOf([declaration]))).json().counts.stored).toBe(1);
    const [back] = eventsOf(await query(`EXISTS_errorDeclaration=true&EQ_eventID=${declaration.eventID}`));
    expect(withoutRecordTime(back)).toEqual(declaration);
  });

  it('without an eventID is refused: it cannot name the event it corrects', async () => {
    const r = await capture(documentOf([objectEvent({ errorDeclaration: { declarationTime: '2025-03-02T08:00:00Z' } })]));
    expect(r.statusCode).toBe(400);
    expect(r.json().error.details).toEqual([expect.objectContaining({ field: '/epcisBody/eventList/0/eventID', code: 'EPCIS_DECLARATION_WITHOUT_ID' })]);
  });
});

describe('an event captured without an eventID', () => {
  it('gets its event hash as eventID, and is found by it', async () => {
    const ev = objectEvent();
    const job = (await capture(documentOf([ev]))).json();
    expect(job.counts.stored).toBe(1);
    const page = eventsOf(await query(`MATCH_epc=${encodeURIComponent(ev.epcList[0])}`));
    expect(page).toHaveLength(1);
    expect(page[0].eventID).toMatch(/^ni:\/\/\/sha-256;[0-9a-f]{64}\?ver=CBV2\.0$/);
    expect(eventsOf(await query(`EQ_eventID=${encodeURIComponent(page[0].eventID)}`))).toHaveLength(1);
  });
});

describe('bad captures are refused with the standard error and store nothing', () => {
  const refused = async (payload: unknown, status: number, headers: Record<string, string> = {}) => {
    const before = await snapshot();
    const r = await capture(payload, headers);
    expect(r.statusCode, r.body).toBe(status);
    expect(await snapshot()).toBe(before);
    return r.json();
  };

  it('a body that is not JSON, or JSON that is no EPCIS document', async () => {
    expect((await refused('{"type": "EPCISDocument", ', 400, { 'content-type': 'application/json' })).error.code).toBe('INVALID_JSON');
    expect((await refused('text', 400, { 'content-type': 'application/ld+json' })).error.code).toBe('INVALID_JSON');
    expect((await refused('<EPCISDocument/>', 415, { 'content-type': 'application/xml' })).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    for (const body of [[], { type: 'Nothing' }, { eventList: [] }, 5]) {
      const b = await refused(body, 400);
      expect(b).toMatchObject({ type: 'epcisException:ValidationException', status: 400, error: { code: expect.stringMatching(/EPCIS_INVALID_DOCUMENT|INVALID_JSON/) } });
    }
    const noBody = await refused({ '@context': CONTEXT, type: 'EPCISDocument', schemaVersion: '2.0', creationDate: '2025-01-01T00:00:00Z' }, 400);
    expect(noBody.error.details).toEqual([expect.objectContaining({ field: '/epcisBody' })]);
  });

  it('an invalid event: every problem named by its JSON pointer, the valid events not stored either', async () => {
    const b = await refused(documentOf([objectEvent(), objectEvent({ eventTime: 'yesterday' }), objectEvent({ action: 'MOVE', quantityList: [{ epcClass: 'urn:x', quantity: 'many' }] })]), 400);
    expect(b.type).toBe('epcisException:ValidationException');
    expect(b.error.code).toBe('EPCIS_INVALID_DOCUMENT');
    const fields = b.error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain('/epcisBody/eventList/1/eventTime');
    expect(fields.some((f: string) => f.startsWith('/epcisBody/eventList/2/'))).toBe(true);
    expect(fields.some((f: string) => f.startsWith('/epcisBody/eventList/0'))).toBe(false);
  });

  it('a bizStep or disposition that is no CBV term, bare or as URN or URI', async () => {
    for (const [field, value] of [['bizStep', 'shippping'], ['bizStep', 'urn:epcglobal:cbv:bizstep:teleporting'], ['disposition', 'https://ref.gs1.org/cbv/Disp-lost_in_space'], ['bizStep', 'https://example.com/steps/fumigating']]) {
      const b = await refused(documentOf([objectEvent({ [field]: value })]), 400);
      expect(b.error.details, value).toEqual([expect.objectContaining({ field: `/epcisBody/eventList/0/${field}`, code: 'EPCIS_UNKNOWN_VOCABULARY', message: `${value} is not a term of the Core Business Vocabulary` })]);
    }
  });

  it('more events than the advertised limit: 413', async () => {
    const b = await refused(documentOf([objectEvent(), objectEvent(), objectEvent(), objectEvent()]), 413);
    expect(b).toMatchObject({ type: 'epcisException:CaptureLimitExceededException', error: { code: 'EPCIS_CAPTURE_LIMIT', params: { count: 4, limit: 3 } } });
  });

  it('a document over the advertised size: 413', async () => {
    const b = await refused(documentOf([objectEvent({ 'example:note': 'x'.repeat(17 * 1024) })]), 413);
    expect(b).toMatchObject({ type: 'epcisException:CaptureLimitExceededException', error: { code: 'EPCIS_CAPTURE_TOO_LARGE', params: { limit: 16 * 1024 } } });
  });

  it('an error behaviour the standard does not name', async () => {
    await refused(documentOf([objectEvent()]), 400, { 'gs1-capture-error-behaviour': 'maybe' });
  });

  it('NoSQL operators in place of values', async () => {
    await refused(documentOf([objectEvent({ bizStep: { $ne: '' } })]), 400);
    await refused(documentOf([objectEvent({ epcList: { $gt: '' } })]), 400);
    await refused({ ...documentOf([]), epcisBody: { eventList: { $where: '1' } } }, 400);
  });

  it('without the Data Import key: 403, signed out: 401', async () => {
    const b = await refused(documentOf([objectEvent()]), 403, (await h.userWith(['Dashboards'])).headers);
    expect(b.type).toBe('epcisException:SecurityException');
    await refused(documentOf([objectEvent()]), 401, { authorization: '' });
  });
});

describe('greedy capture (GS1-Capture-Error-Behaviour: proceed)', () => {
  it('stores the valid events and lists the others in the job, by pointer', async () => {
    const good = objectEvent();
    // Two problems in one event: one event refused.
    const r = await capture(documentOf([good, objectEvent({ bizStep: 'shippping', disposition: 'lost' })]), { 'gs1-capture-error-behaviour': 'proceed' });
    expect(r.statusCode).toBe(202);
    expect(r.json()).toMatchObject({ success: false, captureErrorBehaviour: 'proceed', counts: { events: 2, stored: 1, rejected: 1 } });
    expect(r.json().errors).toEqual([
      expect.objectContaining({ pointer: '/epcisBody/eventList/1/bizStep', code: 'EPCIS_UNKNOWN_VOCABULARY' }),
      expect.objectContaining({ pointer: '/epcisBody/eventList/1/disposition', code: 'EPCIS_UNKNOWN_VOCABULARY' }),
    ]);
    expect(eventsOf(await query(`MATCH_epc=${encodeURIComponent(good.epcList[0])}`))).toHaveLength(1);
  });

  it('all or nothing by default: an eventID already naming another event refuses the whole capture', async () => {
    const first = objectEvent({ eventID: 'urn:uuid:00000000-0000-4000-8000-0000000000aa' });
    await capture(documentOf([first]));
    const fresh = objectEvent();
    const r = await capture(documentOf([fresh, objectEvent({ eventID: first.eventID })]));
    expect(r.statusCode).toBe(202);
    expect(r.json()).toMatchObject({ success: false, counts: { events: 2, stored: 0, rejected: 1 } });
    expect(r.json().errors).toEqual([expect.objectContaining({ code: 'EPCIS_EVENT_ID_TAKEN', pointer: '/epcisBody/eventList/1/eventID', status: 409 })]);
    expect(eventsOf(await query(`MATCH_epc=${encodeURIComponent(fresh.epcList[0])}`))).toEqual([]);
  });
});

describe('capture jobs, the limits and the content types', () => {
  it('are shown to whoever captured and to an administrator, to nobody else', async () => {
    const id = (await capture(documentOf([objectEvent()]))).json().captureID;
    const get = (headers: Record<string, string>) => h.app.inject({ url: `/api/epcis/capture/${id}`, headers });
    expect((await get(capturer.headers)).json()).toMatchObject({ captureID: id, running: false, success: true });
    expect((await get(admin)).statusCode).toBe(200);
    const refused = await get(other);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ type: 'epcisException:NoSuchResourceException', error: { code: 'EPCIS_CAPTURE_NOT_FOUND' } });
    const mine = (await h.app.inject({ url: '/api/epcis/capture', headers: capturer.headers })).json().data;
    expect(mine[0].captureID).toBe(id);
    expect((await h.app.inject({ url: '/api/epcis/capture', headers: other })).json().data.map((j: { captureID: string }) => j.captureID)).not.toContain(id);
  });

  it('advertises its limits on OPTIONS and on every capture answer', async () => {
    const o = await h.app.inject({ method: 'OPTIONS', url: '/api/epcis/capture', headers: capturer.headers });
    expect(o.statusCode).toBe(204);
    expect(o.headers).toMatchObject({ 'gs1-epcis-capture-limit': '3', 'gs1-epcis-capture-file-size-limit': String(16 * 1024), 'gs1-epcis-version': '2.0.0', allow: 'OPTIONS, POST, GET' });
    const r = await capture(documentOf([objectEvent()]));
    expect(r.headers['gs1-epcis-capture-limit']).toBe('3');
  });

  it('takes application/ld+json as well as application/json', async () => {
    const r = await capture(JSON.stringify(documentOf([objectEvent()])), { 'content-type': 'application/ld+json' });
    expect(r.statusCode, r.body).toBe(202);
  });
});
