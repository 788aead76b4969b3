import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { EPCIS_COLLECTIONS } from './model';
import { isValidDocument } from './schema';
import { parseQuery } from './params';
import { EventQuery, SCAN_KEYS } from './query';
import { eventsOf } from './testing/examples';
import { playStory, type Story } from './testing/story';

let h: Harness;
let s: Story;
let viewer: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  s = await playStory(h);
  viewer = (await h.userWith(['Traceability Map'])).headers;
});
afterAll(async () => { await h?.close(); });

const get = (qs: string, headers = viewer) => h.app.inject({ url: `/api/epcis/events${qs ? `?${qs}` : ''}`, headers });
/** The eventIDs a query answers (one page of up to 1,000), its document checked against GS1's schema. */
const ids = async (qs: string, headers = viewer): Promise<string[]> => {
  const r = await get(qs ? `${qs}&perPage=1000` : 'perPage=1000', headers);
  expect(r.statusCode, r.body).toBe(200);
  expect(isValidDocument(r.json()).problems).toEqual([]);
  expect(r.headers.link).toBeUndefined();
  return eventsOf(r.json()).map((e) => e.eventID);
};
const e = (qs: Record<string, string>) => new URLSearchParams(qs).toString();
const step = (...names: (keyof Story['steps'])[]) => names.map((n) => s.steps[n].eventID);

describe('the query over the events operations made', () => {
  it('lists every event in the order they were stored, each valid EPCIS', async () => {
    expect(await ids('')).toEqual(step('imported', 'declared', 'shipped', 'accepted', 'scrapped'));
  });

  it('eventType, EQ_action, EQ_bizStep and EQ_disposition (bare or as URN)', async () => {
    expect(await ids('eventType=TransformationEvent')).toEqual(step('declared'));
    expect(await ids('eventType=ObjectEvent|AggregationEvent')).toEqual(step('imported', 'shipped', 'accepted', 'scrapped'));
    expect(await ids('EQ_action=DELETE')).toEqual(step('scrapped'));
    expect(await ids('EQ_action=OBSERVE')).toEqual(step('imported', 'shipped', 'accepted'));
    expect(await ids('EQ_bizStep=shipping')).toEqual(step('shipped'));
    expect(await ids(e({ EQ_bizStep: 'urn:epcglobal:cbv:bizstep:receiving' }))).toEqual(step('imported', 'accepted'));
    expect(await ids('EQ_disposition=active|destroyed')).toEqual(step('declared', 'scrapped'));
    expect(await ids('EQ_bizStep=shipping&EQ_disposition=active')).toEqual([]);
  });

  it('GE_ and LT_eventTime, GE_ and LT_recordTime', async () => {
    const t = s.steps;
    expect(await ids(e({ GE_eventTime: t.shipped.before }))).toEqual(step('shipped', 'accepted', 'scrapped'));
    expect(await ids(e({ LT_eventTime: t.shipped.before }))).toEqual(step('imported', 'declared'));
    expect(await ids(e({ GE_eventTime: t.declared.before, LT_eventTime: t.accepted.before }))).toEqual(step('declared', 'shipped'));
    expect(await ids(e({ GE_recordTime: t.accepted.before }))).toEqual(step('accepted', 'scrapped'));
    expect(await ids(e({ LT_recordTime: t.imported.before }))).toEqual([]);
    expect(await ids(e({ GE_eventTime: s.end }))).toEqual([]);
    // Another offset, the same instant.
    const shifted = new Date(Date.parse(t.shipped.before)).toISOString().replace('Z', '+00:00');
    expect(await ids(e({ GE_eventTime: shifted }))).toEqual(step('shipped', 'accepted', 'scrapped'));
  });

  it('EQ_readPoint and EQ_bizLocation, a GLN matched as SGLN URN or Digital Link alike', async () => {
    expect(await ids(e({ EQ_readPoint: s.plantLoc }))).toEqual(step('imported', 'declared', 'shipped'));
    expect(await ids(e({ EQ_bizLocation: s.plantLoc }))).toEqual(step('imported', 'declared'));
    expect(s.distLoc).toBe('https://id.gs1.org/414/0614141000012');
    expect(await ids(e({ EQ_readPoint: s.distLoc }))).toEqual(step('accepted', 'scrapped'));
    expect(await ids(e({ EQ_bizLocation: 'urn:epc:id:sgln:0614141.00001.0' }))).toEqual(step('accepted', 'scrapped'));
  });

  it('MATCH_epcClass, MATCH_inputEPCClass, MATCH_outputEPCClass and MATCH_anyEPCClass on lots', async () => {
    expect(await ids(e({ MATCH_epcClass: s.aiClass }))).toEqual(step('imported'));
    expect(await ids(e({ MATCH_inputEPCClass: s.aiClass }))).toEqual(step('declared'));
    expect(await ids(e({ MATCH_outputEPCClass: s.aiClass }))).toEqual([]);
    expect(await ids(e({ MATCH_anyEPCClass: s.aiClass }))).toEqual(step('imported', 'declared'));
    expect(await ids(e({ MATCH_outputEPCClass: s.productClass }))).toEqual(step('declared'));
    expect(await ids(e({ MATCH_anyEPCClass: s.productClass }))).toEqual(step('declared', 'shipped', 'accepted', 'scrapped'));
    expect(await ids(e({ MATCH_anyEPCClass: `${s.aiClass}|${s.productClass}` }))).toEqual(step('imported', 'declared', 'shipped', 'accepted', 'scrapped'));
    // Two MATCH_ parameters: both must hold; with the other conditions.
    expect(await ids(e({ MATCH_inputEPCClass: s.aiClass, MATCH_outputEPCClass: s.productClass }))).toEqual(step('declared'));
    expect(await ids(e({ MATCH_anyEPCClass: s.productClass, EQ_bizStep: 'receiving' }))).toEqual(step('accepted'));
    expect(await ids(e({ MATCH_anyEPC: s.productClass }))).toEqual([]);
  });

  it('EQ_eventID', async () => {
    expect(await ids(e({ EQ_eventID: `${s.steps.shipped.eventID}|${s.steps.scrapped.eventID}` }))).toEqual(step('shipped', 'scrapped'));
  });

  it('the events come back as the operations made them', async () => {
    const [ev] = eventsOf((await get(e({ EQ_eventID: s.steps.declared.eventID }))).json());
    const [row] = await h.store.find('transformation_events', { filter: { 'epcis.eventID': s.steps.declared.eventID } });
    const { recordTime, ...rest } = ev;
    expect(rest).toEqual(row.epcis);
    expect(recordTime).toBe(row.createdAt);
  });
});

