import { requireDefinitions } from '../../definitions/read';
import { hashPassword } from '../../server/src/auth/passwords';
import { addMonths, adrDates } from '../../server/src/ibc/dates';
import { insertStoryUser, stamp, withSeedStore } from './seed';
import { IBC_GROUPS, IBC_USERS, PASSWORD } from './users';

/** The master data the IBC story names on screen; serials of the IBCs it fills, and of the one past its inspection date. */
export const IBC_DATA = {
  filler: 'Envasadora Campana S.A.',
  customer: 'Campo Verde S.A.',
  plant: 'Planta Campana',
  product: 'Herbicida Campana 48% E2E',
  litre: 'Litre',
  serials: ['IBC-E2E-001', 'IBC-E2E-002', 'IBC-E2E-003'],
  spare: 'IBC-E2E-004',
  overdue: 'IBC-E2E-OLD',
} as const;

/** A day `months` months before today (YYYY-MM-DD, UTC). */
export const monthsAgo = (months: number) => addMonths(new Date().toISOString().slice(0, 10), -months)!;

/**
 * An empty data directory filled for the IBC story: the admin, a filler's deposit and a
 * customer's deposit (each company's, each in its own warehouse group), a product, the
 * story's people, and five empty IBCs at the filler's deposit: four made a year ago, one made
 * three years ago and never inspected since (its periodic inspection, every 30 months, is past).
 * The ADR dates are the server's own computation; the product lot is put in stock by the story
 * (an import confirmed through the API), as any stock is.
 */
export async function seedIbc(appRoot: string, dataDir: string): Promise<void> {
  const settings = requireDefinitions(appRoot).deployment.settings.ibc;
  await withSeedStore(appRoot, dataDir, async (store) => {
    const hash = await hashPassword(PASSWORD);
    const country = await store.insert('country', { country_name: 'Argentina', senasa_country_id: '32', sap_country_id: 'AR', sap_country_description: 'Argentina', state: 1, ...stamp() });
    const filler = await store.insert('company', { company_name: IBC_DATA.filler, state: 1, ...stamp() });
    const customer = await store.insert('company', { company_name: IBC_DATA.customer, state: 1, ...stamp() });
    const litre = await store.insert('units_of_measurement', { unit_name: IBC_DATA.litre, sap_unit_id: 'L', state: 1, ...stamp() });
    await store.insert('material', { name: IBC_DATA.product, uom: litre.id, is_traceable: true, raw: false, state: 1, ...stamp() });
    await store.insert('plant', { name: IBC_DATA.plant, company: filler.id, state: 1, ...stamp() });
    const owners = { filler: filler.id, customer: customer.id };
    const deposits: Record<string, string> = {};
    const groups: Record<string, string> = {};
    let erp = 700;
    for (const [key, g] of Object.entries(IBC_GROUPS)) {
      const division = await store.insert('company_division', {
        division_name: g.warehouse, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: `D-${erp++}`,
        company_id: owners[key as keyof typeof owners], country: country.id, state: 1, ...stamp(),
      });
      deposits[key] = division.id;
      const group = await store.insert('group', { name: g.name, description: g.name, access: [...g.access], warehouses: [division.id], state: 1, ...stamp() });
      groups[key] = group.id;
    }
    for (const u of Object.values(IBC_USERS)) await insertStoryUser(store, u, IBC_GROUPS[u.group].access, groups[u.group], hash);
    const ibcs: [string, string][] = [...[...IBC_DATA.serials, IBC_DATA.spare].map((serial): [string, string] => [serial, monthsAgo(12)]), [IBC_DATA.overdue, monthsAgo(36)]];
    for (const [serial, made] of ibcs) {
      const ibc = { serial_number: serial, company_id: filler.id, manufactured_date: made, material_type: 'rigid_plastic', capacity: 1000, deposit_id: deposits.filler };
      await store.insert('ibc_container', { ...ibc, ...adrDates(ibc, settings), status: 'in_stock_empty', numberOfUses: 0, state: 1, ...stamp() });
    }
  });
}
