/**
 * The store contract: one suite, run against every adapter (sqlite.contract.test.ts,
 * mongo.contract.test.ts). Whatever passes here behaves the same on both stores.
 * Every test works in collections of its own, so runs and tests never collide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregationContract } from './contract-aggregate.js';
import { filterContract } from './contract-filters.js';
import { searchContract } from './contract-search.js';
import type { ServerGap } from './mongo-gaps.js';
import type { Doc, JsonValue, SortSpec, Store, StoredDoc } from './types.js';


export interface ContractOptions {
  /** Behaviours the server under test lacks (mongo-gaps.ts); their assertions are skipped. */
  gaps?: Partial<Record<ServerGap, string>>;
}

export interface ContractContext {
  store: () => Store;
  /** Skips the running test when the server lacks a behaviour, saying why. */
  requires: (t: { skip: (note?: string) => void }, gap: ServerGap) => void;
  /** A collection name no other test uses. */
  fresh: (base: string) => string;
  /** Opens another store on the same data (for reopen tests). */
  reopen: () => Promise<Store>;
}

export function companies(n: number, extra: (i: number) => Doc = () => ({})): Doc[] {
  const types = ['producer', 'distributor', 'retailer', 'lab'];
  return Array.from({ length: n }, (_, i) => ({
    name: `Company ${String(i).padStart(3, '0')}`,
    cuit: `30-${String(10000000 + i)}-${i % 10}`,
    type: types[i % 4],
    employees: (i * 7) % 50,
    state: i % 5 === 0 ? 3 : 1,
    address: { city: i % 2 === 0 ? 'Rosario' : 'Córdoba', zip: 2000 + (i % 3) },
    tags: i % 3 === 0 ? ['organic', 'export'] : ['local'],
    ...extra(i),
  }));
}

export function runStoreContract(name: string, makeStore: () => Promise<Store>, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    let n = 0;
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const ctx: ContractContext = {
      store: () => store,
      requires: (t, gap) => {
        const why = options.gaps?.[gap];
        if (why) t.skip(`${gap}: ${why}`);
      },
      fresh: (base) => `${base}_${run}_${++n}`,
      reopen: makeStore,
    };
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    crudContract(ctx);
    pagingContract(ctx);
    filterContract(ctx);
    searchContract(ctx);
    uniqueContract(ctx);
    aggregationContract(ctx);
  });
}