describe('paging', () => {
  /** Every event a query pages through with perPage=n, following the Link headers. */
  const walk = async (qs: string, n: number, headers = viewer) => {
    const seen: string[] = [];
    let url: string | undefined = `/api/epcis/events?${qs ? `${qs}&` : ''}perPage=${n}`;
    let pages = 0;
    while (url) {
      const r = await h.app.inject({ url, headers });
      expect(r.statusCode, r.body).toBe(200);
      const page = eventsOf(r.json());
      expect(page.length).toBeLessThanOrEqual(n);
      seen.push(...page.map((x) => x.eventID));
      const link = r.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
      if (url) expect(page.length).toBe(n);
      if (++pages > 50) throw new Error('no end');
    }
    return seen;
  };

  it('walks every page without losing or repeating an event, on each way a query is answered', async () => {
    for (const [qs, headers] of [['', viewer], [e({ MATCH_anyEPCClass: `${s.aiClass}|${s.productClass}` }), viewer], ['', s.plantUser], [e({ MATCH_anyEPCClass: s.productClass }), s.distUser]] as const) {
      const all = await ids(qs, headers);
      expect(all.length).toBeGreaterThan(1);
      for (const n of [1, 2, 3]) expect(await walk(qs, n, headers), `${qs} by ${n}`).toEqual(all);
    }
  });

  it('keeps its order when events are stored between pages: they come after', async () => {
    const first = await get('perPage=2');
    const next = /^<([^>]+)>/.exec(first.headers.link as string)![1];
    const r = await h.app.inject({ method: 'POST', url: '/api/epcis/capture', headers: (await h.userWith(['Data Import'])).headers, payload: {
      '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'], type: 'EPCISDocument', schemaVersion: '2.0', creationDate: '2025-01-01T00:00:00Z',
      epcisBody: { eventList: [{ type: 'ObjectEvent', eventTime: '2000-01-01T00:00:00Z', eventTimeZoneOffset: '+00:00', action: 'OBSERVE', epcList: ['urn:epc:id:sgtin:4012345.011111.77'] }] },
    } });
    expect(r.statusCode).toBe(202);
    const rest = eventsOf((await h.app.inject({ url: next.replace('perPage=2', 'perPage=1000'), headers: viewer })).json()).map((x) => x.eventID);
    expect([...eventsOf(first.json()).map((x) => x.eventID), ...rest.slice(0, 3)]).toEqual(step('imported', 'declared', 'shipped', 'accepted', 'scrapped'));
    expect(rest).toHaveLength(4);
  });

  it('advertises its largest page and refuses a larger one; 30 a page by default', async () => {
    const r = await get('perPage=1001');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ type: 'epcisException:QueryParameterException', error: { code: 'EPCIS_PAGE_TOO_LARGE', params: { limit: 1000 } } });
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    const perPage = doc.paths['/api/epcis/events'].get.parameters.find((p: { name: string }) => p.name === 'perPage');
    expect(perPage.description ?? perPage.schema.description).toContain('1 to 1000');
    expect((await get('')).statusCode).toBe(200);
  });
});

