/**
 * Answers a parsed EPCIS query a page at a time, in event key order (model.ts), keyset-paged so
 * a page costs the same wherever it lies and a page never loses nor repeats an event:
 *
 * - with a MATCH_ parameter, the events come from the identifier rows of its values (one id
 *   range each, merged in key order), their headers then filtered on the scalar conditions;
 * - with a warehouse group selected and no MATCH_, from the location rows of its deposits;
 * - otherwise from the headers themselves, filtered and sorted by the store.
 *
 * Conditions the driving rows cannot decide (a second MATCH_, the group's deposits under a
 * MATCH_) are checked on each candidate; events are read from where they live (a captured one
 * from its header, the platform's own from their entity rows) for the page only.
 */
import { EPCIS_CONTEXT } from '../../../engine/src/index';
import type { Filter, Store, StoredDoc } from '../store/types';
import { EPCIS_EVENTS, EPCIS_IDS, afterKey, eventOfRow, idPrefix, identifiersOf, prefixEnd, roleOfRow, type Group, type Role } from './model';
import type { Match, ParsedQuery } from './params';

type Ev = Record<string, unknown>;

export interface QueryPage {
  events: Ev[];
  /** The query document's `@context`: the standard's, and the prefixes the page's events were captured with. */
  context: unknown[];
  /** The key of the page's last event when more follow (the next page's cursor). */
  next?: string;
}

/** The conditions on a header's scalar fields, as a store filter. */
function headerFilter(q: ParsedQuery): Filter {
  const f: Filter = {};
  const inList = (field: string, values?: string[]) => { if (values) f[field] = { $in: values }; };
  inList('type', q.types);
  inList('action', q.actions);
  inList('bizStep', q.bizSteps);
  inList('disposition', q.dispositions);
  inList('readPoint', q.readPoints);
  inList('bizLocation', q.bizLocations);
  inList('eventID', q.eventIDs);
  const range = (field: string, r: { ge?: string; lt?: string }) => {
    if (r.ge || r.lt) f[field] = { ...(r.ge ? { $gte: r.ge } : {}), ...(r.lt ? { $lt: r.lt } : {}) };
  };
  range('eventTime', q.eventTime);
  range('recordTime', q.recordTime);
  if (q.declared) f.declared = true;
  return f;
}

/** The event keys under one identifier's rows, in order, from after `start`, roles filtered, read a batch at a time. */
async function* keysOf(store: Store, group: Group, value: string, roles: ReadonlySet<Role>, start: string | undefined, batch: number): AsyncGenerator<string> {
  const prefix = idPrefix(group, value);
  const end = prefixEnd(prefix);
  let from = start ? afterKey(prefix, start) : prefix;
  for (;;) {
    // From the cursor on, in id order, a batch at a time; the range ends at the first id past it.
    // (Only a lower bound: with both, the embedded store's type brackets give SQLite two upper
    // bounds, and it may walk the index from the cursor to its end.)
    const rows = await store.find(EPCIS_IDS, { filter: { id: { $gte: from } }, sort: { id: 1 }, limit: batch });
    for (const row of rows) {
      if (row.id >= end) return;
      // The digest names one identifier; the stored value guards against the unlikely collision.
      if (row.v !== value || !roles.has(roleOfRow(row.id))) continue;
      yield row.id.slice(prefix.length, row.id.lastIndexOf('!'));
    }
    if (rows.length < batch) return;
    from = `${rows[rows.length - 1].id}\u0000`;
  }
}

/** Several key streams merged in key order, each key once. */
async function* merged(streams: AsyncGenerator<string>[]): AsyncGenerator<string> {
  const heads = await Promise.all(streams.map((s) => s.next()));
  let last: string | undefined;
  for (;;) {
    let min: string | undefined;
    for (const h of heads) if (!h.done && (min === undefined || h.value < min)) min = h.value;
    if (min === undefined) return;
    for (let i = 0; i < heads.length; i++) {
      while (!heads[i].done && heads[i].value === min) heads[i] = await streams[i].next();
    }
    if (min !== last) yield min;
    last = min;
  }
}

/**
 * The most events one page looks through (candidates from identifier or location rows) before it
 * answers: a query whose other conditions match few of them (a group's deposits with a bizStep
 * they never saw) would otherwise read every event of the driving rows in one request. Past it the
 * page answers what it found, maybe nothing, with the token to go on from where it stopped.
 */
export const SCAN_KEYS = 10_000;

export class EventQuery {
  constructor(private readonly store: Store, private readonly limits: { scanKeys: number } = { scanKeys: SCAN_KEYS }) {}

