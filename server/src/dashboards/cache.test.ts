/**
 * The named queries' kept groups (a minute per query, deposit and warehouse group) as a user of
 * one group would try to read another's from them: a deposit filter and a group name that join
 * into the same text must not share an entry. The real server on the embedded store (or MongoDB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAREHOUSE_HEADER } from '../plugins/access';
import { startHarness, type Harness } from '../testing/harness';

let h: Harness;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  const s = h.store;
  const company = await s.insert('company', { company_name: 'Agro SA', state: 1 });
  const division = async (name: string) => (await s.insert('company_division', { division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id: company.id, country: 'ar', state: 1 })).id;
  ids.north = await division('Depósito Norte');
  ids.south = await division('Depósito Sur');
  const kg = (await s.insert('units_of_measurement', { unit_name: 'Kilogram', sap_unit_id: 'KG', state: 1 })).id;
  await s.insert('stock_balance', { id: `m|b1|${ids.north}`, material: 'm', batch: 'b1', deposit: ids.north, quantity: 10, unit: kg });
  await s.insert('stock_balance', { id: `m|b2|${ids.south}`, material: 'm', batch: 'b2', deposit: ids.south, quantity: 777, unit: kg });
  // Two groups whose names a deposit filter can bridge: "Norte", and "Sur|Norte".
  ids.gNorth = (await s.insert('group', { name: 'Norte', access: [], warehouses: [ids.north], state: 1 })).id;
  ids.gSouth = (await s.insert('group', { name: 'Sur|Norte', access: [], warehouses: [ids.south], state: 1 })).id;
}, 60_000);
afterAll(async () => { await h?.close(); });

const stock = async (headers: Record<string, string>, qs = '') => {
  const r = await h.app.inject({ url: `/api/v3/dashboards/home/widgets/stockByDeposit/data${qs}`, headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { categories: { key: string }[]; series: { values: number[] }[] };
};

describe('kept named-query groups', () => {
  it('are never answered to another group, whatever deposit filter joins into its key', async () => {
    const south = { ...(await h.userWith(['Dashboards', 'Reports'], { groups: [ids.gSouth] })).headers, [WAREHOUSE_HEADER]: encodeURIComponent('Sur|Norte') };
    const north = { ...(await h.userWith(['Dashboards', 'Reports'], { groups: [ids.gNorth] })).headers, [WAREHOUSE_HEADER]: 'Norte' };
    // The south group's user loads the stock: its groups are kept.
    expect((await stock(south)).categories.map((c) => c.key)).toEqual([ids.south]);
    // A north user asks for a deposit "|Sur" in Norte: nothing of theirs is called so, and the south's kept stock is not theirs.
    const probe = await stock(north, `?deposit=${encodeURIComponent('|Sur')}`);
    expect(probe.categories).toEqual([]);
    expect(JSON.stringify(probe)).not.toContain('777');
    expect((await stock(north)).categories.map((c) => c.key)).toEqual([ids.north]);
  });
});
