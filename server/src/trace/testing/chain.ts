/**
 * The chain the trace tests walk, played through the real operations API: a precursor imported
 * from a supplier abroad, an active ingredient synthesised from it, a formulated batch and a bulk
 * batch declared from the active ingredient, the bulk fractionated into IBC batches, one of them
 * filled into two IBCs shipped to a customer and received, and the formulated batch delivered to a
 * distributor who rejects part of it, the rejection accepted back at the plant.
 *
 *   IMP-1 ──PRE-1 1000 kg──▶ SYN-1 (800 kg in) ──AI-1 600 kg──▶ PD-1 (200 kg in) ──P-1 2000 L──▶ DL-1 (1000 L out)
 *                                                      │                                          ├─▶ distributor 900 L
 *                                                      │                                          └─▶ plant 100 L (rejected, returned)
 *                                                      └─▶ BD-1 (300 kg in) ──BLK-1 3000 L──▶ FR-1 (2000 L in) ──▶ BLK-1-A 1000 L, BLK-1-B 1000 L
 *   BLK-1-A ──▶ IBP-1 (1000 L in) ──▶ IBC-A 500 L, IBC-B 500 L ──▶ ID-1 ──▶ customer 1000 L
 */
import { expect } from 'vitest';
import type { Harness } from '../../testing/harness';

type Body = Record<string, any>;

export interface Chain {
  admin: Record<string, string>;
  units: { kg: string; litre: string };
  materials: { precursor: string; ai: string; product: string };
  companies: { agro: string; supplier: string; dist: string; farm: string };
  deposits: { plant: string; dist: string; farm: string };
  country: string;
  ibcs: { A: string; B: string };
  ops: { imp: string; syn: string; pd: string; bd: string; fr: string; ibp: string; ibcDelivery: string; delivery: string };
  /** A lot the distributor imported at its own deposit, which the plant's staff may not see. */
  distLot: string;
  places: { agro: { lat: number; lng: number }; supplier: { lat: number; lng: number }; dist: { lat: number; lng: number }; farm: { lat: number; lng: number } };
}

const DAY = '2025-03-01';
const places = {
  agro: { lat: -34.6037, lng: -58.3816 },
  supplier: { lat: 31.2304, lng: 121.4737 },
  dist: { lat: -32.9442, lng: -60.6505 },
  farm: { lat: -31.4201, lng: -64.1888 },
};

