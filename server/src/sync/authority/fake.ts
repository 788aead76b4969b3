/**
 * A fake of the agricultural authority's HTTP API, for tests, the sync bench and
 * `npm run fake-authority` (docs/authority.md). Real HTTP on loopback: declare, confirm,
 * reject and query transactions under HTTP Basic credentials and idempotency keys, with
 * faults on demand, driven in process (`control`) or over HTTP (`/_control/*`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FakeBook, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Kind } from './fakeBook';
import { Faults, parseFault, type FaultMode, type FaultOptions, type FaultSettings } from './fakeFaults';
import { checkDeclaration, checkKey, checkSettlement, type Refusal } from './fakeRules';
import type { AuthorityQuery, AuthorityTransaction } from './types';

export type { FaultMode, FaultOptions, FaultSettings } from './fakeFaults';

export interface FakeAuthorityOptions {
  /** 0 (default): any free port. */
  port?: number;
  host?: '127.0.0.1';
  user: string;
  password: string;
  /** A JSON-lines journal: the transactions survive a restart of the fake. */
  file?: string;
}

export interface FakeStats {
  /** How many times each idempotency key was committed: 1 each, always (2 would be a double declaration). */
  commitsPerKey: Record<string, number>;
  /** Commits per `${kind}:${recordId}`: above 1, a record was declared under two keys. */
  commitsPerRecord: Record<string, number>;
  /** API calls received (control calls excluded), faulted ones included. */
  calls: number;
  /** Transactions committed. */
  committed: number;
  /** Resends answered with the id of an earlier commit. */
  duplicates: number;
  /** Calls a fault answered (reset, 5xx, dropped after commit) or a reject-mode refusal. */
  faulted: number;
}

export interface FakeControl {
  /** Sets the fault mode ('up' clears it). */
  set(mode: FaultMode, options?: FaultOptions): void;
  fault(): FaultSettings;
  stats(): FakeStats;
  /** Forgets every transaction and counter, and is up again. */
  reset(): void;
}