  /**
   * One page of events. `scope`: the canonical locations of the selected warehouse group's
   * deposits (null: no group selected), an event being in it when one of its places is.
   */
  async page(q: ParsedQuery, scope: ReadonlySet<string> | null): Promise<QueryPage> {
    const want = q.perPage + 1;
    const filter = headerFilter(q);
    let headers: StoredDoc[];
    const driver = [...q.matches].sort((a, b) => a.values.length - b.values.length)[0];
    if (!driver && !scope) {
      headers = await this.store.find(EPCIS_EVENTS, { filter: q.after ? { ...filter, id: { $gt: q.after } } : filter, sort: { id: 1 }, limit: want });
      return this.present(headers, q.perPage);
    }
    if (scope && scope.size === 0) return { events: [], context: [EPCIS_CONTEXT] };
    const batch = Math.min(1_000, want * 2 + 10);
    const streams = driver
      ? driver.values.map((v) => keysOf(this.store, driver.group, v, driver.roles, q.after, batch))
      : [...scope!].map((v) => keysOf(this.store, 'L', v, new Set(['loc']), q.after, batch));
    const others = q.matches.filter((m) => m !== driver);
    const keys = merged(streams);
    const found: { header: StoredDoc; event: Ev }[] = [];
    let done = false;
    let examined = 0;
    let last: string | undefined;
    while (!done && found.length < want && examined < this.limits.scanKeys) {
      const chunk: string[] = [];
      const size = Math.min(batch, this.limits.scanKeys - examined);
      while (chunk.length < size) {
        const n = await keys.next();
        if (n.done) { done = true; break; }
        chunk.push(n.value);
      }
      if (chunk.length === 0) break;
      examined += chunk.length;
      last = chunk[chunk.length - 1];
      const got = await this.store.find(EPCIS_EVENTS, { filter: { ...filter, id: { $in: chunk } }, sort: { id: 1 } });
      const inScope = got.filter((h) => !scope || !driver || (Array.isArray(h.locs) && h.locs.some((l) => scope.has(String(l)))));
      for (const item of await this.resolve(inScope)) {
        if (others.every((m) => matches(item.event, m))) found.push(item);
        if (found.length >= want) break;
      }
    }
    await keys.return(undefined);
    // Stopped by the scan limit with the page not full: the next page goes on after the last event looked at.
    return this.finish(found, q.perPage, !done && found.length < want ? last : undefined);
  }

  private async present(headers: StoredDoc[], perPage: number): Promise<QueryPage> {
    return this.finish(await this.resolve(headers), perPage);
  }

  /** The events of these headers, in their order; one whose row is gone (deleted since) is left out. */
  private async resolve(headers: StoredDoc[]): Promise<{ header: StoredDoc; event: Ev }[]> {
    const rows = new Map<string, Ev>();
    const bySource = new Map<string, string[]>();
    for (const h of headers) if (typeof h.src === 'string') bySource.set(h.src, [...(bySource.get(h.src) ?? []), String(h.row)]);
    for (const [src, ids] of bySource) {
      for (const row of await this.store.find(src, { filter: { id: { $in: ids } } })) {
        const ev = eventOfRow(src, row);
        if (ev) rows.set(`${src} ${row.id}`, ev);
      }
    }
    return headers.flatMap((header) => {
      const event = typeof header.src === 'string' ? rows.get(`${header.src} ${String(header.row)}`) : (header.epcis as Ev | undefined);
      return event ? [{ header, event }] : [];
    });
  }

  /** The page as the query document lists it: eventID, recordTime and error declaration from the header; `resume`: the cursor when the page stopped short of its end. */
  private finish(found: { header: StoredDoc; event: Ev }[], perPage: number, resume?: string): QueryPage {
    const page = found.slice(0, perPage);
    const context = new PageContext();
    const events = page.map(({ header, event }) => {
      const out: Ev = { ...event };
      if (typeof out.eventID !== 'string') out.eventID = header.eventID;
      out.recordTime = header.recordTime;
      if (header.declaration && typeof header.declaration === 'object') out.errorDeclaration = header.declaration;
      if (out['@context'] === undefined && header.ctx !== undefined && !context.absorb(header.ctx)) out['@context'] = header.ctx;
      return out;
    });
    const next = found.length > perPage ? page[page.length - 1].header.id : resume;
    return { events, context: context.value(), ...(next !== undefined ? { next } : {}) };
  }
}

/** Whether an event names one of the match's identifiers in one of its roles. */
function matches(event: Ev, m: Match): boolean {
  const values = new Set(m.values);
  return identifiersOf(event).some((i) => m.roles.has(i.role) && values.has(i.value));
}

/**
 * The document-level `@context` of a page: the standard context, every other context URL the
 * events were captured with, and their prefixes in one object; an event whose prefix means
 * something else than an earlier event's keeps its own context instead.
 */
class PageContext {
  private readonly urls: string[] = [EPCIS_CONTEXT];
  private readonly prefixes: Record<string, unknown> = {};

  absorb(ctx: unknown): boolean {
    const items = Array.isArray(ctx) ? ctx : [ctx];
    const objects = items.filter((c): c is Record<string, unknown> => !!c && typeof c === 'object' && !Array.isArray(c));
    for (const o of objects) for (const [k, v] of Object.entries(o)) if (k in this.prefixes && JSON.stringify(this.prefixes[k]) !== JSON.stringify(v)) return false;
    for (const c of items) if (typeof c === 'string' && !this.urls.includes(c)) this.urls.push(c);
    for (const o of objects) Object.assign(this.prefixes, o);
    return true;
  }

  value(): unknown[] {
    return Object.keys(this.prefixes).length ? [...this.urls, this.prefixes] : [...this.urls];
  }
}

