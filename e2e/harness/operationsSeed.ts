import { hashPassword } from '../../server/src/auth/passwords';
import { stamp, withSeedStore } from './seed';
import { OPERATION_GROUPS, OPERATION_USERS, PASSWORD } from './users';

/** The master data the operations story names on screen. */
export const OPERATION_DATA = {
  activeIngredient: 'Glifosato técnico E2E',
  product: 'Rizo Glifosato 48% E2E',
  kg: 'Kilogram',
  litre: 'Litre',
} as const;


/**
 * An empty data directory filled for the operations story: the admin, two units, an active
 * ingredient and a formulated product, a plant's and a distributor's deposit each in its own
 * warehouse group, and per language a staff member of the plant and a distributor.
 */
export async function seedOperations(appRoot: string, dataDir: string): Promise<void> {
  await withSeedStore(appRoot, dataDir, async (store) => {
    const hash = await hashPassword(PASSWORD);
    const country = await store.insert('country', { country_name: 'Argentina', senasa_country_id: '32', sap_country_id: 'AR', sap_country_description: 'Argentina', state: 1, ...stamp() });
    const company = await store.insert('company', { company_name: 'Agro Operaciones S.A.', state: 1, ...stamp() });
    const kg = await store.insert('units_of_measurement', { unit_name: OPERATION_DATA.kg, sap_unit_id: 'KG', state: 1, ...stamp() });
    const litre = await store.insert('units_of_measurement', { unit_name: OPERATION_DATA.litre, sap_unit_id: 'L', state: 1, ...stamp() });
    await store.insert('material', { name: OPERATION_DATA.activeIngredient, uom: kg.id, is_traceable: true, raw: true, state: 1, ...stamp() });
    await store.insert('material', { name: OPERATION_DATA.product, uom: litre.id, is_traceable: true, raw: false, state: 1, ...stamp() });
    const groups: Record<string, string> = {};
    let erp = 500;
    for (const [key, g] of Object.entries(OPERATION_GROUPS)) {
      const division = await store.insert('company_division', {
        division_name: g.warehouse, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: `D-${erp++}`,
        company_id: company.id, country: country.id, state: 1, ...stamp(),
      });
      const group = await store.insert('group', { name: g.name, description: g.name, access: [...g.access], warehouses: [division.id], state: 1, ...stamp() });
      groups[key] = group.id;
    }
    for (const pair of Object.values(OPERATION_USERS)) {
      for (const u of [pair.staff, pair.distributor]) {
        await store.insert('user', {
          email: u.email, display_name: u.name, state: 1, access: [...OPERATION_GROUPS[u.group].access], groups: [groups[u.group]], templates: [], profiles: [],
          language: u.language, notification_channel: 'local', password_hash: hash, ...stamp(),
        });
      }
    }
  });
}