describe('the selected warehouse group', () => {
  it('narrows the events to those at, from or to one of its deposits', async () => {
    expect(await ids('', s.plantUser)).toEqual(step('imported', 'declared', 'shipped', 'accepted'));
    expect(await ids('', s.distUser)).toEqual(step('shipped', 'accepted', 'scrapped'));
    expect(await ids(e({ MATCH_anyEPCClass: s.aiClass }), s.distUser)).toEqual([]);
    expect(await ids(e({ MATCH_anyEPCClass: s.productClass }), s.distUser)).toEqual(step('shipped', 'accepted', 'scrapped'));
    expect(await ids('EQ_bizStep=receiving', s.distUser)).toEqual(step('accepted'));
  });

  it('a group the user is not in: 403; a page token of another group does not continue this one', async () => {
    const r = await get('', { ...s.plantUser, [WAREHOUSE_HEADER]: 'Distributor' });
    expect(r.statusCode).toBe(403);
    const link = /^<([^>]+)>/.exec((await get('perPage=1', s.plantUser)).headers.link as string)![1];
    const other = await h.app.inject({ url: link, headers: s.distUser });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('EPCIS_PAGE_TOKEN_INVALID');
  });
});

describe('access and bad parameters', () => {
  it('needs a key of a feature showing events', async () => {
    for (const key of ['Dashboards', 'Traceability Map', 'Data Import']) expect((await get('', (await h.userWith([key])).headers)).statusCode, key).toBe(200);
    const r = await get('', (await h.userWith(['Reception'])).headers);
    expect(r.statusCode).toBe(403);
    expect(r.json().type).toBe('epcisException:SecurityException');
    expect((await get('', {})).statusCode).toBe(401);
  });

  it('answers OPTIONS with what it supports', async () => {
    const r = await h.app.inject({ method: 'OPTIONS', url: '/api/epcis/events', headers: viewer });
    expect(r.statusCode).toBe(204);
    expect(r.headers).toMatchObject({ allow: 'OPTIONS, GET', 'gs1-epcis-version': '2.0.0' });
  });

  it('refuses unknown names, wrong values, operators and foreign tokens with a QueryParameterException, changing nothing', async () => {
    const digest = async () => {
      const hash = createHash('sha256');
      for (const c of EPCIS_COLLECTIONS) hash.update(JSON.stringify(await h.store.find(c.name, { sort: { id: 1 } })));
      return hash.digest('hex');
    };
    const before = await digest();
    const token = /nextPageToken=([^&>]+)/.exec((await get('perPage=1')).headers.link as string)![1];
    for (const [qs, code] of [
      ['EQ_bizstep=shipping', 'EPCIS_QUERY_UNKNOWN_PARAMETER'], ['orderBy=eventTime', 'EPCIS_QUERY_UNKNOWN_PARAMETER'],
      ['GE_eventTime=yesterday', 'EPCIS_QUERY_INVALID_VALUE'], ['LT_recordTime=2025-01-01', 'EPCIS_QUERY_INVALID_VALUE'],
      ['perPage=abc', 'EPCIS_QUERY_INVALID_VALUE'], ['perPage=0', 'EPCIS_QUERY_INVALID_VALUE'], ['perPage=-5', 'EPCIS_QUERY_INVALID_VALUE'],
      ['EQ_action=MOVE', 'EPCIS_QUERY_INVALID_VALUE'], ['eventType=Thing', 'EPCIS_QUERY_INVALID_VALUE'], ['EXISTS_errorDeclaration=maybe', 'EPCIS_QUERY_INVALID_VALUE'],
      ['MATCH_epc=not%20a%20uri', 'EPCIS_QUERY_INVALID_VALUE'], ['MATCH_anyEPCClass=', 'EPCIS_QUERY_INVALID_VALUE'], ['EQ_eventID=a||b', 'EPCIS_QUERY_INVALID_VALUE'],
      ['nextPageToken=garbage!', 'EPCIS_PAGE_TOKEN_INVALID'], [`nextPageToken=${token}&EQ_bizStep=shipping`, 'EPCIS_PAGE_TOKEN_INVALID'],
      ['EQ_bizStep[$ne]=x', 'EPCIS_QUERY_UNKNOWN_PARAMETER'], [e({ MATCH_epc: '{"$gt":""}' }), 'EPCIS_QUERY_INVALID_VALUE'],
    ]) {
      const r = await get(qs);
      expect(r.statusCode, qs).toBe(400);
      expect(r.json(), qs).toMatchObject({ type: 'epcisException:QueryParameterException', status: 400, error: { code } });
    }
    const repeated = await get('perPage=1&perPage=2');
    expect(repeated.statusCode).toBe(400);
    expect(await digest()).toBe(before);
  });
});