export async function playChain(h: Harness): Promise<Chain> {
  const admin = (await h.userWith([h.registry.access.superadmin])).headers;
  const ok = async (method: 'POST' | 'PUT', url: string, payload: unknown, status = 200): Promise<Body> => {
    const r = await h.app.inject({ method, url, headers: admin, payload: payload as never });
    expect(r.statusCode, `${url}: ${r.body}`).toBe(status);
    return r.json();
  };
  const run = async (wf: string, body: Body, transition: string, fields?: Body) => {
    const rec = await ok('POST', `/api/v3/operations/${wf}`, body, 201);
    await ok('POST', `/api/v3/operations/${wf}/${rec.id}/transitions/${transition}`, fields ? { fields } : {});
    return rec.id as string;
  };
  const take = (wf: string, id: string, transition: string, fields?: Body) => ok('POST', `/api/v3/operations/${wf}/${id}/transitions/${transition}`, fields ? { fields } : {});

  const unit = async (name: string, code: string) => (await h.store.insert('units_of_measurement', { unit_name: name, sap_unit_id: code, state: 1 })).id;
  const kg = await unit('Kilogram', 'KG');
  const litre = await unit('Litre', 'L');
  const material = async (name: string, uom: string, gtin?: string) => (await h.store.insert('material', { name, uom, state: 1, ...(gtin ? { gtin } : {}) })).id;
  const precursor = await material('Precursor PMIDA', kg);
  const ai = await material('Glyphosate technical', kg);
  const product = await material('Glyphosate 48 SL', litre, '07791234567898');
  const company = async (name: string, type: string, location: { lat: number; lng: number }) => (await h.store.insert('company', {
    company_name: name, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: type } }, address: { location }, state: 1,
  })).id;
  const agro = await company('Agro SA', 'internal', places.agro);
  const supplier = await company('Shanghai Chem', 'distributor', places.supplier);
  const dist = await company('Dist SRL', 'distributor', places.dist);
  const farm = await company('Campo Verde', 'customer', places.farm);
  const division = async (name: string, company_id: string) => (await h.store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id, country: 'AR', state: 1,
  })).id;
  const plant = await division('Plant deposit', agro);
  const distDep = await division('Distributor deposit', dist);
  const farmDep = await division('Campo Verde deposit', farm);
  const country = (await h.store.insert('country', { country_name: 'China', state: 1 })).id;
  const made = `${new Date().getUTCFullYear() - 1}-01-15`;
  const ibcOf = async (serial: string) => (await ok('POST', '/api/v3/masterdata/ibc_container', {
    serial_number: serial, manufactured_date: made, material_type: 'rigid_plastic', capacity: 1000, deposit_id: plant, state: 1,
  }, 201)).id as string;
  const A = await ibcOf('IBC-A');
  const B = await ibcOf('IBC-B');

  const imp = await run('product_import', {
    importDate: DAY, importID: 'IMP-1', deposit: plant, supplier, originCountry: country,
    productData: [{ material: precursor, batchId: 'PRE-1', quantity: 1000, uom: kg, elaborationDate: '2025-01-10', expirationDate: '2027-01-10' }],
  }, 'confirm');
  const syn = await run('synthesis', {
    synthesisDate: DAY, synthesisID: 'SYN-1', deposit: plant, material: ai, batchId: 'AI-1', quantity: 600, uom: kg, elaborationDate: '2025-03-01', expirationDate: '2027-03-01',
    consumption: [{ material: precursor, batchId: 'PRE-1', quantity: 800, uom: kg }],
  }, 'declare');
  const pd = await run('product_declaration', {
    productionDate: DAY, productDeclarationId: 'PD-1', deposit: plant, material: product, batchId: 'P-1', quantity: 2000, uom: litre, elaborationDate: '2025-03-02', expirationDate: '2027-03-02',
    consumption: [{ material: ai, batchId: 'AI-1', quantity: 200, uom: kg }],
  }, 'declare');
  const bd = await run('bulk_declaration', {
    declarationDate: DAY, bulkDeclarationId: 'BD-1', deposit: plant, material: product, batchId: 'BLK-1', quantity: 3000, uom: litre, elaborationDate: '2025-03-03', expirationDate: '2027-03-03',
    consumption: [{ material: ai, batchId: 'AI-1', quantity: 300, uom: kg }],
  }, 'declare');
  const fr = await run('bulk_fractionation', {
    fractionationDate: DAY, fractionationId: 'FR-1', deposit: plant, material: product, batchId: 'BLK-1', quantity: 2000, uom: litre,
    ibcBatches: ['A', 'B'].map((x) => ({ material: product, batchId: `BLK-1-${x}`, quantity: 1000, uom: litre, elaborationDate: '2025-03-04', expirationDate: '2027-03-04' })),
  }, 'fractionate');
  const ibp = await run('ibc_batch_preparation', {
    batchNumber: 'IBP-1', preparedDate: DAY, deposit: plant, sourceMaterial: product, sourceBatch: 'BLK-1-A', material: product, batchId: 'BLK-1-A', uom: litre,
    containers: [{ ibcNumber: 'IBC-A', quantity: 500, topSeal: 'T-A', bottomSeal: 'B-A' }, { ibcNumber: 'IBC-B', quantity: 500, topSeal: 'T-B', bottomSeal: 'B-B' }],
  }, 'confirm');
  const ibcDelivery = await run('ibc_delivery', {
    sendDate: DAY, shipmentID: 'RI-0001', deposit: plant, receiverDeposit: farmDep, receiver: farm, receiverCompanyType: 'customer',
    containers: [{ ibcNumber: 'IBC-A' }, { ibcNumber: 'IBC-B' }],
  }, 'confirm');
  await take('ibc_delivery', ibcDelivery, 'receive', { receivedDate: DAY });
  const delivery = await run('delivery', {
    sendDate: DAY, shipmentID: 'R-0001', deposit: plant, receiverDeposit: distDep, receiverCompanyType: 'distributor',
    productData: [{ material: product, batchId: 'P-1', amount: 1000, uom: litre }],
  }, 'confirm');
  await take('delivery', delivery, 'partialReject', { productData: [{ material: product, batchId: 'P-1', amount: 1000, uom: litre, rejected: 100 }] });
  await take('delivery', delivery, 'acceptRejection');
  await run('product_import', {
    importDate: DAY, importID: 'IMP-DIST', deposit: distDep, productData: [{ material: product, batchId: 'D-9', quantity: 50, uom: litre, expirationDate: '2027-01-10' }],
  }, 'confirm');

  return {
    admin, units: { kg, litre }, materials: { precursor, ai, product }, companies: { agro, supplier, dist, farm }, deposits: { plant, dist: distDep, farm: farmDep },
    country, ibcs: { A, B }, ops: { imp, syn, pd, bd, fr, ibp, ibcDelivery, delivery }, distLot: 'D-9', places,
  };
}
