// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMobileDb } from './db';
import { Mobile } from './services';
import type { ActionPayload } from './types';

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

/** A tiny fake of the server: reachable or not, applying every action it gets. */
function fakeServer() {
  const state = { up: true, sent: [] as ActionPayload[], headers: [] as Record<string, string>[] };
  const fetchFn = (async (url: RequestInfo | URL, init?: RequestInit) => {
    if (!state.up) throw new TypeError('Failed to fetch');
    state.headers.push(init?.headers as Record<string, string>);
    const path = String(url);
    let body: unknown = { results: [] };
    if (path === '/api/v3/mobile/actions' && init?.method === 'POST') {
      const { actions } = JSON.parse(String(init.body)) as { actions: ActionPayload[] };
      state.sent.push(...actions);
      body = { results: actions.map((a) => ({ seq: a.seq, status: 'applied', record: { id: a.recordId, state: 'x' } })) };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { state, fetchFn };
}

// The queue reaches the app's state through IndexedDB reads that finish when they finish: wait for
// each state rather than a fixed delay, which a loaded CI machine outran.
const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });

describe('Mobile: the queue in the app', () => {
  it('marks an action made offline, keeps it pending, and sends it when the connection returns', async () => {
    localStorage.setItem('tm.mobile.session', JSON.stringify({ token: 't', email: 'a@x', user: { id: 'u1' } }));
    const server = fakeServer();
    const m = new Mobile(await openMobileDb('services-1'), 'fr', window, server.fetchFn);
    stop = m.start();
    m.setGroup('North Hub');
    server.state.up = false;
    (m as unknown as { online: boolean }).online = false;
    const a = await m.enqueue({ feature: 'qc', workflow: 'ibc', recordId: 'r1', kind: 'transition', transition: 'startQC' });
    expect(a).toMatchObject({ seq: 1, offline: true, user: 'u1', group: 'North Hub', status: 'pending' });
    await until(() => expect(m.unsynced.map((x) => x.seq)).toEqual([1]));
    server.state.up = true;
    window.dispatchEvent(new Event('online'));
    await until(() => expect(server.state.sent).toMatchObject([{ seq: 1, offline: true, transition: 'startQC' }]));
    const post = server.state.headers.at(-1)!;
    expect(post).toMatchObject({ platform: 'mobile', 'accept-language': 'fr', authorization: 'Bearer t', 'x-warehouse-group': 'North%20Hub' });
    await until(() => expect(m.unsynced).toEqual([]));
  });

  it('signs out keeping the queue and forgetting the user\'s kept answers', async () => {
    localStorage.setItem('tm.mobile.session', JSON.stringify({ token: 't', email: 'a@x', user: { id: 'u1' } }));
    const server = fakeServer();
    const m = new Mobile(await openMobileDb('services-2'), 'en', window, server.fetchFn);
    server.state.up = false;
    (m as unknown as { online: boolean }).online = false;
    await m.enqueue({ feature: 'qc', workflow: 'ibc', recordId: 'r1', kind: 'transition', transition: 'startQC' });
    await m.cache.set('u:list:qc', []);
    await m.signOut();
    expect(m.session).toBeNull();
    expect(localStorage.getItem('tm.mobile.session')).toBeNull();
    expect(await m.cache.get('u:list:qc')).toBeUndefined();
    expect((await m.queue.pending('u1')).map((x) => x.seq)).toEqual([1]);
  });
});
