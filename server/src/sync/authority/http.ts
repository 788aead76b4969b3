/**
 * The authority over its HTTP API (docs/authority.md): the fake's JSON API, which the real
 * one's adapter maps onto. What can be retried throws AuthorityUnavailable; only the
 * authority's own verdict on a transaction (a 4xx with {code, reason}) is a refusal.
 * Credentials live in this closure only: they appear in no message and no log.
 */
import { badBaseUrl, DEFAULT_AUTHORITY_TIMEOUT_MS } from './settings';
import { AuthorityUnavailable, type AuthorityAdapter, type AuthorityAnswer, type AuthorityQuery, type AuthorityTransaction, type CommittedTransaction } from './types';

export interface HttpAuthorityOptions {
  baseUrl: string;
  user: string;
  password: string;
  /** Per call, connection to last byte (default 10 s). */
  timeoutMs?: number;
}

/**
 * Statuses that say nothing about the transaction, so it is tried again later: credentials
 * refused (fix the settings, the records are fine), no such route (a wrong base URL), timeouts
 * and throttling. The authority's verdicts on a transaction are 400, 409 and 422.
 */
const RETRY_STATUSES = new Set([401, 403, 404, 405, 407, 408, 425, 429]);

/** Retry-After as seconds or an HTTP date, in ms. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function base(url: string): URL {
  const wrong = badBaseUrl(url);
  if (wrong) throw new Error(`the authority's base URL ${wrong}`);
  const u = new URL(url);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

async function jsonBody(res: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await res.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function createHttpAuthority(options: HttpAuthorityOptions): AuthorityAdapter {
  const root = base(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_AUTHORITY_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;

  /** One call; anything short of an answer from the authority throws AuthorityUnavailable. */
  async function call(method: 'GET' | 'POST', path: string, init: { body?: unknown; key?: string } = {}): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
    const url = new URL(path, root);
    const what = `${method} ${url.origin}${url.pathname}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.key !== undefined ? { 'idempotency-key': init.key } : {}),
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'TimeoutError') throw new AuthorityUnavailable(`${what}: no answer within ${timeoutMs} ms`);
      throw new AuthorityUnavailable(`${what}: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
    }
    // A body cut off on the way reads as none: a write then throws AuthorityUnavailable below.
    const body = await jsonBody(res);
    if (res.status >= 500 || RETRY_STATUSES.has(res.status)) {
      const detail = typeof body?.reason === 'string' ? `: ${body.reason}` : '';
      throw new AuthorityUnavailable(`${what} answered ${res.status}${detail}`, retryAfterMs(res.headers.get('retry-after')));
    }
    return { status: res.status, body };
  }

  /** A write: its answer, a refusal (4xx with the authority's code and reason), or AuthorityUnavailable. */
  async function write(path: string, tx: AuthorityTransaction): Promise<AuthorityAnswer> {
    const { status, body } = await call('POST', path, { body: tx, key: tx.key });
    if (status >= 200 && status < 300 && typeof body?.transactionId === 'string') {
      return { ok: true, transactionId: body.transactionId, duplicate: body.duplicate === true };
    }
    if (status >= 400 && status < 500 && typeof body?.code === 'string' && typeof body.reason === 'string') {
      return { ok: false, code: body.code, reason: body.reason };
    }
    // Not the authority's answer (a proxy's page, a route that is not there): nothing is known, so try again later.
    throw new AuthorityUnavailable(`POST ${path} answered ${status} without a transaction id or a refusal`);
  }

  function settle(kind: 'confirm' | 'reject', tx: AuthorityTransaction): Promise<AuthorityAnswer> {
    if (!tx.transactionId) return Promise.resolve({ ok: false, code: 'missing_transaction_id', reason: `a ${kind} names the declaration it answers (transactionId)` });
    return write(`v1/transactions/${encodeURIComponent(tx.transactionId)}/${kind}`, tx);
  }

  return {
    declare: (tx) => write('v1/transactions', tx),
    confirm: (tx) => settle('confirm', tx),
    reject: (tx) => settle('reject', tx),
    async query(q: AuthorityQuery) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
      const { status, body } = await call('GET', `v1/transactions?${params}`);
      if (status === 200 && Array.isArray(body?.transactions) && typeof body.total === 'number') {
        return { transactions: body.transactions as CommittedTransaction[], total: body.total };
      }
      const why = typeof body?.reason === 'string' ? body.reason : `answered ${status}`;
      throw new Error(`the authority refused the query: ${why}`);
    },
  };
}
