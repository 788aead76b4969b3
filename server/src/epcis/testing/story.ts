/**
 * A small traceability story played through the operations API on the real definitions, for the
 * EPCIS query's tests: an active ingredient imported at a plant, a product batch declared from it,
 * part shipped to a distributor and accepted there, some scrapped. Each step's EPCIS event is
 * remembered with the time before it, so time ranges can cut between them.
 */
import { lotClassUri, locationUri } from '../../../../engine/src/index';
import { WAREHOUSE_HEADER } from '../../plugins/access';
import type { Harness } from '../../testing/harness';

export interface Story {
  plant: string;
  dist: string;
  /** The lot classes and locations as the events name them. */
  aiClass: string;
  productClass: string;
  plantLoc: string;
  distLoc: string;
  /** Headers of a user of each warehouse group (selected), and of a user seeing every event. */
  plantUser: Record<string, string>;
  distUser: Record<string, string>;
  /** Each step's event: its eventID and the time just before the step. */
  steps: Record<'imported' | 'declared' | 'shipped' | 'accepted' | 'scrapped', { eventID: string; before: string }>;
  /** The time after the last step. */
  end: string;
}

const pause = () => new Promise((r) => setTimeout(r, 5));

export async function playStory(h: Harness): Promise<Story> {
  const ok = async (url: string, headers: Record<string, string>, payload: unknown, status = 200) => {
    const r = await h.app.inject({ method: 'POST', url, headers, payload: payload as never });
    if (r.statusCode !== status) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const unit = async (code: string) => (await h.store.insert('units_of_measurement', { name: code, code, state: 1 })).id;
  const kg = await unit('KG');
  const litre = await unit('LT');
  const ai = (await h.store.insert('material', { name: 'Glyphosate technical', uom: kg, state: 1 })).id;
  const product = (await h.store.insert('material', { name: 'Glyphosate 48 SL', uom: litre, state: 1 })).id;
  const company = async (name: string, type: string) => (await h.store.insert('company', { company_name: name, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: type } }, state: 1 })).id;
  const division = async (name: string, companyId: string, gln?: string) => (await h.store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id: companyId, country: 'AR', state: 1, ...(gln ? { gln } : {}),
  })).id;
  // The distributor's deposit has a GLN: its events name it by its GS1 Digital Link.
  const plant = await division('Plant deposit', await company('Agro SA', 'producer'));
  const dist = await division('Distributor deposit', await company('Dist SRL', 'distributor'), '0614141000012');
  const keys = ['Imports', 'Product Declaration', 'Deliveries', 'Scrapped', 'Reception', 'Traceability Map'];
  const plantGroup = await h.store.insert('group', { name: 'Plant', access: keys, warehouses: [plant], state: 1 });
  const distGroup = await h.store.insert('group', { name: 'Distributor', access: keys, warehouses: [dist], state: 1 });
  const plantUser = { ...(await h.userWith(keys, { groups: [plantGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Plant' };
  const distUser = { ...(await h.userWith(keys, { groups: [distGroup.id] })).headers, [WAREHOUSE_HEADER]: 'Distributor' };
  const eventOf = async (coll: string, id: string, at = 0) => String(((await h.store.find(coll, { filter: { 'operation.id': id }, sort: { id: 1 } }))[at].epcis as { eventID: string }).eventID);
  const stamp = async () => { await pause(); const t = new Date().toISOString(); await pause(); return t; };

  let before = await stamp();
  const imp = await ok('/api/v3/operations/product_import', plantUser, {
    importDate: '2025-03-01', importID: 'IMP-001', deposit: plant, productData: [{ material: ai, batchId: 'AI-001', quantity: 500, uom: kg }],
  }, 201);
  await ok(`/api/v3/operations/product_import/${imp.id}/transitions/confirm`, plantUser, {});
  const imported = { eventID: await eventOf('object_events', imp.id), before };

  before = await stamp();
  const decl = await ok('/api/v3/operations/product_declaration', plantUser, {
    productionDate: '2025-03-05', productDeclarationId: 'PD-001', deposit: plant, material: product, batchId: 'P-001', quantity: 1000, uom: litre,
    elaborationDate: '2025-03-05', expirationDate: '2027-03-05',
    consumption: [{ material: ai, batchId: 'AI-001', quantity: 200, uom: kg }],
  }, 201);
  await ok(`/api/v3/operations/product_declaration/${decl.id}/transitions/declare`, plantUser, {});
  const declared = { eventID: await eventOf('transformation_events', decl.id), before };

  before = await stamp();
  const d = await ok('/api/v3/operations/delivery', plantUser, {
    sendDate: '2025-03-10', shipmentID: 'R-0001-00000001', deposit: plant, receiverDeposit: dist, receiverCompanyType: 'distributor',
    truckMapping: { truckNo: 'AB123CD', isoTankLicense: 'ISO-9' }, productData: [{ material: product, batchId: 'P-001', amount: 400, uom: litre }],
  }, 201);
  await ok(`/api/v3/operations/delivery/${d.id}/transitions/confirm`, plantUser, {});
  const shipped = { eventID: await eventOf('object_events', d.id), before };

  before = await stamp();
  await ok(`/api/v3/operations/delivery/${d.id}/transitions/acceptAll`, distUser, {});
  const accepted = { eventID: await eventOf('object_events', d.id, 1), before };

  before = await stamp();
  const s = await ok('/api/v3/operations/scrapping', distUser, {
    scrapDate: '2025-03-12', scrapID: 'SC-001', deposit: dist, reason: 'damaged', productData: [{ material: product, batchId: 'P-001', quantity: 10, uom: litre }],
  }, 201);
  await ok(`/api/v3/operations/scrapping/${s.id}/transitions/scrap`, distUser, {});
  const scrapped = { eventID: await eventOf('object_events', s.id), before };
  const end = await stamp();

  return {
    plant, dist, aiClass: lotClassUri(ai, 'AI-001'), productClass: lotClassUri(product, 'P-001'),
    plantLoc: locationUri(plant), distLoc: locationUri(dist, { deposits: { [dist]: { gln: '0614141000012' } } }),
    plantUser, distUser, steps: { imported, declared, shipped, accepted, scrapped }, end,
  };
}
