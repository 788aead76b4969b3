import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { openMobileDb, Cache, type MobileDb } from './db';
import { ActionQueue, backoff, MAX_BATCH, type NewAction } from './queue';
import type { ActionPayload, ActionResult } from './types';

let db: MobileDb;
let n = 0;

beforeEach(async () => {
  db = await openMobileDb(`test-${++n}`);
});

const action = (over: Partial<NewAction> = {}): NewAction => ({
  feature: 'qc', workflow: 'ibc', recordId: 'r1', kind: 'transition', transition: 'passQC',
  at: '2026-01-01T00:00:00.000Z', offline: true, user: 'u1', group: null, ...over,
});

/**
 * A tiny fake of POST /api/v3/mobile/actions: applies each (user, device, seq) at most once,
 * answers the stored verdict when one comes again, rejects the seqs listed in `reject`.
 */
function fakeServer(reject: number[] = []) {
  const verdicts = new Map<number, ActionResult>();
  const calls: { seqs: number[]; group: string | null }[] = [];
  let applied = 0;
  const send = async (actions: ActionPayload[], group: string | null): Promise<ActionResult[]> => {
    calls.push({ seqs: actions.map((a) => a.seq), group });
    return actions.map((a) => {
      const known = verdicts.get(a.seq);
      if (known) return known;
      const v: ActionResult = reject.includes(a.seq)
        ? { seq: a.seq, status: 'rejected', error: { code: 'TRANSITION_NOT_ALLOWED', message: 'The IBC is in stock', hint: 'Scan it again and choose another action' } }
        : { seq: a.seq, status: 'applied', record: { id: a.recordId, state: 'in_stock_empty' } };
      if (v.status === 'applied') applied += 1;
      verdicts.set(a.seq, v);
      return v;
    });
  };
  return { send, calls, verdicts, applied: () => applied };
}

