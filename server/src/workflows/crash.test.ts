/**
 * kill -9 in the middle of transitions under load: a real server process confirms shipments
 * from 20 clients at once and is SIGKILLed; started again on the same store, every transition
 * is complete or absent — the record's state, its movements, its event and the balances agree,
 * and every transition the server acknowledged is there. On the embedded store a transition is
 * one SQLite transaction; on MONGODB_URI (the wire server has no transactions) the journal is
 * replayed at start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../testing/process';
import { openStore } from '../store/index';
import { BALANCES, MOVEMENTS } from '../ledger/ledger';
import { JOURNAL } from './journal';

const SHIPMENTS = 300;
let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tm-wf-crash-'));
  const uri = process.env.MONGODB_URI;
  const mongo = uri ? (() => { const u = new URL(uri); u.pathname = `/crash_${randomBytes(5).toString('hex')}`; return u.toString(); })() : '';
  env = { DATA_DIR: dir, MONGODB_URI: mongo, CRASH_STOCK: String(SHIPMENTS * 10) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(): Promise<{ server: ServerProcess; token: string; seed: Record<string, string> }> {
  const server = await spawnServer(env, { script: 'server/src/workflows/testing/crash-child.ts' });
  const out = server.output();
  return { server, token: /TOKEN (\S+)/.exec(out)![1], seed: JSON.parse(/SEED (.+)/.exec(out)![1]) };
}

const call = (s: ServerProcess, token: string, method: string, path: string, body?: unknown) => fetch(`${s.url}${path}`, {
  method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
});

describe('kill -9 during transitions under load', () => {
  it('leaves every transition complete or absent, and every acknowledged one complete', async () => {
    const first = await start();
    const { seed } = first;
    const ids: string[] = [];
    for (let i = 0; i < SHIPMENTS; i++) {
      const r = await call(first.server, first.token, 'POST', '/api/v3/operations/test_shipment', {
        shipmentID: `C-${i}`, deposit: seed.from, receiverDeposit: seed.to,
        productData: [{ material: seed.material, batchId: seed.lot, amount: 4, uom: seed.uom }, { material: seed.material, batchId: seed.lot, amount: 6, uom: seed.uom }],
      });
      expect(r.status).toBe(201);
      ids.push(((await r.json()) as { id: string }).id);
    }
    const acknowledged = new Set<string>();
    let next = 0;
    let killed = false;
    const client = async () => {
      while (!killed && next < ids.length) {
        const id = ids[next++];
        try {
          const r = await call(first.server, first.token, 'POST', `/api/v3/operations/test_shipment/${id}/transitions/confirm`, {});
          if (r.status === 200) acknowledged.add(id);
        } catch { /* the server is gone */ }
      }
    };
    const clients = Array.from({ length: 20 }, client);
    while (acknowledged.size < SHIPMENTS / 3) await new Promise((r) => setTimeout(r, 2));
    first.server.child.kill('SIGKILL');
    killed = true;
    await first.server.exited;
    await Promise.all(clients);
    expect(acknowledged.size).toBeLessThan(SHIPMENTS);

    // Started again: whatever the crash interrupted is completed before the first request.
    const second = await start();
    second.server.child.kill('SIGTERM');
    await second.server.exited;

    const store = await openStore({ dataDir: dir, mongodbUri: env.MONGODB_URI || undefined });
    try {
      expect(await store.count(JOURNAL)).toBe(0);
      const records = await store.find('test_shipment', { filter: { id: { $in: ids } } });
      let confirmed = 0;
      for (const rec of records) {
        const moves = await store.find(MOVEMENTS, { filter: { 'operation.id': rec.id } });
        const events = await store.count('object_events', { 'operation.id': rec.id });
        const history = rec.history as unknown[];
        if (rec.status === 'In-Progress') {
          confirmed++;
          expect(moves.map((m) => m.quantity).sort()).toEqual([-4, -6]);
          expect([events, history.length]).toEqual([1, 1]);
        } else {
          expect(rec.status).toBe('Draft');
          expect(acknowledged.has(rec.id)).toBe(false);
          expect([moves.length, events, history.length]).toEqual([0, 0, 0]);
        }
      }
      expect(confirmed).toBeGreaterThanOrEqual(acknowledged.size);
      const [balance] = await store.find(BALANCES, { filter: { deposit: seed.from, batch: seed.lot } });
      expect(balance.quantity).toBe(SHIPMENTS * 10 - confirmed * 10);
      expect(await store.count(MOVEMENTS)).toBe(confirmed * 2);
    } finally {
      await store.close();
    }
  }, 120_000);
});