function crudContract(ctx: ContractContext): void {
  describe('documents', () => {
    it('inserts a document, generates a time-ordered string id and gets it back by id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const a = await s.insert(c, { name: 'Acme', n: 1 });
      const b = await s.insert(c, { name: 'Beta', n: 2 });
      expect(typeof a.id).toBe('string');
      expect(a.id < b.id).toBe(true);
      expect(await s.get(c, a.id)).toEqual({ id: a.id, name: 'Acme', n: 1 });
      expect(await s.get(c, 'no-such-id')).toBeNull();
      expect(await s.get(ctx.fresh('never_created'), a.id)).toBeNull();
    });

    it('keeps an id given by the caller and refuses a second document with the same id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      await s.insert(c, { id: 'company-1', name: 'Acme' });
      await expect(s.insert(c, { id: 'company-1', name: 'Other' })).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['id'] });
      expect(await s.count(c)).toBe(1);
    });

    it('returns fresh copies and never exposes internal fields such as _id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const input = { name: 'Acme', address: { city: 'Rosario' } };
      const doc = await s.insert(c, input);
      (doc.address as Doc).city = 'changed';
      input.address.city = 'changed too';
      const got = (await s.get(c, doc.id))!;
      expect(got).toEqual({ id: doc.id, name: 'Acme', address: { city: 'Rosario' } });
      (got.address as Doc).city = 'mutated';
      const found = await s.find(c, {});
      expect(found).toEqual([{ id: doc.id, name: 'Acme', address: { city: 'Rosario' } }]);
      expect(Object.keys(found[0]).sort()).toEqual(['address', 'id', 'name']);
    });

    it('replaces a whole document on update and refuses unknown ids and id changes', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const doc = await s.insert(c, { name: 'Acme', cuit: '30-1', old: true });
      expect(await s.update(c, doc.id, { name: 'Acme SA', cuit: '30-1' })).toEqual({ id: doc.id, name: 'Acme SA', cuit: '30-1' });
      expect(await s.get(c, doc.id)).toEqual({ id: doc.id, name: 'Acme SA', cuit: '30-1' });
      await expect(s.update(c, 'missing', { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(s.update(c, doc.id, { id: 'other', name: 'x' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    });

    it('patches dotted paths, creating objects on the way and removing fields set to undefined', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const doc = await s.insert(c, { name: 'Acme', state: 1, note: 'x', address: { city: 'Rosario' } });
      const patched = await s.patch(c, doc.id, { state: 3, 'address.zip': 2000, 'contact.email': 'a@b.c', note: undefined });
      const expected = { id: doc.id, name: 'Acme', state: 3, address: { city: 'Rosario', zip: 2000 }, contact: { email: 'a@b.c' } };
      expect(patched).toEqual(expected);
      expect(await s.get(c, doc.id)).toEqual(expected);
      await expect(s.patch(c, 'missing', { state: 3 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(s.patch(c, doc.id, { id: 'x' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    });

    it('patches conditionally: only while the document matches, one winner among concurrent writers', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const doc = await s.insert(c, { state: 'pending', rev: 0 });
      expect(await s.patchIf(c, doc.id, { state: 'done' }, { rev: 9 })).toBeNull();
      expect(await s.patchIf(c, 'missing', {}, { rev: 9 })).toBeNull();
      const tries = await Promise.all(Array.from({ length: 8 }, (_, i) => s.patchIf(c, doc.id, { rev: 0 }, { rev: 1, owner: `w${i}` })));
      const winners = tries.filter((t) => t !== null);
      expect(winners).toHaveLength(1);
      expect(await s.get(c, doc.id)).toEqual({ id: doc.id, state: 'pending', rev: 1, owner: winners[0]!.owner });
      await expect(s.patchIf(c, doc.id, { $bad: 1 }, { rev: 2 })).rejects.toMatchObject({ code: 'INVALID_FILTER' });
    });

    it('patches conditionally across two connections: each document taken once when both race for every one', async () => {
      // The outbox's lease: two servers read a job and compare-and-set its revision. On
      // mongo-java-server, a read racing an update is answered with the updated document (no longer
      // matching the filter); a write that trusted the read let both win, about once in 3,000 races.
      const c = ctx.fresh('race');
      const other = await ctx.reopen();
      try {
        const s = ctx.store();
        const docs = await s.insertMany(c, Array.from({ length: 3000 }, (_, i) => ({ n: i, rev: 0 })));
        const take = (st: Store, batch: StoredDoc[], owner: string) => Promise.all(batch.map((d) => st.patchIf(c, d.id, { rev: 0 }, { rev: 1, owner })));
        const mine: (StoredDoc | null)[] = [];
        const theirs: (StoredDoc | null)[] = [];
        // In rounds of 50, so each document's two reads and two writes arrive close together.
        for (let at = 0; at < docs.length; at += 50) {
          const batch = docs.slice(at, at + 50);
          const [a, b] = await Promise.all([take(s, batch, 'a'), take(other, batch, 'b')]);
          mine.push(...a);
          theirs.push(...b);
        }
        const both = docs.filter((_, i) => mine[i] && theirs[i]).map((d) => d.id);
        expect(both, 'taken by both').toEqual([]);
        const owners = new Map((await s.find(c, { filter: { rev: 1 }, limit: 5000 })).map((o) => [o.id, o.owner]));
        expect(owners.size).toBe(docs.length);
        expect(docs.filter((d, i) => owners.get(d.id) !== (mine[i] ? 'a' : 'b')).map((d) => d.id), 'owner is not the winner').toEqual([]);
      } finally {
        await other.close();
      }
    }, 150_000);

    it('deletes a document and reports whether there was one', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const doc = await s.insert(c, { name: 'Acme' });
      expect(await s.delete(c, doc.id)).toBe(true);
      expect(await s.delete(c, doc.id)).toBe(false);
      expect(await s.get(c, doc.id)).toBeNull();
    });

    it('refuses documents that are not plain JSON or use operator-like or reserved field names', async () => {
      const s = ctx.store();
      const c = ctx.fresh('crud');
      const bad: unknown[] = [
        { when: new Date() }, { n: Number.NaN }, { n: Infinity }, { $set: 1 }, { 'a.b': 1 }, { nested: { $gt: 1 } },
        { _id: 'x' }, { id: 42 }, { id: '' }, { u: undefined }, [], 'text', null,
      ];
      for (const doc of bad) await expect(s.insert(c, doc as Doc), JSON.stringify(doc)).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
      expect(await s.count(c)).toBe(0);
    });

    it('survives closing: a store reopened on the same data sees every acknowledged write', async () => {
      const c = ctx.fresh('reopen');
      const first = await ctx.reopen();
      await first.insertMany(c, companies(30));
      await first.close();
      await expect(first.get(c, 'x')).rejects.toMatchObject({ code: 'CLOSED' });
      const second = await ctx.reopen();
      expect(await second.count(c)).toBe(30);
      await second.close();
    });
  });
}

function pagingContract(ctx: ContractContext): void {
  describe('paging, sorting and projection', () => {
    it('pages through a sorted list without gaps or repeats, ties broken by id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      await s.insertMany(c, companies(25, (i) => ({ rank: i % 4 })));
      const seen: string[] = [];
      for (let page = 0; page < 3; page++) {
        const docs = await s.find(c, { sort: { rank: 1 }, skip: page * 10, limit: 10 });
        seen.push(...docs.map((d) => d.id));
      }
      const all = await s.find(c, { sort: { rank: 1 } });
      expect(seen).toEqual(all.map((d) => d.id));
      expect(new Set(seen).size).toBe(25);
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1], all[i]];
        expect((a.rank as number) < (b.rank as number) || (a.rank === b.rank && a.id < b.id)).toBe(true);
      }
    });

    it('sorts descending and by several keys', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      await s.insertMany(c, companies(20));
      const docs = await s.find(c, { sort: { type: 1, employees: -1 } });
      const expected = [...docs].sort((a, b) =>
        String(a.type).localeCompare(String(b.type)) || (b.employees as number) - (a.employees as number) || (a.id < b.id ? -1 : 1));
      expect(docs.map((d) => d.id)).toEqual(expected.map((d) => d.id));
      const names = (await s.find(c, { sort: { name: -1 }, limit: 3 })).map((d) => d.name);
      expect(names).toEqual(['Company 019', 'Company 018', 'Company 017']);
    });

    it('sorts mixed types in MongoDB order: missing and null, numbers, strings, then booleans', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      const values: unknown[] = ['b', 3, null, true, 'B', -1.5, false, 'a', 10, '10', undefined];
      await s.insertMany(c, values.map((v, i) => ({ id: `d${String(i).padStart(2, '0')}`, ...(v === undefined ? {} : { v }) })) as Doc[]);
      const asc = (await s.find(c, { sort: { v: 1 } })).map((d) => d.id);
      // null and missing compare equal and fall back to id order.
      expect(asc).toEqual(['d02', 'd10', 'd05', 'd01', 'd08', 'd09', 'd04', 'd07', 'd00', 'd06', 'd03']);
      const desc = (await s.find(c, { sort: { v: -1 } })).map((d) => d.id);
      expect(desc).toEqual(['d03', 'd06', 'd00', 'd07', 'd04', 'd09', 'd08', 'd01', 'd05', 'd02', 'd10']);
    });

    it('pages after a document (keyset) exactly as skip does: ties, descending, several keys, nested paths, missing values and mixed types', async () => {
      const s = ctx.store();
      const c = ctx.fresh('keyset');
      const mixed: (JsonValue | undefined)[] = ['b', 3, null, true, 'B', -1.5, false, 'a', 10, '10', undefined];
      await s.insertMany(c, companies(60, (i) => ({ rank: i % 4, ...(mixed[i % 11] === undefined ? {} : { mix: mixed[i % 11] }) })));
      const sorts: (SortSpec | undefined)[] = [undefined, { rank: 1 }, { rank: -1 }, { type: 1, employees: -1 }, { mix: 1 }, { mix: -1 }, { 'address.zip': -1, mix: 1 }, { id: -1 }, { rank: 1, id: -1 }];
      for (const sort of sorts) {
        for (const filter of [{}, { state: 1 }]) {
          const all = (await s.find(c, { sort, filter })).map((d) => d.id);
          const paged: string[] = [];
          let after: StoredDoc | undefined;
          for (let n = 0; n < 60; n++) {
            const page = await s.find(c, { sort, filter, after, limit: 7, projection: n % 2 ? undefined : { name: 1, rank: 1, mix: 1, type: 1, employees: 1, address: 1 } });
            paged.push(...page.map((d) => d.id));
            if (page.length < 7) break;
            after = page[page.length - 1];
          }
          expect(paged, JSON.stringify({ sort, filter })).toEqual(all);
        }
      }
      await expect(s.find(c, { after: { name: 'no id' } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      const [first] = await s.find(c, { limit: 1 });
      await expect(s.find(c, { after: first, skip: 2 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('answers a projection of the id alone with the ids a whole find gives: filtered, sorted, skipped, and paged after an id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('keyset');
      await s.insertMany(c, companies(45, (i) => ({ rank: i % 4 })));
      for (const o of [{}, { filter: { rank: 2 } }, { sort: { rank: -1 } as SortSpec, skip: 3, limit: 10 }, { filter: { rank: { $in: [1, 3] } }, sort: { id: -1 } as SortSpec, limit: 5 }]) {
        const whole = (await s.find(c, o)).map((d) => d.id);
        expect(whole.length, JSON.stringify(o)).toBeGreaterThan(0);
        expect(await s.find(c, { ...o, projection: { id: 1 } }), JSON.stringify(o)).toEqual(whole.map((id) => ({ id })));
      }
      for (const sort of [{ id: 1 }, { id: -1 }] as SortSpec[]) {
        const all = (await s.find(c, { sort, filter: { rank: { $ne: 0 } } })).map((d) => d.id);
        const paged: string[] = [];
        let after: StoredDoc | undefined;
        for (;;) {
          const page = await s.find(c, { sort, filter: { rank: { $ne: 0 } }, after, limit: 8, projection: { id: 1 } });
          for (const d of page) expect(Object.keys(d)).toEqual(['id']);
          paged.push(...page.map((d) => d.id));
          if (page.length < 8) break;
          after = page[page.length - 1];
        }
        expect(paged).toEqual(all);
      }
    });

    it('sorts on nested paths and on id', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      const docs = await s.insertMany(c, companies(10));
      const byZip = await s.find(c, { sort: { 'address.zip': -1, name: 1 }, limit: 4 });
      expect(byZip.map((d) => d.name)).toEqual(['Company 002', 'Company 005', 'Company 008', 'Company 001']);
      const byId = await s.find(c, { sort: { id: -1 }, limit: 2 });
      expect(byId.map((d) => d.id)).toEqual(docs.map((d) => d.id).reverse().slice(0, 2));
    });

    it('projects included or excluded fields, keeping id unless excluded', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      const [doc] = await s.insertMany(c, companies(1));
      expect(await s.find(c, { projection: { name: 1, 'address.city': 1 } })).toEqual([{ id: doc.id, name: 'Company 000', address: { city: 'Rosario' } }]);
      expect(await s.find(c, { projection: { name: 1, id: 0 } })).toEqual([{ name: 'Company 000' }]);
      const without = (await s.find(c, { projection: { tags: 0, address: 0 } }))[0];
      expect(Object.keys(without).sort()).toEqual(['cuit', 'employees', 'id', 'name', 'state', 'type']);
    });

    it('counts with and without a filter and returns nothing for limit 0 or a skip past the end', async () => {
      const s = ctx.store();
      const c = ctx.fresh('paging');
      await s.insertMany(c, companies(12));
      expect(await s.count(c)).toBe(12);
      expect(await s.count(c, { type: 'lab' })).toBe(3);
      expect(await s.count(ctx.fresh('never_created'), { type: 'lab' })).toBe(0);
      expect(await s.find(c, { limit: 0 })).toEqual([]);
      expect(await s.find(c, { skip: 50 })).toEqual([]);
      await expect(s.find(c, { skip: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });
}

function uniqueContract(ctx: ContractContext): void {
  const spec = (name: string) => ({ name, uniqueKeys: [['cuit'], ['owner', 'code'], ['tax.id']], indexes: ['name', 'state', 'cuit'] });

  describe('unique keys', () => {
    it('refuses a duplicate unique value with DUPLICATE_KEY naming the field, on insert and update', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insert(c, { name: 'A', cuit: '30-1' });
      const b = await s.insert(c, { name: 'B', cuit: '30-2' });
      const err = await s.insert(c, { name: 'C', cuit: '30-1' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'StoreError', code: 'DUPLICATE_KEY', fields: ['cuit'] });
      await expect(s.update(c, b.id, { name: 'B', cuit: '30-1' })).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      await expect(s.patch(c, b.id, { cuit: '30-1' })).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      expect((await s.get(c, b.id))!.cuit).toBe('30-2');
      await expect(s.insert(c, { name: 'D', tax: { id: 7 } })).resolves.toBeTruthy();
      await expect(s.insert(c, { name: 'E', tax: { id: 7 } })).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['tax.id'] });
      // Types count: the string "7" is not the number 7.
      await expect(s.insert(c, { name: 'F', tax: { id: '7' } })).resolves.toBeTruthy();
    });

    it('does not constrain documents where the unique field is missing or null', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insertMany(c, [{ name: 'A' }, { name: 'B' }, { name: 'C', cuit: null }, { name: 'D', cuit: null }]);
      expect(await s.count(c)).toBe(4);
    });

    it('enforces a compound unique key only when all of its parts are present', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insertMany(c, [
        { owner: 'o1', code: 'A' }, { owner: 'o1', code: 'B' }, { owner: 'o2', code: 'A' },
        { owner: 'o1' }, { owner: 'o1' }, { code: 'A' }, { owner: 'o3', code: null }, { owner: 'o3', code: null },
      ]);
      const err = await s.insert(c, { owner: 'o1', code: 'A' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'DUPLICATE_KEY', fields: ['owner', 'code'] });
    });

    it('is idempotent and enforces a key added later on documents written before it', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.insertMany(c, [{ name: 'A', cuit: '1' }, { name: 'B', cuit: '2' }]);
      await s.ensureCollection(spec(c));
      await s.ensureCollection(spec(c));
      await expect(s.insert(c, { name: 'C', cuit: '1' })).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      const d = ctx.fresh('unique');
      await s.insertMany(d, [{ cuit: '1' }, { cuit: '1' }]);
      await expect(s.ensureCollection(spec(d))).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
    });

    it('lets exactly one of two concurrent creates with the same unique key win', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      for (let round = 0; round < 5; round++) {
        const results = await Promise.allSettled([s.insert(c, { cuit: `r${round}`, by: 1 }), s.insert(c, { cuit: `r${round}`, by: 2 })]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(rejected.reason).toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      }
      expect(await s.count(c)).toBe(5);
    });

    it('insertMany writes nothing when one document of the batch is a duplicate', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insert(c, { cuit: 'taken' });
      await expect(s.insertMany(c, [{ cuit: 'n1' }, { cuit: 'n2' }, { cuit: 'taken' }, { cuit: 'n3' }])).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      await expect(s.insertMany(c, [{ cuit: 'n4' }, { cuit: 'n4' }])).rejects.toMatchObject({ code: 'DUPLICATE_KEY' });
      expect((await s.find(c)).map((d) => d.cuit)).toEqual(['taken']);
    });

    it('insertManyJson writes serialised documents as insertMany would, arrays included, all or nothing', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insert(c, { cuit: 'taken' });
      const docs = [{ id: 'j1', cuit: 'j1', tags: ['a', 'b'], o: { k: 1 } }, { id: 'j2', cuit: 'j2', tags: ['b'] }];
      await s.insertManyJson(c, docs.map((d) => ({ id: d.id, json: JSON.stringify(d) })), ['tags']);
      expect(await s.get(c, 'j1')).toEqual(docs[0]);
      // Filters on a path the documents hold arrays at match their elements.
      expect((await s.find(c, { filter: { tags: 'b' }, sort: { id: 1 } })).map((d) => d.id)).toEqual(['j1', 'j2']);
      await expect(s.insertManyJson(c, [{ id: 'j3', json: '{"id":"j3","cuit":"j3"}' }, { id: 'j4', json: '{"id":"j4","cuit":"taken"}' }]))
        .rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['cuit'] });
      expect(await s.get(c, 'j3')).toBeNull();
      expect(await s.count(c)).toBe(3);
    });

    it('upsertMany matches by key, counts inserted, updated and unchanged, and keeps existing ids', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      const first = await s.upsertMany(c, ['cuit'], [{ cuit: '1', name: 'A' }, { cuit: '2', name: 'B' }]);
      expect(first).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      const before = await s.find(c, { filter: { cuit: '1' } });
      const second = await s.upsertMany(c, ['cuit'], [{ cuit: '1', name: 'A2' }, { name: 'B', cuit: '2' }, { cuit: '3', name: 'C' }]);
      expect(second).toEqual({ inserted: 1, updated: 1, unchanged: 1 });
      const after = await s.find(c, { filter: { cuit: '1' } });
      expect(after).toEqual([{ ...before[0], name: 'A2' }]);
      expect(await s.count(c)).toBe(3);
      await expect(s.upsertMany(c, ['cuit'], [{ name: 'no key' }])).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    });

    it('upsertMany writes nothing when one document breaks a unique key', async () => {
      const s = ctx.store();
      const c = ctx.fresh('unique');
      await s.ensureCollection(spec(c));
      await s.insertMany(c, [{ cuit: '1', name: 'A', owner: 'o', code: 'x' }, { cuit: '2', name: 'B' }]);
      const before = await s.find(c);
      const batch: Doc[] = [{ cuit: '1', name: 'A changed', owner: 'o', code: 'x' }, { cuit: '5', name: 'new' }, { cuit: '2', name: 'B', owner: 'o', code: 'x' }];
      await expect(s.upsertMany(c, ['cuit'], batch)).rejects.toMatchObject({ code: 'DUPLICATE_KEY', fields: ['owner', 'code'] });
      expect(await s.find(c)).toEqual(before);
    });

    it('runs transactions all or nothing where the store has them', async (t) => {
      const s = ctx.store();
      if (!s.capabilities.transactions) t.skip('this server has no transactions (see the UNSUPPORTED test)');
      const c = ctx.fresh('tx');
      await s.ensureCollection(spec(c));
      await s.transaction(async (tx) => {
        await tx.insert(c, { cuit: 'a' });
        await tx.insert(c, { cuit: 'b' });
      });
      await expect(s.transaction(async (tx) => {
        await tx.insert(c, { cuit: 'c' });
        await tx.insert(c, { cuit: 'a' });
      })).rejects.toMatchObject({ code: 'DUPLICATE_KEY' });
      expect((await s.find(c, { sort: { cuit: 1 } })).map((d) => d.cuit)).toEqual(['a', 'b']);
    });

    it('refuses transaction() with UNSUPPORTED where the server has no transactions', async (t) => {
      const s = ctx.store();
      if (s.capabilities.transactions) t.skip('this store has transactions');
      await expect(s.transaction(async () => 1)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    });
  });
}