describe('ActionQueue', () => {
  it('gives strictly increasing seqs that survive reopening the database, and one device id for good', async () => {
    const q = new ActionQueue(db);
    const id = await q.deviceId();
    const seqs = [];
    for (let i = 0; i < 5; i++) seqs.push((await q.enqueue(action())).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    // Dismissing judged actions never lets a seq be given twice.
    await q.record([{ seq: 5, status: 'rejected', error: { code: 'X', message: 'no' } }]);
    await q.dismiss(5);
    db.close();
    const again = new ActionQueue(await openMobileDb(`test-${n}`));
    expect((await again.enqueue(action())).seq).toBe(6);
    expect(await again.deviceId()).toBe(id);
  });

  it('gives distinct seqs to actions queued at the same moment', async () => {
    const q = new ActionQueue(db);
    const made = await Promise.all(Array.from({ length: 20 }, () => q.enqueue(action())));
    expect(new Set(made.map((a) => a.seq)).size).toBe(20);
  });

  it('sends pending actions in seq order, in batches of at most 100, and records the verdicts', async () => {
    const q = new ActionQueue(db);
    for (let i = 0; i < 230; i++) await q.enqueue(action({ recordId: `r${i}` }));
    const server = fakeServer([7]);
    const outcome = await q.sync('u1', server.send);
    expect(outcome).toEqual({ sent: 230, applied: 229, rejected: 1 });
    expect(server.calls.map((c) => c.seqs.length)).toEqual([MAX_BATCH, MAX_BATCH, 30]);
    expect(server.calls.flatMap((c) => c.seqs)).toEqual(Array.from({ length: 230 }, (_, i) => i + 1));
    expect(await q.pending('u1')).toEqual([]);
  });

  it('keeps a rejected action with its reason and hint until the user dismisses it', async () => {
    const q = new ActionQueue(db);
    await q.enqueue(action());
    await q.enqueue(action());
    await q.sync('u1', fakeServer([1]).send);
    const [rejected] = (await q.all()).filter((a) => a.status === 'rejected');
    expect(rejected).toMatchObject({ seq: 1, status: 'rejected', error: { message: 'The IBC is in stock', hint: 'Scan it again and choose another action' } });
    await q.sync('u1', fakeServer().send);
    expect((await q.all()).find((a) => a.seq === 1)?.status).toBe('rejected');
    await q.dismiss(1);
    expect((await q.all()).map((a) => a.seq)).toEqual([2]);
  });

  it('after a lost answer sends the same seqs again, and the server applies each once (replay)', async () => {
    const q = new ActionQueue(db);
    await q.enqueue(action());
    await q.enqueue(action());
    const server = fakeServer();
    // The server applies the batch but the answer never arrives.
    await expect(q.sync('u1', async (a, g) => { await server.send(a, g); throw new Error('network'); })).rejects.toThrow('network');
    expect((await q.pending('u1')).map((a) => a.seq)).toEqual([1, 2]);
    await q.sync('u1', server.send);
    expect(server.applied()).toBe(2);
    expect(server.calls.map((c) => c.seqs)).toEqual([[1, 2], [1, 2]]);
    expect((await q.all()).every((a) => a.status === 'applied')).toBe(true);
  });

  it('ignores a verdict for an action already judged or unknown (GET /actions replay)', async () => {
    const q = new ActionQueue(db);
    await q.enqueue(action());
    expect(await q.record([{ seq: 1, status: 'rejected', error: { code: 'A', message: 'first' } }])).toEqual([1]);
    expect(await q.record([{ seq: 1, status: 'applied' }, { seq: 99, status: 'applied' }])).toEqual([]);
    expect((await q.all())[0]).toMatchObject({ status: 'rejected', error: { message: 'first' } });
  });

  it('stops at an action the answer left without a verdict, so nothing is sent after it', async () => {
    const q = new ActionQueue(db);
    for (let i = 0; i < 3; i++) await q.enqueue(action());
    const calls: number[][] = [];
    const outcome = await q.sync('u1', async (actions) => {
      calls.push(actions.map((a) => a.seq));
      return [{ seq: 1, status: 'applied' }];
    });
    expect(outcome).toEqual({ sent: 3, applied: 1, rejected: 0 });
    expect(calls).toEqual([[1, 2, 3]]);
    expect((await q.pending('u1')).map((a) => a.seq)).toEqual([2, 3]);
  });

  it('sends only the signed-in user\'s actions, split where the warehouse group changes, order kept', async () => {
    const q = new ActionQueue(db);
    await q.enqueue(action({ group: 'North' }));
    await q.enqueue(action({ user: 'u2' }));
    await q.enqueue(action({ group: 'North' }));
    await q.enqueue(action({ group: 'South' }));
    await q.enqueue(action({ group: 'North' }));
    const server = fakeServer();
    await q.sync('u1', server.send);
    expect(server.calls).toEqual([{ seqs: [1, 3], group: 'North' }, { seqs: [4], group: 'South' }, { seqs: [5], group: 'North' }]);
    expect((await q.pending('u2')).map((a) => a.seq)).toEqual([2]);
  });

  it('runs one sync at a time', async () => {
    const q = new ActionQueue(db);
    await q.enqueue(action());
    const server = fakeServer();
    const [a, b] = await Promise.all([q.sync('u1', server.send), q.sync('u1', server.send)]);
    expect(a).toBe(b);
    expect(server.calls).toHaveLength(1);
  });

  it('keeps only the newest applied actions as history', async () => {
    const q = new ActionQueue(db);
    for (let i = 0; i < 60; i++) await q.enqueue(action());
    await q.sync('u1', fakeServer().send);
    const left = await q.all();
    expect(left).toHaveLength(50);
    expect(left[0].seq).toBe(11);
  });
});

describe('backoff', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4].map((f) => backoff(f, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });
});

describe('Cache', () => {
  it('forgets the user\'s answers on sign-out and keeps the device\'s', async () => {
    const cache = new Cache(db, () => 42);
    const q = new ActionQueue(db);
    const id = await q.deviceId();
    await cache.set('u:app', { features: [] });
    expect(await cache.get('u:app')).toEqual({ at: 42, data: { features: [] } });
    await cache.clearUser();
    expect(await cache.get('u:app')).toBeUndefined();
    expect(await q.deviceId()).toBe(id);
  });
});
