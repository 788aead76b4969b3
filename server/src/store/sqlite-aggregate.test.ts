/**
 * What the contract cannot see of the embedded store's aggregation: ties broken by id without
 * asking, results computed only as far as they are read, a cursor's memory staying flat, and
 * cursors on a read-only store holding a snapshot (the report export's worker).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Aggregator } from 'mingo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite.js';
import { CACHED_KEYS } from './sqlite-join.js';
import type { Doc, Pipeline } from './types.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

const ROWS = 200_000;

describe('embedded store aggregation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-agg-'));
  let store: SqliteStore;

  beforeAll(async () => {
    store = new SqliteStore({ dataDir: dir });
    await store.ensureCollection({ name: 'big', uniqueKeys: [], indexes: ['seq'] });
    for (let i = 0; i < ROWS; i += 20_000) {
      await store.insertMany('big', Array.from({ length: 20_000 }, (_, k) => ({ seq: i + k, s: `row ${i + k} ${'x'.repeat(40)}`, tags: ['a', 'b'] })));
    }
  }, 120_000);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('breaks ties of a leading $sort by id ascending, in either direction', async () => {
    const docs = await store.insertMany('ties', Array.from({ length: 12 }, (_, i) => ({ rank: i % 3 })));
    const byRank = (dir: 1 | -1) => [...docs].sort((a, b) => dir * ((a.rank as number) - (b.rank as number)) || (a.id < b.id ? -1 : 1)).map((d) => d.id);
    expect((await store.aggregate('ties', [{ $match: {} }, { $sort: { rank: 1 } }])).map((d) => d.id)).toEqual(byRank(1));
    expect((await store.aggregate('ties', [{ $sort: { rank: -1 } }, { $skip: 1 }, { $limit: 6 }])).map((d) => d.id)).toEqual(byRank(-1).slice(1, 7));
  });

  it('groups by $id rows a $group SQL answered as mingo does: their ids are not a record\'s, equal ones need not be neighbours', async () => {
    const docs = [{ cat: 'A' }, { cat: 'A' }, { cat: 'B' }, { cat: 'C' }, { cat: 'C' }];
    // With an index on cat, SQL answers the first $group (sqlite-group.ts): each group's `id` is its count.
    await store.ensureCollection({ name: 'cats', uniqueKeys: [], indexes: ['cat'] });
    await store.insertMany('cats', docs.map((d) => ({ ...d })));
    for (const pipeline of [
      [{ $group: { _id: '$cat', id: { $sum: 1 } } }, { $unwind: '$_id' }, { $group: { _id: '$id', cats: { $push: '$_id' } } }],
      [{ $group: { _id: '$cat', id: { $sum: 1 } } }, { $group: { _id: '$id', cats: { $push: '$_id' } } }],
    ] as Pipeline[]) {
      const mingo = new Aggregator(pipeline, {}).run(docs.map((d) => ({ ...d }))) as Doc[];
      const byKey = (rows: Doc[]) => [...rows].sort((a, b) => Number(a._id) - Number(b._id));
      expect(mingo.length).toBe(2);
      expect(byKey(await store.aggregate('cats', pipeline))).toEqual(byKey(mingo));
    }
  });

  it('joins every row when a join meets more keys than it remembers, its batches mixing keys read before and new ones', async () => {
    const keys = CACHED_KEYS + 1_000;
    // A fixed pseudo-random order: each batch of rows names keys read before and new ones.
    let x = 7;
    const next = () => (x = (x * 48271) % 2147483647);
    await store.insertMany('cacheRefs', Array.from({ length: keys }, (_, i) => ({ code: `r${i}`, name: `R${i}` })));
    await store.ensureCollection({ name: 'cacheEvents', uniqueKeys: [], indexes: ['seq'] });
    await store.insertMany('cacheEvents', Array.from({ length: 3 * keys }, (_, i) => ({ seq: i, ref: `r${next() % keys}` })));
    const rows = await store.aggregate('cacheEvents', [{ $match: {} }, { $sort: { seq: 1 } }, { $lookup: { from: 'cacheRefs', localField: 'ref', foreignField: 'code', as: 'r' } },
      { $project: { _id: 0, ref: 1, name: { $arrayElemAt: ['$r.name', 0] } } }]);
    expect(rows.length).toBe(3 * keys);
    expect(rows.filter((r) => r.name !== `R${String(r.ref).slice(1)}`)).toEqual([]);
  });

  it('computes the stages after SQL only as far as a later $limit reads', async () => {
    // The last row's v cannot be converted: a pipeline that reached it would throw.
    await store.insertMany('lazy', [...Array.from({ length: 500 }, (_, i) => ({ seq: i, v: String(i), tags: ['a', 'b', 'c'] })), { seq: 500, v: 'not a number', tags: ['a'] }]);
    const upTo = (limit: Pipeline): Pipeline => [{ $match: {} }, { $sort: { seq: 1 } }, { $unwind: '$tags' }, { $addFields: { n: { $toInt: '$v' } } }, ...limit, { $project: { _id: 0, n: 1, tags: 1 } }];
    expect(await store.aggregate('lazy', upTo([{ $limit: 4 }]))).toEqual([{ n: 0, tags: 'a' }, { n: 0, tags: 'b' }, { n: 0, tags: 'c' }, { n: 1, tags: 'a' }]);
    await expect(store.aggregate('lazy', upTo([]))).rejects.toThrow(/convert/);
    // A cursor stops where its reader does: the first batch never reaches the last row.
    const it = store.aggregateCursor('lazy', upTo([]), { batchSize: 10 })[Symbol.asyncIterator]();
    expect(((await it.next()).value as Doc[]).length).toBe(10);
    await it.return(undefined);
    expect(await store.count('lazy')).toBe(501);
  });

  it('streams a cursor with flat memory, well under the size of the whole result', async () => {
    const pipeline: Pipeline = [{ $match: { seq: { $gte: 0 } } }, { $sort: { seq: -1 } }, { $project: { _id: 0, seq: 1, s: 1 } }];
    const base = heap();
    let peak = 0;
    let rows = 0;
    let last = ROWS;
    let batches = 0;
    for await (const batch of store.aggregateCursor('big', pipeline, { batchSize: 1000 })) {
      for (const d of batch) expect(d.seq).toBe(--last);
      rows += batch.length;
      if (++batches % 25 === 0) peak = Math.max(peak, heap() - base);
    }
    expect(rows).toBe(ROWS);
    const all = await store.aggregate('big', pipeline);
    const whole = heap() - base;
    expect(all).toHaveLength(ROWS);
    expect(whole).toBeGreaterThan(20_000_000); // the whole result: about 200 bytes a row
    expect(peak).toBeLessThan(whole / 10);
  }, 120_000);

  it('joins a $lookup by key: a page joined to a big collection reads only the documents it names', async () => {
    await store.insertMany('refs', Array.from({ length: 40 }, (_, i) => ({ i, one: i * 5000 })));
    const pipeline: Pipeline = [{ $sort: { i: 1 } }, { $lookup: { from: 'big', localField: 'one', foreignField: 'seq', as: 'hit' } }, { $project: { _id: 0, i: 1, seq: { $first: '$hit.seq' } } }];
    const base = heap();
    const it = store.aggregateCursor('refs', pipeline, { batchSize: 2 })[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual([{ i: 0, seq: 0 }, { i: 1, seq: 5000 }]);
    // The whole collection held for the join would be some 40 MB (200,000 documents).
    expect(heap() - base).toBeLessThan(4_000_000);
    await it.return(undefined);
    const all = await store.aggregate('refs', pipeline);
    expect(all).toHaveLength(40);
    expect(all.every((r) => r.seq === (r.i as number) * 5000)).toBe(true);
  }, 60_000);

  it('joins by key as a join on the whole collection: arrays on either side, null and missing values, documents as keys', async () => {
    const keys = await store.insertMany('keys', [
      { k: 1 }, { k: '1' }, { k: [2, 3] }, { k: null }, {}, { k: { a: 1 } }, { k: 'x' }, { k: 3 }, { k: [{ a: 1 }] },
    ]);
    const refs = await store.insertMany('lefts', [
      { n: 0, v: 1 }, { n: 1, v: '1' }, { n: 2, v: [3, 'x', 9] }, { n: 3 }, { n: 4, v: null }, { n: 5, v: { a: 1 } }, { n: 6, v: 2 }, { n: 7, v: [] },
      { n: 8, w: [{ v: 'x' }, { v: 3 }] },
    ]);
    // An $unwind of the joined array right after the join is done with it: with and without the documents that match nothing.
    const unwinds: Pipeline[] = [[], [{ $unwind: '$hits' }], [{ $unwind: { path: '$hits', preserveNullAndEmptyArrays: true } }]];
    const ids = (h: unknown) => (Array.isArray(h) ? h.map((d: Doc) => d.id).sort() : (h as Doc | undefined)?.id);
    for (const localField of ['v', 'w.v']) {
      for (const unwind of unwinds) {
        const join: Pipeline = [{ $sort: { n: 1 } }, { $lookup: { from: 'keys', localField, foreignField: 'k', as: 'hits' } }];
        const pipeline = [...join, ...unwind];
        // mingo lists an unmatched value of a local array as `undefined` among the hits; MongoDB lists matches only.
        const joinedRefs = (new Aggregator(join, { collectionResolver: () => keys }).run(refs) as Doc[]).map((r) => ({ ...r, hits: (r.hits as unknown[]).filter((h) => h !== undefined) }));
        const want = new Aggregator(unwind).run(joinedRefs) as Doc[];
        const got = await store.aggregate('lefts', pipeline);
        const key = (r: Doc) => `${String(r.n)} ${JSON.stringify(ids(r.hits))}`;
        expect(got.map(key).sort()).toEqual(want.map(key).sort());
        expect(got.every((r) => 'hits' in r)).toBe(want.every((r) => 'hits' in r));
      }
    }
  });

  it('joins across batches as in one go: keys read for an earlier batch, foreign arrays naming several keys', async () => {
    const sets = await store.insertMany('tagsets', [{ codes: ['a', 'b'] }, { codes: ['b'] }, { codes: 'c' }, { codes: ['c', 'a'] }]);
    // The first batches hold only "a": "b" and "c" are first read later, by documents that also name "a".
    const rows = await store.insertMany('tagged', Array.from({ length: 300 }, (_, n) => ({ n, code: n < 40 ? 'a' : ['a', 'b', 'c', 'd'][n % 4] })));
    for (const unwind of [[], [{ $unwind: '$hits' }]] as Pipeline[]) {
      const pipeline: Pipeline = [{ $sort: { n: 1 } }, { $lookup: { from: 'tagsets', localField: 'code', foreignField: 'codes', as: 'hits' } }, ...unwind];
      const want = new Aggregator(pipeline, { collectionResolver: () => sets }).run(rows) as Doc[];
      const key = (r: Doc) => `${String(r.n)} ${JSON.stringify(Array.isArray(r.hits) ? (r.hits as Doc[]).map((d) => d.id).sort() : (r.hits as Doc | undefined)?.id)}`;
      expect((await store.aggregate('tagged', pipeline)).map(key).sort()).toEqual(want.map(key).sort());
    }
  });

  it('groups a record\'s unwound rows back by id as they come, with the results and order of a $group over all', async () => {
    const docs = await store.insertMany('shipments', Array.from({ length: 300 }, (_, i) => ({
      day: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`, lines: Array.from({ length: i % 4 }, (_, j) => ({ m: `m${(i + j) % 5}`, q: i * 10 + j })),
    })));
    const regroup: Pipeline = [
      { $unwind: { path: '$lines', preserveNullAndEmptyArrays: true } },
      { $match: { 'lines.q': { $ne: 42 } } },
      { $addFields: { big: { $gt: ['$lines.q', 1500] } } },
      { $group: { _id: '$id', id: { $first: '$id' }, day: { $first: '$day' }, qs: { $push: '$lines.q' }, total: { $sum: '$lines.q' }, anyBig: { $max: '$big' } } },
    ];
    const sorted = [...docs].sort((a, b) => String(b.day).localeCompare(String(a.day)) || (a.id < b.id ? -1 : 1));
    const want = new Aggregator(regroup).run(structuredClone(sorted)) as Doc[];
    expect(want.length).toBe(300);
    expect(await store.aggregate('shipments', [{ $match: {} }, { $sort: { day: -1 } }, ...regroup])).toEqual(want);
    const cursor: Doc[] = [];
    for await (const batch of store.aggregateCursor('shipments', [{ $sort: { day: -1 } }, ...regroup], { batchSize: 7 })) cursor.push(...batch);
    expect(cursor).toEqual(want);
    // A page of the regrouped rows reads only as far as it needs.
    expect(await store.aggregate('shipments', [{ $sort: { day: -1 } }, ...regroup, { $limit: 5 }])).toEqual(want.slice(0, 5));
    // Rows reordered before the $group (a $sort among them): grouped over all, still the same answer.
    const resorted: Pipeline = [regroup[0], { $sort: { 'lines.q': 1 } }, ...regroup.slice(1)];
    const byQ = new Aggregator(resorted).run(structuredClone(sorted)) as Doc[];
    expect((await store.aggregate('shipments', [{ $sort: { day: -1 } }, ...resorted])).map((d) => d.id).sort()).toEqual(byQ.map((d) => d.id).sort());
  });

  it('streams from a read-only store holding a snapshot while the writer goes on', async () => {
    const reader = new SqliteStore({ dataDir: dir, readOnly: true });
    try {
      reader.holdSnapshot();
      let rows = 0;
      let written = false;
      for await (const batch of reader.aggregateCursor('big', [{ $match: { seq: { $lt: 50_000 } } }, { $sort: { seq: 1 } }, { $unwind: '$tags' }], { batchSize: 5000 })) {
        rows += batch.length;
        if (!written) {
          // The writer's connection is free while the reader iterates; the snapshot hides its row.
          await store.insert('big', { seq: -1, s: 'during the export', tags: ['a'] });
          written = true;
        }
      }
      expect(rows).toBe(100_000);
      expect(await reader.count('big')).toBe(ROWS);
      reader.releaseSnapshot();
      expect(await reader.count('big')).toBe(ROWS + 1);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('ends the statements of open cursors when the store closes', async () => {
    const other = new SqliteStore({ dataDir: join(dir, 'other') });
    await other.insertMany('c', Array.from({ length: 30 }, (_, i) => ({ i })));
    const it = other.aggregateCursor('c', [{ $sort: { i: 1 } }], { batchSize: 10 })[Symbol.asyncIterator]();
    expect(((await it.next()).value as Doc[]).map((d) => d.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await other.close();
    await expect(it.next()).rejects.toMatchObject({ code: 'CLOSED' });
  });
});
