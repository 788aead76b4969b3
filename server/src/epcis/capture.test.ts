import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { isValidDocument } from './schema';
import { eventsOf, gs1Examples, withoutRecordTime } from './testing/examples';

let h: Harness;
let capturer: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  capturer = (await h.userWith(['Data Import'])).headers;
});
afterAll(async () => { await h?.close(); });

const capture = (payload: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/api/epcis/capture', headers: { ...capturer, ...headers }, payload: payload as never });
const query = async (qs: string, headers = capturer) => {
  const r = await h.app.inject({ url: `/api/epcis/events?${qs}`, headers });
  expect(r.statusCode, r.body).toBe(200);
  return r;
};

describe("GS1's example documents", () => {
  it('are captured, and come back from the query as they were, in a document valid against the schema', async () => {
    for (const { name, doc } of gs1Examples()) {
      const r = await capture(doc);
      expect(r.statusCode, `${name}: ${r.body}`).toBe(202);
      const job = r.json();
      expect(job).toMatchObject({ running: false, success: true, captureErrorBehaviour: 'rollback', errors: [] });
      expect(job.counts.stored, name).toBe(doc.epcisBody.eventList.length);
      expect(r.headers.location).toBe(`/api/epcis/capture/${job.captureID}`);
      for (const ev of doc.epcisBody.eventList) {
        const q = await query(`EQ_eventID=${encodeURIComponent(ev.eventID)}`);
        const answer = q.json();
        expect(isValidDocument(answer).problems, name).toEqual([]);
        const [back] = eventsOf(answer);
        expect(withoutRecordTime(back), name).toEqual(ev);
        expect(back.recordTime).toMatch(/Z$/);
        // The document's prefixes come back with the events that use them.
        expect(answer['@context']).toEqual(expect.arrayContaining(doc['@context']));
      }
    }
  });
});
