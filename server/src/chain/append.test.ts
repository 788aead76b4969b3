/**
 * The chain's parts on a real store: appends racing each other (no transaction around them, so
 * every one reads the head between the others' awaits) still give one unbroken chain; a replay
 * chains nothing twice; the canonical JSON an event's hash is taken of ignores key order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, realRegistry } from '../testing/harness';
import type { Store } from '../store/types';
import { appendToChain, CHAIN_ENTRY, entryHash, GENESIS } from './append';
import { canonicalJson } from './canonical';
import { merkleRoot } from './merkle';
import { verifyChains } from './verify';
import { readChainSettings } from './settings';

let store: Store;
let dispose: () => Promise<void>;
beforeAll(async () => ({ store, dispose } = await openTestStore(realRegistry(), 'tm-chain-')));
afterAll(async () => dispose?.());

describe('appendToChain', () => {
  it('40 writers racing for the head: seqs 1..40, each linked to the one before, nothing forked', async () => {
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: `ev-${String(i).padStart(2, '0')}`, record: 'ibc-1', transition: 'mapNfc', n: i }));
    await store.insertMany('ibc_event', docs);
    await Promise.all(docs.map((doc) => appendToChain(store, [{ account: 'agro-ibc-test', collection: 'ibc_event', doc }], '2026-01-01T00:00:00.000Z')));
    const chain = await store.find(CHAIN_ENTRY, { filter: { account: 'agro-ibc-test' }, sort: { seq: 1 } });
    expect(chain.map((e) => e.seq)).toEqual(docs.map((_, i) => i + 1));
    expect(new Set(chain.map((e) => e.eventId)).size).toBe(40);
    chain.forEach((e, i) => {
      expect(e.prev).toBe(i === 0 ? GENESIS : chain[i - 1].hash);
      expect(e.hash).toBe(entryHash(e as never));
    });
    // A replay of any of them chains nothing again.
    await appendToChain(store, [{ account: 'agro-ibc-test', collection: 'ibc_event', doc: docs[7] }], '2026-01-01T00:00:00.000Z');
    expect(await store.count(CHAIN_ENTRY)).toBe(40);
    expect((await verifyChains(store, readChainSettings(realRegistry())!)).ok).toBe(true);
  });
});

describe('canonicalJson and merkleRoot', () => {
  it('writes keys sorted at every depth, numbers and strings as JSON does (RFC 8785)', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 'é\n' }], a: 1e21, c: -0.5, d: null })).toBe('{"a":1e+21,"b":[3,{"a":"é\\n","z":1}],"c":-0.5,"d":null}');
    expect(canonicalJson({ x: 1, y: { q: true, p: false } })).toBe(canonicalJson({ y: { p: false, q: true }, x: 1 }));
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });

  it('a root that changes with any leaf and with their order', () => {
    const leaves = ['a', 'b', 'c'].map((c) => c.repeat(64));
    const root = merkleRoot(leaves);
    expect(merkleRoot([leaves[0], leaves[2], leaves[1]])).not.toBe(root);
    expect(merkleRoot([leaves[0], leaves[1], 'd'.repeat(64)])).not.toBe(root);
    expect(merkleRoot(leaves)).toBe(root);
    expect(merkleRoot([leaves[0]])).not.toBe(leaves[0]);
  });
});