export interface FakeAuthority {
  url: string;
  control: FakeControl;
  stop(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;

class HttpError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const sendRefusal = (res: ServerResponse, r: Refusal, headers?: Record<string, string>) => send(res, r.status, { code: r.code, reason: r.reason }, headers);
const unauthorized = (res: ServerResponse) => sendRefusal(res, { status: 401, code: 'unauthorized', reason: 'wrong or missing credentials' }, { 'www-authenticate': 'Basic realm="authority"' });

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new HttpError({ status: 413, code: 'too_large', reason: `the body is larger than ${BODY_LIMIT} bytes` });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError({ status: 400, code: 'bad_json', reason: 'the body is not JSON' });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError({ status: 400, code: 'bad_json', reason: 'the body must be a JSON object' });
  return body as Record<string, unknown>;
}

/** Basic credentials, compared in constant time (on digests, so lengths leak nothing either). */
function authorizer(user: string, password: string): (header: string | undefined) => boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expected = digest(`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
  return (header) => header !== undefined && timingSafeEqual(digest(header.trim()), expected);
}

function parseQuery(params: URLSearchParams): AuthorityQuery {
  const q: AuthorityQuery = {};
  for (const f of ['remito', 'gtin', 'lot', 'serial'] as const) if (params.get(f)) q[f] = params.get(f)!;
  for (const f of ['from', 'to'] as const) {
    const v = params.get(f);
    if (!v) continue;
    if (Number.isNaN(Date.parse(v))) throw new HttpError({ status: 400, code: 'bad_query', reason: `${f} "${v}" is not an ISO date` });
    q[f] = v;
  }
  const int = (name: 'page' | 'pageSize', max: number) => {
    const v = params.get(name);
    if (v === null || v === '') return;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new HttpError({ status: 400, code: 'bad_query', reason: `${name} must be a whole number from 1 to ${max}` });
    q[name] = n;
  };
  int('page', 1_000_000);
  int('pageSize', MAX_PAGE_SIZE);
  q.pageSize ??= DEFAULT_PAGE_SIZE;
  return q;
}

/** The write routes: POST /v1/transactions (declare) and POST /v1/transactions/:id/(confirm|reject). */
function writeRoute(method: string, path: string): { kind: Kind; settles?: string } | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/transactions') return { kind: 'declare' };
  const m = /^\/v1\/transactions\/([^/]+)\/(confirm|reject)$/.exec(path);
  if (!m) return undefined;
  let settles = m[1];
  try {
    settles = decodeURIComponent(m[1]);
  } catch {
    // A malformed escape names no transaction the authority has: unknown_transaction, not a crash.
  }
  return { kind: m[2] as Kind, settles };
}

export async function startFakeAuthority(options: FakeAuthorityOptions): Promise<FakeAuthority> {
  const book = new FakeBook(options.file);
  const faults = new Faults();
  const authorized = authorizer(options.user, options.password);
  /** Aborts the calls waiting in slow mode: on stop, and on reset (which forgets calls in flight too). */
  let inflight = new AbortController();
  const counters = { calls: 0, duplicates: 0, faulted: 0 };

  const control: FakeControl = {
    set: (mode, opts = {}) => {
      const settings = parseFault({ ...opts, mode });
      if (typeof settings === 'string') throw new Error(settings);
      faults.set(settings);
    },
    fault: () => faults.get(),
    stats: () => ({ commitsPerKey: { ...book.commitsPerKey }, commitsPerRecord: { ...book.commitsPerRecord }, calls: counters.calls, committed: book.committed, duplicates: counters.duplicates, faulted: counters.faulted }),
    reset: () => {
      inflight.abort();
      inflight = new AbortController();
      book.clear();
      faults.set({ mode: 'up' });
      Object.assign(counters, { calls: 0, duplicates: 0, faulted: 0 });
    },
  };

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && (path === '/_control' || path === '/_control/stats')) return send(res, 200, path === '/_control' ? { fault: faults.get(), stats: control.stats() } : control.stats());
    if (req.method === 'POST' && path === '/_control/fault') {
      const settings = parseFault(await readJson(req));
      if (typeof settings === 'string') return sendRefusal(res, { status: 400, code: 'bad_fault', reason: settings });
      faults.set(settings);
      return send(res, 200, { fault: faults.get() });
    }
    if (req.method === 'POST' && path === '/_control/reset') {
      control.reset();
      return send(res, 200, { fault: faults.get(), stats: control.stats() });
    }
    return sendRefusal(res, { status: 404, code: 'not_found', reason: `no control route ${req.method} ${path}` });
  }

  function handleWrite(req: IncomingMessage, res: ServerResponse, body: Partial<AuthorityTransaction>, route: { kind: Kind; settles?: string }, drop: boolean, refuse?: Refusal): void {
    const key = checkKey(req.headers['idempotency-key'] as string | undefined, body);
    if (typeof key !== 'string') return sendRefusal(res, key);
    if (body.kind !== undefined && body.kind !== route.kind) return sendRefusal(res, { status: 400, code: 'kind_mismatch', reason: `a ${body.kind} sent to the ${route.kind} route` });
    if (route.settles !== undefined && body.transactionId !== undefined && body.transactionId !== route.settles) {
      return sendRefusal(res, { status: 400, code: 'transaction_id_mismatch', reason: 'the path and the body name different transactions' });
    }
    // A key committed before gets its id back whatever the mode: the commit stands.
    if (!book.byIdempotencyKey(key)) {
      const now = Date.now();
      const invalid = route.kind === 'declare' ? checkDeclaration(body, now) : checkSettlement(route.kind, body, now);
      if (invalid) return sendRefusal(res, invalid);
      if (refuse) {
        faults.spent();
        counters.faulted++;
        return sendRefusal(res, refuse);
      }
    }
    const result = book.commit(key, route.kind, body, route.settles);
    if (!result.ok) return sendRefusal(res, result.refusal);
    if (result.duplicate) counters.duplicates++;
    else if (drop) {
      // The commit stands; the answer is lost on the way back.
      faults.spent();
      counters.faulted++;
      res.socket?.resetAndDestroy();
      return;
    }
    send(res, result.duplicate ? 200 : 201, { transactionId: result.transactionId, duplicate: result.duplicate, committedAt: result.committedAt });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://authority.invalid');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/_control' || path.startsWith('/_control/')) {
      if (!authorized(req.headers.authorization)) return unauthorized(res);
      return handleControl(req, res, path);
    }
    counters.calls++;
    const route = writeRoute(req.method ?? 'GET', path);
    const verdict = faults.before(route !== undefined);
    if (verdict.action === 'reset') {
      counters.faulted++;
      req.socket.resetAndDestroy();
      return;
    }
    if (verdict.action === 'fail') {
      counters.faulted++;
      return send(res, verdict.status, { code: verdict.code, reason: verdict.reason }, verdict.retryAfterS !== undefined ? { 'retry-after': String(verdict.retryAfterS) } : {});
    }
    if (!authorized(req.headers.authorization)) return unauthorized(res);
    // Read before a slow wait: the call is then handled even if its caller gave up meanwhile.
    const body = route ? await readJson(req) : {};
    if (verdict.action === 'handle' && verdict.delayMs) await sleep(verdict.delayMs, undefined, { signal: inflight.signal });
    if (route) return handleWrite(req, res, body, route, verdict.action === 'dropAfterCommit', verdict.action === 'refuse' ? { status: 422, code: verdict.code, reason: verdict.reason } : undefined);
    if (req.method === 'GET' && path === '/v1/transactions') return send(res, 200, book.query(parseQuery(url.searchParams)));
    return sendRefusal(res, { status: 404, code: 'not_found', reason: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if ((err as Error)?.name === 'AbortError') return void req.socket.destroy();
      if (err instanceof HttpError) return sendRefusal(res, err.refusal);
      if (!res.headersSent) send(res, 500, { code: 'internal_error', reason: String((err as Error)?.message ?? err) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    control,
    stop: async () => {
      inflight.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
