import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAuthority, type FakeAuthority } from './fake';
import { createHttpAuthority } from './http';
import { FAKE_PASSWORD, FAKE_USER, sampleDeclaration, unavailable, sampleSettlement } from './testing';
import { AuthorityUnavailable, type AuthorityAdapter } from './types';

let fake: FakeAuthority;
let authority: AuthorityAdapter;
const basic = `Basic ${Buffer.from(`${FAKE_USER}:${FAKE_PASSWORD}`).toString('base64')}`;

beforeAll(async () => {
  fake = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD });
  authority = createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 2000 });
});
afterEach(() => fake.control.reset());
afterAll(() => fake.stop());

/** A raw call to the fake, for what the adapter does not send (missing headers, bad bodies, control). */
function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${fake.url}${path}`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe('the fake authority: declare, confirm, reject, query', () => {
  it('commits a declaration once per idempotency key; a resend gets the same id back as a duplicate', async () => {
    const first = await authority.declare(sampleDeclaration(1));
    expect(first).toMatchObject({ ok: true, duplicate: false });
    const again = await authority.declare(sampleDeclaration(1));
    const [stored] = (await authority.query({})).transactions;
    expect(Object.keys(stored).sort()).toEqual(['committedAt', 'cuit', 'destinationGln', 'eventDate', 'key', 'kind', 'lines', 'operation', 'originGln', 'recordId', 'remito', 'transactionId']);
    expect(again).toEqual({ ok: true, duplicate: true, transactionId: (first as { transactionId: string }).transactionId });
    const other = await authority.declare(sampleDeclaration(2));
    expect(other).toMatchObject({ ok: true, duplicate: false });
    expect((other as { transactionId: string }).transactionId).not.toBe((first as { transactionId: string }).transactionId);
    expect(fake.control.stats()).toMatchObject({ commitsPerKey: { 'delivery:rec-1:declare': 1, 'delivery:rec-2:declare': 1 }, committed: 2, duplicates: 1, calls: 4 });
  });

  it('commits a key once when resends race each other (two senders, one record)', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => authority.declare(sampleDeclaration(1))));
    expect(answers.filter((a) => a.ok && !a.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((a) => (a as { transactionId: string }).transactionId)).size).toBe(1);
    expect(fake.control.stats()).toMatchObject({ committed: 1, duplicates: 19, commitsPerKey: { 'delivery:rec-1:declare': 1 } });
  });

  it('refuses a call without credentials or with the wrong ones (401), and the adapter retries those later', async () => {
    const res = await fetch(`${fake.url}/v1/transactions`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await json(res)).toMatchObject({ code: 'unauthorized' });
    const wrong = createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: 'not-it', timeoutMs: 2000 });
    const err = await unavailable(wrong.declare(sampleDeclaration(1)));
    expect(err.message).toContain('401');
    expect(err.message).not.toContain('not-it');
    expect((await fetch(`${fake.url}/_control/stats`)).status).toBe(401);
    expect(fake.control.stats().committed).toBe(0);
  });

  it.each([
    ['no_lines', { lines: [] }],
    ['bad_quantity', { lines: [{ gtin: '07790000000011', lot: 'L1', quantity: 0 }] }],
    ['bad_quantity', { lines: [{ gtin: '07790000000011', lot: 'L1', quantity: -3 }] }],
    ['no_product', { lines: [{ lot: 'L1', quantity: 1 }] }],
    ['bad_gtin', { lines: [{ gtin: '77-90', lot: 'L1', quantity: 1 }] }],
    ['no_lot_or_serial', { lines: [{ gtin: '07790000000011', quantity: 1 }] }],
    ['bad_dates', { lines: [{ gtin: '07790000000011', lot: 'L1', quantity: 1, productionDate: '2026-05-01', expiryDate: '2026-04-01' }] }],
    ['bad_cuit', { cuit: '30500010913' }],
    ['bad_gln', { originGln: '779' }],
    ['same_origin_and_destination', { destinationGln: '7790000000017' }],
    ['event_in_future', { eventDate: new Date(Date.now() + 86_400_000).toISOString() }],
    ['bad_date', { eventDate: 'yesterday' }],
    ['missing_field', { operation: '' }],
  ])('refuses a declaration for good with %s and commits nothing', async (code, spoil) => {
    const answer = await authority.declare(sampleDeclaration(1, spoil as object));
    expect(answer).toMatchObject({ ok: false, code });
    expect((answer as { reason: string }).reason.length).toBeGreaterThan(5);
    expect(fake.control.stats().committed).toBe(0);
  });

  it('asks for the Idempotency-Key header, matching the body\'s key, and a JSON object', async () => {
    const tx = sampleDeclaration(1);
    let res = await post('/v1/transactions', tx);
    expect([res.status, (await json(res)).code]).toEqual([400, 'missing_idempotency_key']);
    res = await post('/v1/transactions', tx, { 'idempotency-key': 'another' });
    expect([res.status, (await json(res)).code]).toEqual([400, 'idempotency_key_mismatch']);
    res = await fetch(`${fake.url}/v1/transactions`, { method: 'POST', headers: { authorization: basic, 'idempotency-key': 'k' }, body: '{nope' });
    expect([res.status, (await json(res)).code]).toEqual([400, 'bad_json']);
    res = await post('/v1/transactions/%E0%A4%A/confirm', { recordId: 'r' }, { 'idempotency-key': 'k2' });
    expect([res.status, (await json(res)).code]).toEqual([422, 'unknown_transaction']);
    res = await post('/v1/nothing', {});
    expect([res.status, (await json(res)).code]).toEqual([404, 'not_found']);
    expect(fake.control.stats().committed).toBe(0);
  });

  it('confirms and rejects a declaration once; an unknown id or a key used for another call is refused', async () => {
    expect(await authority.confirm(sampleSettlement('confirm', 1, 'TX-99999999'))).toMatchObject({ ok: false, code: 'unknown_transaction' });
    expect(await authority.confirm({ ...sampleSettlement('confirm', 1, 'x'), transactionId: undefined })).toMatchObject({ ok: false, code: 'missing_transaction_id' });
    const declared = (await authority.declare(sampleDeclaration(1))) as { transactionId: string };
    const declared2 = (await authority.declare(sampleDeclaration(2))) as { transactionId: string };
    // The declaration's key cannot be reused to confirm it.
    expect(await authority.confirm(sampleSettlement('confirm', 1, declared.transactionId, { key: 'delivery:rec-1:declare' }))).toMatchObject({ ok: false, code: 'idempotency_key_reused' });

    const confirmed = await authority.confirm(sampleSettlement('confirm', 1, declared.transactionId));
    expect(confirmed).toMatchObject({ ok: true, duplicate: false });
    expect(await authority.confirm(sampleSettlement('confirm', 1, declared.transactionId))).toEqual({ ...confirmed, duplicate: true });
    expect(await authority.reject(sampleSettlement('reject', 1, declared.transactionId))).toMatchObject({ ok: false, code: 'already_settled' });

    expect(await authority.reject(sampleSettlement('reject', 2, declared2.transactionId, { reason: undefined }))).toMatchObject({ ok: false, code: 'reason_required' });
    const tooMany = [{ gtin: '07790000000011', lot: 'L2', quantity: 21 }];
    expect(await authority.reject(sampleSettlement('reject', 2, declared2.transactionId, { partial: true, lines: tooMany }))).toMatchObject({ ok: false, code: 'quantity_exceeds_declared' });
    expect(await authority.reject(sampleSettlement('reject', 2, declared2.transactionId, { partial: true, lines: [{ gtin: '07790000000011', lot: 'OTHER', quantity: 1 }] }))).toMatchObject({ ok: false, code: 'line_not_declared' });
    const rejected = await authority.reject(sampleSettlement('reject', 2, declared2.transactionId, { partial: true, lines: [{ gtin: '07790000000011', lot: 'L2', quantity: 5 }] }));
    expect(rejected).toMatchObject({ ok: true, duplicate: false });

    const { transactions } = await authority.query({});
    expect(transactions.map((t) => [t.recordId, t.settlement?.kind, t.settlement?.partial])).toEqual([['rec-1', 'confirm', undefined], ['rec-2', 'reject', true]]);
    expect(transactions[1].settlement).toMatchObject({ transactionId: (rejected as { transactionId: string }).transactionId, reason: 'damaged containers' });
    expect(fake.control.stats().commitsPerRecord).toEqual({ 'declare:rec-1': 1, 'declare:rec-2': 1, 'confirm:rec-1': 1, 'reject:rec-2': 1 });
  });

  it('queries declarations by GTIN, lot, serial and date, page by page, in commit order', async () => {
    for (let n = 1; n <= 25; n++) {
      const gtin = n % 2 ? '07790000000011' : '07790000000028';
      const line = n === 7 ? { gtin, serial: 'S-7', quantity: 1 } : { gtin, lot: `L${n % 5}`, quantity: n };
      expect(await authority.declare(sampleDeclaration(n, { eventDate: `2026-03-${String(n).padStart(2, '0')}T12:00:00.000Z`, lines: [line] }))).toMatchObject({ ok: true });
    }
    const all = await authority.query({ pageSize: 10 });
    expect(all.total).toBe(25);
    expect(all.transactions.map((t) => t.recordId)).toEqual(Array.from({ length: 10 }, (_, i) => `rec-${i + 1}`));
    const page3 = await authority.query({ pageSize: 10, page: 3 });
    expect(page3.transactions.map((t) => t.recordId)).toEqual(['rec-21', 'rec-22', 'rec-23', 'rec-24', 'rec-25']);
    expect(page3.transactions[0]).toMatchObject({ transactionId: expect.stringMatching(/^TX-/), committedAt: expect.any(String), kind: 'declare' });
    expect((await authority.query({ gtin: '07790000000028' })).total).toBe(12);
    expect((await authority.query({ gtin: '07790000000011', lot: 'L1' })).transactions.map((t) => t.recordId)).toEqual(['rec-1', 'rec-11', 'rec-21']);
    expect((await authority.query({ serial: 'S-7' })).transactions.map((t) => t.recordId)).toEqual(['rec-7']);
    expect((await authority.query({ remito: 'R-0001-00000013' })).transactions.map((t) => t.recordId)).toEqual(['rec-13']);
    const window = await authority.query({ from: '2026-03-10T00:00:00Z', to: '2026-03-12T23:59:59Z' });
    expect(window.transactions.map((t) => t.recordId)).toEqual(['rec-10', 'rec-11', 'rec-12']);
    await expect(authority.query({ pageSize: 501 })).rejects.toThrow(/pageSize/);
    await expect(authority.query({ from: 'soon' })).rejects.toThrow(/from/);
  });
});

describe('the fake authority\'s faults', () => {
  it('down: resets connections, commits nothing, and is back when set up', async () => {
    fake.control.set('down');
    await unavailable(authority.declare(sampleDeclaration(1)));
    await unavailable(authority.query({}));
    expect(fake.control.stats()).toMatchObject({ committed: 0, faulted: 2 });
    fake.control.set('up');
    expect(await authority.declare(sampleDeclaration(1))).toMatchObject({ ok: true, duplicate: false });
  });

  it('error5xx: answers the status asked, commits nothing', async () => {
    fake.control.set('error5xx', { status: 502 });
    const err = await unavailable(authority.declare(sampleDeclaration(1)));
    expect(err.message).toContain('502');
    expect(fake.control.stats().committed).toBe(0);
  });

  it('slow: a caller that gives up first sees it unavailable, yet the commit happens and the resend is a duplicate', async () => {
    fake.control.set('slow', { delayMs: 600 });
    const impatient = createHttpAuthority({ baseUrl: fake.url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 150 });
    const started = Date.now();
    const err = await unavailable(impatient.declare(sampleDeclaration(1)));
    expect(err.message).toMatch(/no answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(550);
    await new Promise((r) => setTimeout(r, 700));
    expect(fake.control.stats().commitsPerKey).toEqual({ 'delivery:rec-1:declare': 1 });
    fake.control.set('up');
    expect(await authority.declare(sampleDeclaration(1))).toMatchObject({ ok: true, duplicate: true });
  });

  it('flap: the first call fails with 503, then every other one', async () => {
    fake.control.set('flap');
    const outcomes: string[] = [];
    for (let n = 1; n <= 4; n++) outcomes.push(await authority.declare(sampleDeclaration(n)).then((a) => (a.ok ? 'ok' : 'refused'), (e: Error) => (e instanceof AuthorityUnavailable && e.message.includes('503') ? '503' : e.message)));
    expect(outcomes).toEqual(['503', 'ok', '503', 'ok']);
    expect(fake.control.stats().committed).toBe(2);
  });

  it('dropAfterCommit: the reply is lost, the resend gets the same id as a duplicate, the key is committed once', async () => {
    fake.control.set('dropAfterCommit');
    await unavailable(authority.declare(sampleDeclaration(1)));
    expect(fake.control.stats()).toMatchObject({ committed: 1, commitsPerKey: { 'delivery:rec-1:declare': 1 } });
    const resend = await authority.declare(sampleDeclaration(1));
    expect(resend).toMatchObject({ ok: true, duplicate: true });
    const [stored] = (await authority.query({})).transactions;
    expect(stored.transactionId).toBe((resend as { transactionId: string }).transactionId);
    expect(await authority.declare(sampleDeclaration(1))).toEqual(resend);
    expect(fake.control.stats()).toMatchObject({ committed: 1, commitsPerKey: { 'delivery:rec-1:declare': 1 }, duplicates: 2 });
  });

  it('reject: refuses every new transaction with the reason given; a key committed before keeps its id', async () => {
    const before = await authority.declare(sampleDeclaration(1));
    fake.control.set('reject', { reason: 'CUIT not registered as a distributor', code: 'not_registered' });
    expect(await authority.declare(sampleDeclaration(2))).toEqual({ ok: false, code: 'not_registered', reason: 'CUIT not registered as a distributor' });
    expect(await authority.declare(sampleDeclaration(1))).toEqual({ ...before, duplicate: true });
    expect((await authority.query({})).total).toBe(1);
  });

  it('transientRate: a seeded fraction of calls answers 503, the same calls for the same seed', async () => {
    const run = async () => {
      fake.control.set('transientRate', { rate: 0.3, seed: 42 });
      const failed: number[] = [];
      for (let i = 0; i < 200; i++) await authority.query({ pageSize: 1 }).catch((e: unknown) => { expect(e).toBeInstanceOf(AuthorityUnavailable); failed.push(i); });
      return failed;
    };
    const first = await run();
    expect(first.length).toBeGreaterThan(40);
    expect(first.length).toBeLessThan(80);
    expect(await run()).toEqual(first);
  });

  it('throttle: 429 with Retry-After, which the adapter hands on', async () => {
    fake.control.set('throttle', { retryAfterS: 3 });
    const err = await unavailable(authority.declare(sampleDeclaration(1)));
    expect(err.retryAfterMs).toBe(3000);
    expect(err.message).toContain('429');
  });

  it('times: a fault lasts that many calls, then the service is up again', async () => {
    fake.control.set('error5xx', { times: 2 });
    await unavailable(authority.declare(sampleDeclaration(1)));
    await unavailable(authority.declare(sampleDeclaration(1)));
    expect(fake.control.fault()).toEqual({ mode: 'up' });
    expect(await authority.declare(sampleDeclaration(1))).toMatchObject({ ok: true, duplicate: false });
    expect(() => fake.control.set('slow', { delayMs: -1 })).toThrow(/delayMs/);
  });
});

describe('the fake authority\'s control over HTTP', () => {
  it('sets a fault, reports it with the stats, refuses a bad one and resets', async () => {
    await authority.declare(sampleDeclaration(1));
    let res = await post('/_control/fault', { mode: 'down' });
    expect(await json(res)).toEqual({ fault: { mode: 'down' } });
    await unavailable(authority.declare(sampleDeclaration(2)));
    res = await fetch(`${fake.url}/_control`, { headers: { authorization: basic } });
    expect(await json(res)).toMatchObject({ fault: { mode: 'down' }, stats: { committed: 1, calls: 2, faulted: 1, commitsPerKey: { 'delivery:rec-1:declare': 1 } } });
    res = await post('/_control/fault', { mode: 'sideways' });
    expect([res.status, (await json(res)).code]).toEqual([400, 'bad_fault']);
    res = await post('/_control/fault', { mode: 'transientRate', rate: 2 });
    expect([res.status, (await json(res)).reason]).toEqual([400, 'rate must be a number from 0 to 1']);
    res = await post('/_control/reset', {});
    expect(await json(res)).toEqual({ fault: { mode: 'up' }, stats: { commitsPerKey: {}, commitsPerRecord: {}, calls: 0, committed: 0, duplicates: 0, faulted: 0 } });
    res = await fetch(`${fake.url}/_control/stats`, { headers: { authorization: basic } });
    expect((await json(res)).committed).toBe(0);
  });
});

describe('the fake authority\'s journal', () => {
  it('remembers its transactions across a restart, so a resend after it is still a duplicate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-authority-'));
    try {
      const file = join(dir, 'authority.jsonl');
      const first = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD, file });
      const a = createHttpAuthority({ baseUrl: first.url, user: FAKE_USER, password: FAKE_PASSWORD });
      const declared = await a.declare(sampleDeclaration(1));
      await first.stop();
      const second = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD, file });
      try {
        const b = createHttpAuthority({ baseUrl: second.url, user: FAKE_USER, password: FAKE_PASSWORD });
        expect(await b.declare(sampleDeclaration(1))).toEqual({ ...declared, duplicate: true });
        expect(await b.declare(sampleDeclaration(2))).toMatchObject({ ok: true, transactionId: 'TX-00000002' });
        expect(second.control.stats().commitsPerKey).toEqual({ 'delivery:rec-1:declare': 1, 'delivery:rec-2:declare': 1 });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
