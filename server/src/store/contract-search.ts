/** Search (FindOptions.search, count's search): the same answers on every adapter. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractContext } from './contract.js';

export function searchContract(ctx: ContractContext): void {
  describe('search', () => {
    let coll: string;
    const names = ['Agroquímica Rosario S.A.', 'Distribuidora Pampa SRL', 'Rosario Norte Cereales', 'Química del Litoral', 'AGRO SUR', 'Semillas (100%) "Pampa"'];
    beforeAll(async () => {
      coll = ctx.fresh('search');
      await ctx.store().ensureCollection({ name: coll, uniqueKeys: [], indexes: ['name'], searchPaths: ['name', 'info.code'] });
      await ctx.store().insertMany(coll, names.map((name, i) => ({ name, info: { code: `C-${i}00` }, state: i % 2 === 0 ? 1 : 3 })));
    });
    const found = async (search: string, filter = {}) => (await ctx.store().find(coll, { search, filter, sort: { name: 1 } })).map((d) => d.name);

    it('finds a case-insensitive substring in any search path', async () => {
      expect(await found('rosario')).toEqual(['Agroquímica Rosario S.A.', 'Rosario Norte Cereales']);
      expect(await found('QUÍMICA')).toEqual(['Agroquímica Rosario S.A.', 'Química del Litoral']);
      expect(await found('c-300')).toEqual(['Química del Litoral']);
    });

    it('matches two-character searches and treats special characters literally', async () => {
      expect(await found('sa')).toEqual(['Agroquímica Rosario S.A.', 'Rosario Norte Cereales']);
      expect(await found('(100%) "Pampa"')).toEqual(['Semillas (100%) "Pampa"']);
      expect(await found('.*')).toEqual([]);
    });

    it('ANDs the search with the filter and counts the same way', async () => {
      expect(await found('rosario', { state: 1 })).toEqual(['Agroquímica Rosario S.A.', 'Rosario Norte Cereales']);
      expect(await found('pampa', { state: 1 })).toEqual([]);
      expect(await found('litoral', { state: 3 })).toEqual(['Química del Litoral']);
      expect(await ctx.store().count(coll, { state: 3 }, { search: 'pampa' })).toBe(2);
      expect(await ctx.store().count(coll, {}, { search: 'agro' })).toBe(2);
    });

    it('follows updates and deletes', async () => {
      const [doc] = await ctx.store().find(coll, { search: 'agro sur' });
      await ctx.store().update(coll, doc.id, { ...doc, name: 'Campo Sur' });
      expect(await found('agro sur')).toEqual([]);
      expect(await found('campo')).toEqual(['Campo Sur']);
      await ctx.store().delete(coll, doc.id);
      expect(await found('campo')).toEqual([]);
    });

    it('answers a repeated search anew after every kind of write', async () => {
      const c = ctx.fresh('research');
      const s = () => ctx.store();
      await s().ensureCollection({ name: c, uniqueKeys: [['code']], indexes: ['name'], searchPaths: ['name'] });
      const names = async () => (await s().find(c, { search: 'lote', sort: { name: 1 } })).map((d) => d.name);
      const total = () => s().count(c, {}, { search: 'lote' });
      expect(await names()).toEqual([]);
      const a = await s().insert(c, { code: 'a', name: 'Lote A' });
      expect([await names(), await total()]).toEqual([['Lote A'], 1]);
      await s().insertMany(c, [{ code: 'b', name: 'Lote B' }, { code: 'c', name: 'Otro C' }]);
      expect([await names(), await total()]).toEqual([['Lote A', 'Lote B'], 2]);
      await s().update(c, a.id, { code: 'a', name: 'Lote Z' });
      expect(await names()).toEqual(['Lote B', 'Lote Z']);
      await s().patch(c, a.id, { name: 'Partida Z' });
      expect([await names(), await total()]).toEqual([['Lote B'], 1]);
      await s().upsertMany(c, ['code'], [{ code: 'c', name: 'Lote C' }, { code: 'd', name: 'Lote D' }]);
      expect([await names(), await total()]).toEqual([['Lote B', 'Lote C', 'Lote D'], 3]);
      const [b] = await s().find(c, { filter: { code: 'b' } });
      await s().delete(c, b.id);
      expect([await names(), await total()]).toEqual([['Lote C', 'Lote D'], 2]);
      expect(await s().count(c, {})).toBe(3);
      await s().insert(c, { code: 'x', name: 'Otro X' });
      expect(await s().count(c, {})).toBe(4); // plain counts are answered anew too
      expect(await s().count(c, { name: 'Otro X' })).toBe(1);
      // Pages of one search and its count agree.
      expect((await s().find(c, { search: 'lote', sort: { name: 1 }, skip: 1, limit: 1 })).map((d) => d.name)).toEqual(['Lote D']);
      if (!s().capabilities.transactions) return;
      await s().transaction(async (tx) => { await tx.insert(c, { code: 'e', name: 'Lote E' }); });
      expect(await names()).toEqual(['Lote C', 'Lote D', 'Lote E']);
      await expect(s().transaction(async (tx) => {
        await tx.insert(c, { code: 'f', name: 'Lote F' });
        expect((await tx.find(c, { search: 'lote', sort: { name: 1 } })).map((d) => d.name)).toEqual(['Lote C', 'Lote D', 'Lote E', 'Lote F']);
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      expect([await names(), await total()]).toEqual([['Lote C', 'Lote D', 'Lote E'], 3]);
      expect(await s().count(c, {})).toBe(5);
    });

    it('refuses a search on a collection without search paths', async () => {
      const plain = ctx.fresh('plain');
      await ctx.store().ensureCollection({ name: plain, uniqueKeys: [], indexes: [] });
      await ctx.store().insert(plain, { name: 'x' });
      await expect(ctx.store().find(plain, { search: 'xyz' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });
}
