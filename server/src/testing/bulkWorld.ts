import { expect } from 'vitest';
import type { Harness } from './harness';

/**
 * What a bulk delivery needs, made through the real API where a user would (the truck and ISO
 * tank registered in master data, a bulk lot imported and confirmed at the plant's deposit):
 * a plant's deposit holding 30,000 L of lot `batchId`, a receiving company and its deposit.
 */
export async function bulkWorld(h: Harness, office: Record<string, string>, batchId: string, trucks = ['TRK-1']): Promise<{ plant: string; dist: string; receiver: string; bulk: string; litre: string }> {
  const post = async (url: string, payload: object, status = 201) => {
    const r = await h.app.inject({ method: 'POST', url, headers: office, payload });
    expect(r.statusCode, r.body).toBe(status);
    return r.json() as { id: string };
  };
  const litre = (await h.store.insert('units_of_measurement', { unit_name: 'Litre', code: 'LT', state: 1 })).id;
  const bulk = (await h.store.insert('material', { name: 'Glyphosate bulk', uom: litre, state: 1 })).id;
  const company = async (company_name: string) => (await h.store.insert('company', { company_name, state: 1 })).id;
  const division = async (division_name: string, company_id: string) => (await h.store.insert('company_division', {
    division_name, division_type: 'deposit', senasa_id_type: 'x', erp_id: division_name, company_id, country: 'AR', state: 1,
  })).id;
  const plant = await division('Plant deposit', await company('Agro SA'));
  const receiver = await company('Formulator SRL');
  const dist = await division('Formulator deposit', receiver);
  for (const [i, truckNo] of trucks.entries()) await post('/api/v3/masterdata/truck', { truckNo, plate: `AB ${123 + i} CD`, state: 1 });
  await post('/api/v3/masterdata/iso_tank', { isoTankLicense: 'ISO-1', capacity: 24000, state: 1 });
  const imp = await post('/api/v3/operations/product_import', { importDate: new Date().toISOString().slice(0, 10), importID: `IMP-${batchId}`, deposit: plant, productData: [{ material: bulk, batchId, quantity: 30000, uom: litre }] });
  await post(`/api/v3/operations/product_import/${imp.id}/transitions/confirm`, {}, 200);
  return { plant, dist, receiver, bulk, litre };
}
