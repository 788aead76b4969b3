import { dayOf, IBC_ENTITY } from '../ibc/dates';
import type { Store } from '../store/types';

/**
 * The smallest IBC world a test acts on, written straight to the store: a producer's plant
 * deposit, a customer with its deposit, and `put` for an IBC at the plant (200 days old, used once).
 */
export async function ibcWorld(store: Store): Promise<{ plant: string; customer: string; custDep: string; put(serial: string, doc: Record<string, unknown>): Promise<string> }> {
  const company = async (company_name: string) => (await store.insert('company', { company_name, state: 1 })).id;
  const division = async (division_name: string, company_id: string) => (await store.insert('company_division', {
    division_name, division_type: 'deposit', senasa_id_type: 'x', erp_id: division_name, company_id, country: 'AR', state: 1,
  })).id;
  const plant = await division('Plant deposit', await company('Agro SA'));
  const customer = await company('Campo Verde');
  const custDep = await division('Campo Verde deposit', customer);
  const put = async (serial: string, doc: Record<string, unknown>) => (await store.insert(IBC_ENTITY, {
    serial_number: serial, material_type: 'rigid_plastic', manufactured_date: dayOf(new Date(), -200), deposit_id: plant, numberOfUses: 1, state: 1, ...doc,
  })).id;
  return { plant, customer, custDep, put };
}
