/**
 * The chain's parts on a real store: appends racing each other (no transaction around them, so
 * every one reads the head between the others' awaits) still give one unbroken chain; a replay
 * chains nothing twice; the canonical JSON an event's hash is taken of ignores key order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, realRegistry } from '../testing/harness';
import type { Store } from '../store/types';
import { appendToChain, CHAIN_ENTRY, entryHash, GENESIS, posOf } from './append';
import { canonicalJson } from './canonical';
import { merkleRoot } from './merkle';
import { verifyChains } from './verify';
import { readChainSettings } from './settings';

let store: Store;
let dir: string;
let dispose: () => Promise<void>;
beforeAll(async () => ({ store, dir, dispose } = await openTestStore(realRegistry(), 'tm-chain-')));
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

// On MongoDB the walk is one part whatever is asked: the same problems, found by one walk.
describe('verify in parts on threads', () => {
  const settings = () => readChainSettings(realRegistry())!;
  const ibc = async (o = {}) => (await verifyChains(store, settings(), o)).accounts.find((a) => a.account === 'agro-ibc-test')!;
  /** The same answer walked whole and in three parts (1–14, 15–28, 29–), for the chain as it is now. */
  async function alike(): Promise<unknown> {
    const whole = await ibc();
    expect(await ibc({ dataDir: dir, parallelFrom: 1, parts: 3 })).toEqual(whole);
    return whole.problem;
  }
  const entry = async (seq: number) => (await store.find(CHAIN_ENTRY, { filter: { pos: posOf('agro-ibc-test', seq) } }))[0];

  it('finds the same first problem as one walk, at and across the parts\' edges', async () => {
    expect(await alike()).toBeUndefined();
    // The anchored roots: a range across two parts, then one whose root is wrong.
    const root = merkleRoot((await store.find(CHAIN_ENTRY, { filter: { account: 'agro-ibc-test' }, sort: { seq: 1 }, limit: 20 })).map((e) => e.hash as string));
    await store.insert('chain_anchor', { account: 'agro-ibc-test', status: 'anchored', fromSeq: 1, toSeq: 20, root });
    expect(await alike()).toBeUndefined();
    const wrong = await store.insert('chain_anchor', { account: 'agro-ibc-test', status: 'anchored', fromSeq: 21, toSeq: 30, root: root.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
    expect(await alike()).toMatchObject({ type: 'anchorMismatch', anchor: { fromSeq: 21, toSeq: 30 } });
    await store.delete('chain_anchor', wrong.id);

    // The first entry of the second part deleted; then the whole second part.
    const e15 = await entry(15);
    await store.delete(CHAIN_ENTRY, e15.id);
    expect(await alike()).toMatchObject({ type: 'gap', seq: 16 });
    const second = await store.find(CHAIN_ENTRY, { filter: { account: 'agro-ibc-test', seq: { $gte: 16, $lte: 28 } } });
    for (const e of second) await store.delete(CHAIN_ENTRY, e.id);
    expect(await alike()).toMatchObject({ type: 'gap', seq: 29 });
    await store.insertMany(CHAIN_ENTRY, [e15, ...second]);
    expect(await alike()).toBeUndefined();

    // Entries 14 and 15 swapped across the edge; an event of the third part changed.
    const [e14, f15] = [await entry(14), await entry(15)];
    await store.patch(CHAIN_ENTRY, e14.id, { pos: 'parked' });
    await store.patch(CHAIN_ENTRY, f15.id, { pos: posOf('agro-ibc-test', 14), seq: 14 });
    await store.patch(CHAIN_ENTRY, e14.id, { pos: posOf('agro-ibc-test', 15), seq: 15 });
    expect(await alike()).toMatchObject({ type: 'reordered', seq: 14, eventId: f15.eventId });
    await store.patch(CHAIN_ENTRY, f15.id, { pos: 'parked' });
    await store.update(CHAIN_ENTRY, e14.id, e14);
    await store.update(CHAIN_ENTRY, f15.id, f15);
    expect(await alike()).toBeUndefined();
    const e30 = await entry(30);
    await store.patch('ibc_event', e30.eventId as string, { n: -1 });
    expect(await alike()).toMatchObject({ type: 'altered', seq: 30, eventId: e30.eventId });
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
