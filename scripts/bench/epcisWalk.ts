/**
 * A trace done the way OpenTraceability resolves one: recursively, one EPCIS 2.0 query per
 * identifier per hop, against the standard REST query interface (GET /events with
 * `MATCH_anyEPCClass` for a lot class, `MATCH_anyEPC` for a serialised object such as an IBC,
 * `perPage`, and the next page's link). From a lot class it follows transformations both ways
 * (outputs of an event it is an input of, forward; inputs of one it is an output of, backward)
 * and asks for the events of each container its quantities were packed in. The client knows
 * nothing of the ledger: only what the events say.
 */

export interface EpcisWalkResult {
  /** HTTP requests made (every page of every hop). */
  queries: number;
  events: number;
  /** Lot classes reached, the start's included. */
  classes: Set<string>;
  ms: number;
}

type Ev = Record<string, unknown>;
const listOf = (v: unknown): Ev[] => (Array.isArray(v) ? (v as Ev[]) : []);
const classes = (list: unknown) => listOf(list).map((q) => String(q.epcClass ?? '')).filter(Boolean);
const epcs = (list: unknown) => (Array.isArray(list) ? (list as unknown[]).map(String) : []);

/** The next page's address from the standard's Link header (`<…>; rel="next"`), else a `nextPageToken` the body carries. */
function nextPage(res: Response, body: Ev, url: URL): URL | null {
  const link = res.headers.get('link');
  const m = link ? /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link) : null;
  if (m) return new URL(m[1], url);
  const token = (body.nextPageToken ?? ((body.epcisBody as Ev | undefined)?.queryResults as Ev | undefined)?.nextPageToken) as string | undefined;
  if (!token) return null;
  const next = new URL(url);
  next.searchParams.set('nextPageToken', token);
  return next;
}

/** Every event matching one query, page by page. */
async function query(base: string, headers: Record<string, string>, param: string, value: string, perPage: number, count: () => void): Promise<Ev[]> {
  let url: URL | null = new URL('/api/epcis/events', base);
  url.searchParams.set(param, value);
  url.searchParams.set('perPage', String(perPage));
  const out: Ev[] = [];
  while (url) {
    count();
    const res = await fetch(url, { headers });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${url.pathname}${url.search}: ${res.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as Ev;
    const results = ((body.epcisBody as Ev | undefined)?.queryResults as Ev | undefined)?.resultsBody as Ev | undefined;
    out.push(...listOf(results?.eventList));
    url = nextPage(res, body, url);
  }
  return out;
}

/** Whether the server answers the standard events query at all (404: the route is not there). */
export async function epcisAvailable(base: string, headers: Record<string, string>): Promise<{ ok: boolean; status: number }> {
  const res = await fetch(new URL('/api/epcis/events?perPage=1', base), { headers });
  await res.text();
  return { ok: res.ok, status: res.status };
}

/** Traces a lot class backward and forward, one query per identifier and hop. */
export async function walkEpcis(base: string, headers: Record<string, string>, start: string, perPage = 100): Promise<EpcisWalkResult> {
  const t = performance.now();
  let queries = 0;
  const seen = new Map<string, Ev>();
  const reached = new Set([start]);
  const asked = new Set<string>();
  let hop: { id: string; kind: 'class' | 'epc'; dir: 'forward' | 'backward' | 'both' }[] = [{ id: start, kind: 'class', dir: 'both' }];
  while (hop.length) {
    const next: typeof hop = [];
    for (const h of hop) {
      const key = `${h.kind}|${h.id}|${h.dir}`;
      if (asked.has(key)) continue;
      asked.add(key);
      const found = await query(base, headers, h.kind === 'class' ? 'MATCH_anyEPCClass' : 'MATCH_anyEPC', h.id, perPage, () => queries++);
      for (const e of found) {
        seen.set(String(e.eventID ?? JSON.stringify(e)), e);
        if (h.kind !== 'class') continue;
        if (e.type === 'TransformationEvent') {
          const inputs = classes(e.inputQuantityList);
          const outputs = classes(e.outputQuantityList);
          const follow = (list: string[], dir: 'forward' | 'backward') => {
            for (const c of list) if (c !== h.id) { reached.add(c); next.push({ id: c, kind: 'class', dir }); }
          };
          if (inputs.includes(h.id) && h.dir !== 'backward') follow(outputs, 'forward');
          if (outputs.includes(h.id) && h.dir !== 'forward') follow(inputs, 'backward');
        } else {
          // The containers the lot travelled in: each asked for its own events.
          for (const epc of epcs(e.epcList)) if (!asked.has(`epc|${epc}|both`)) next.push({ id: epc, kind: 'epc', dir: 'both' });
        }
      }
    }
    hop = next;
  }
  return { queries, events: seen.size, classes: reached, ms: performance.now() - t };
}