describe('a page that would look through too many events', () => {
  /** Every page of a query, following the cursors, on a query that looks through at most `scanKeys` events a page. */
  const pages = async (query: Record<string, string>, scanKeys: number, scope: ReadonlySet<string> | null = null) => {
    const eq = new EventQuery(h.store, { scanKeys });
    const { parsed } = parseQuery(query, 1000, null);
    const out: string[][] = [];
    for (let after: string | undefined, n = 0; n < 10; n++) {
      const page = await eq.page({ ...parsed, ...(after ? { after } : {}) }, scope);
      out.push(page.events.map((ev) => String(ev.eventID)));
      if (!page.next) return out;
      after = page.next;
    }
    throw new Error('the cursors never end');
  };

  it('stops at the scan limit and answers what it found, with the cursor to go on: no event lost or repeated', async () => {
    // Four events name the product's lot; the one asked for is the last of them.
    const q = { MATCH_anyEPCClass: s.productClass, EQ_eventID: s.steps.scrapped.eventID };
    expect(await pages(q, SCAN_KEYS)).toEqual([step('scrapped')]);
    const short = await pages(q, 2);
    expect(short[0]).toEqual([]);
    expect(short.flat()).toEqual(step('scrapped'));
    // Narrowed to a group with no MATCH_: the group's location rows drive, under the same limit.
    const plant = new Set([s.plantLoc]);
    expect((await pages({ EQ_eventID: s.steps.shipped.eventID }, 1, plant)).flat()).toEqual(step('shipped'));
    expect((await pages({ eventType: 'ObjectEvent' }, 1, plant)).flat()).toEqual(step('imported', 'shipped', 'accepted'));
  });
});
