import { newId } from '../../server/src/store/ids';
import { rng } from './random';
import {
  ACTIVE_INGREDIENTS, BRANDS, CATEGORIES, CITIES, COMPANY_FORMS, COMPANY_PLACES, COMPANY_TYPES, COMPANY_WORDS, COUNTRIES,
  FORMULATIONS, PACKAGES, STREETS, UNITS, cuit,
} from './data';

type Doc = Record<string, unknown> & { id: string };
export type DemoData = Map<string, Doc[]>;

const active = { state: 1 };
const pad = (n: number, w = 6) => String(n).padStart(w, '0');

/**
 * Demo master data at a scale: scale 1 is a few hundred records and a fleet of 2,000 IBCs,
 * scale 1000 over a hundred thousand records. Every reference points at a record of the same
 * set, and the order of the map is an order in which references are always already inserted.
 * IBC ages are counted back from `asOf` (the last day the demo activity plays).
 */
export function generateDemo(scale = 1, asOf: Date = new Date()): DemoData {
  const r = rng(20261122);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const out: DemoData = new Map();
  const put = (entity: string, docs: Doc[]) => out.set(entity, [...(out.get(entity) ?? []), ...docs]);

  const countries = COUNTRIES.map(([name, code, num]) => ({ id: newId(), country_name: name, senasa_country_id: String(num), sap_country_id: code, sap_country_description: `${code} - ${name}`, ...active }));
  put('country', countries);
  const argentina = countries[0].id;
  const units = UNITS.map(([name, sap, senasa]) => ({ id: newId(), unit_name: name, senasa_unit_id: String(senasa), sap_unit_id: sap, sap_unit_name: sap, ...active }));
  put('units_of_measurement', units);
  const [kg, litre] = units;
  put('material_package', PACKAGES.map(([name, id]) => ({ id: newId(), package_name: name, senasa_package_id: String(id), ...active })));
  const categories = CATEGORIES.map(([name, color]) => ({ id: newId(), category_name: name, category_color: color, ...active }));
  put('material_category', categories);
  put('metric', [['Huella de carbono', 'kg CO2e/kg'], ['Consumo de agua', 'm3/kg'], ['Energía', 'kWh/kg'], ['Índice ESG', '%']].map(([name, uom]) => ({ id: newId(), name, uom, ...active })));

  const companies: Doc[] = [];
  const divisions: Doc[] = [];
  const plants: Doc[] = [];
  const devices: Doc[] = [];
  const nCompanies = 30 * scale;
  for (let i = 0; i < nCompanies; i++) {
    const type = COMPANY_TYPES[i % COMPANY_TYPES.length];
    const c = CITIES[i % CITIES.length];
    const name = `${pick(COMPANY_WORDS)} ${pick(COMPANY_PLACES)} ${i + 1} ${pick(COMPANY_FORMS)}`;
    const slug = name.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '').slice(0, 18);
    const street = `${pick(STREETS)} ${100 + Math.floor(r() * 3900)}`;
    const company: Doc = {
      id: newId(), company_name: name, email: `contacto@${slug}.com.ar`, phone_number: [`+54 9 ${c.post.slice(0, 3)} ${pad(Math.floor(r() * 1e7), 7)}`],
      prefix: `779${pad(i, 6)}`,
      address: { display_name: `${street}, ${c.city}`, address: street, location: { lat: +(c.lat + (r() - 0.5) / 20).toFixed(5), lng: +(c.lng + (r() - 0.5) / 20).toFixed(5) }, city: c.city, post_code: c.post, state_province: c.province, country: 'Argentina', country_code: 'AR' },
      ...active,
      extensions: { companyInfo: { erp_id: `C${pad(i)}`, senasa_name: name.toUpperCase(), cuit: cuit(type === 'carrier' ? 20 : 30, 50_000_000 + i * 7), company_type: type, state: 1, mega_client: i % 17 === 0 } },
    };
    if (i >= 4 && i % 9 === 0) company.parent_company_id = companies[i % 4].id;
    companies.push(company);
    const nDeposits = type === 'carrier' ? 1 : 2;
    let plantDivision: Doc | undefined;
    if (type === 'producer') {
      const plant = { id: newId(), name: `Planta ${c.city} ${i + 1}`, company: company.id, biz_location_id: `urn:epc:id:sgln:779${pad(i, 6)}.00001.0`, address: company.address, ...active };
      plants.push(plant);
      devices.push({ id: newId(), plant: plant.id, name: `Lector NFC ${i + 1}`, read_point_id: `urn:epc:id:sgln:779${pad(i, 6)}.00001.1`, ...active });
      plantDivision = { id: newId(), division_name: `Planta ${c.city} ${i + 1}`, division_type: 'plant', senasa_id_type: 'plantID', erp_id: `P${pad(i)}`, company_id: company.id, country: argentina, senasa_division_id: `SP${pad(i)}`, senasa_division_name: `PLANTA ${c.city.toUpperCase()} ${i + 1}`, plant_type: 'National', gln: `779${pad(i, 6)}0001`, ...active, address: { province: c.province, party: c.city, locality: c.city, street: pick(STREETS), number: String(100 + i), post_code: c.post } };
      divisions.push(plantDivision);
    }
    for (let d = 0; d < nDeposits; d++) {
      divisions.push({
        id: newId(), division_name: `Depósito ${c.city} ${i + 1}-${d + 1}`, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: `D${pad(i)}${d}`,
        company_id: company.id, country: argentina, senasa_division_id: `SD${pad(i)}${d}`, senasa_division_name: `DEPOSITO ${c.city.toUpperCase()} ${i + 1}-${d + 1}`,
        deposit_class: d === 0 ? 'internal' : '3pl', ...(plantDivision ? { deposit_plant_id: plantDivision.id } : {}), draft_deposit: false, ...active,
        address: { province: c.province, party: c.city, locality: c.city, street: pick(STREETS), number: String(200 + d), post_code: c.post },
      });
    }
  }
  put('company', companies);
  put('plant', plants);
  put('device', devices);
  put('company_division', divisions);

  const producers = companies.filter((c) => (c.extensions as { companyInfo: { company_type: string } }).companyInfo.company_type === 'producer');
  const distributors = companies.filter((c) => (c.extensions as { companyInfo: { company_type: string } }).companyInfo.company_type === 'distributor');
  const plantDivisions = divisions.filter((d) => d.division_type === 'plant');

  // An active ingredient is its own single active ingredient, at 100%.
  const ais: Doc[] = ACTIVE_INGREDIENTS.map((name, i) => ({ id: newId(), name, i })).map(({ id, name, i }) => ({
    id, name, uom: kg.id, is_traceable: true, raw: true, recycled: false, serialized: false, critical: i % 3 === 0, ...active,
    extensions: {
      agrochemicalMaterial: { product_id: `AI-${pad(i, 4)}`, product_code_id: `AI${pad(i, 4)}`, senasa_name: name.toUpperCase(), reg_num: `RA-${pad(i, 5)}`, erp_id: `AI${pad(i)}`, company_id: producers[i % producers.length].id, material_type: 'active_ingredient', country_origin: countries[(i % 3) + 6].id, plant_origin: [plantDivisions[i % plantDivisions.length].id], active_ingredients: [{ ai_product_id: id, concentration: '100%' }] },
      materialCategorization: { category_id: categories[5].id },
    },
  }));
  const products: Doc[] = [];
  const nProducts = 30 * scale;
  for (let i = 0; i < nProducts; i++) {
    const ai = ais[i % ais.length];
    const conc = [48, 50, 60, 75, 90, 25, 10][i % 7];
    const name = `${BRANDS[i % BRANDS.length]} ${ai.name as string} ${conc}% ${FORMULATIONS[i % FORMULATIONS.length]} ${Math.floor(i / BRANDS.length) + 1}`;
    const producer = producers[i % producers.length];
    products.push({
      id: newId(), name, uom: litre.id, is_traceable: true, raw: false, recycled: false, serialized: i % 4 === 0, critical: false, ...active,
      extensions: {
        agrochemicalMaterial: { product_id: `FP-${pad(i)}`, product_code_id: `FP${pad(i)}`, senasa_name: name.toUpperCase(), reg_num: `${30000 + i}`, erp_id: `M${pad(i)}`, company_id: producer.id, material_type: 'formulated_product', gtin: `0779${pad(i, 9)}`, country_origin: argentina, plant_origin: [plantDivisions[i % plantDivisions.length].id], active_ingredients: [{ ai_product_id: ai.id, concentration: `${conc}%` }] },
        materialCategorization: { category_id: categories[i % 5].id },
        materialInternalInfo: { internal_sku: `SKU-${pad(i)}`, inventory: Math.floor(r() * 5000), safety_stock: 200, reorder_logic_type: 'fixedQty', reorder_point: 500, reorder_quantity: 1000 },
      },
    });
  }
  put('material', [...ais, ...products]);

  put('recipe', products.map((p, i) => {
    const ai = (p.extensions as { agrochemicalMaterial: { active_ingredients: { ai_product_id: string }[]; company_id: string } }).agrochemicalMaterial;
    return {
      id: newId(), name: `Receta ${p.name as string}`, company: ai.company_id, description: 'Formulación estándar por 1000 L',
      input_materials: [{ material: ai.active_ingredients[0].ai_product_id, quantity: 480, uom: kg.id }],
      output_materials: [{ material: p.id, quantity: 1000, uom: litre.id }], ...active,
      extensions: { recipeProcessParameters: { daily_production: 20000, production_cost: 3.5 + (i % 10) / 10, lead_time: 2, starting_inventory: 0 } },
    };
  }));
  put('supply', products.map((p, i) => ({
    id: newId(), source: (p.extensions as { agrochemicalMaterial: { company_id: string } }).agrochemicalMaterial.company_id, target: distributors[i % distributors.length].id,
    material: p.id, supplier_sku: `SUP-${pad(i)}`, gtin: `0779${pad(i, 9)}`, ...active,
    extensions: { supplierParameters: { non_returnable: false, non_cancellable: i % 5 === 0, lead_time: 3 + (i % 7), min_order_qty: 1000 } },
  })));

  const { trucks, tanks } = trucksAndTanks(companies, rng(20261123));
  put('truck', trucks);
  put('iso_tank', tanks);
  put('ibc_container', ibcFleet(scale, asOf, divisions, producers, products, rng(20261125)));
  return out;
}

const DAY_MS = 86_400_000;
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const companyType = (c: Doc) => (c.extensions as { companyInfo: { company_type: string } }).companyInfo.company_type;

/** Each carrier's registered tank trucks and ISO tanks (bulk deliveries name one of each). */
function trucksAndTanks(companies: Doc[], r: () => number): { trucks: Doc[]; tanks: Doc[] } {
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const letter = () => letters[Math.floor(r() * letters.length)];
  const trucks: Doc[] = [];
  const tanks: Doc[] = [];
  companies.filter((c) => companyType(c) === 'carrier').forEach((carrier, i) => {
    for (let t = 0; t < 3; t++) {
      trucks.push({ id: newId(), truckNo: `TRK-${pad(i, 4)}-${t + 1}`, plate: `${letter()}${letter()}${100 + Math.floor(r() * 900)}${letter()}${letter()}`, carrier: carrier.id, ...active });
    }
    for (let t = 0; t < 2; t++) {
      tanks.push({ id: newId(), isoTankLicense: `ISO-${pad(i, 4)}-${t + 1}`, capacity: [20_000, 24_000, 26_000][(i + t) % 3], carrier: carrier.id, ...active });
    }
  });
  return { trucks, tanks };
}

/**
 * 2,000 IBCs a scale, all empty in stock at producers' deposits (three quarters at the first
 * producer's two deposits, where the demo activity fills them), made 0 to 6 years before
 * `asOf`: the oldest rigid plastic and composite ones are past their 5-year end of life, and
 * most of those older than 2.5 years passed a periodic inspection on time (some missed the
 * last one, so they are past it). Mostly rigid plastic; some composite and metal.
 */
function ibcFleet(scale: number, asOf: Date, divisions: Doc[], producers: Doc[], products: Doc[], r: () => number): Doc[] {
  const producerIds = new Set(producers.map((p) => p.id));
  const deposits = divisions.filter((d) => d.division_type === 'deposit' && producerIds.has(String(d.company_id)));
  const main = deposits.filter((d) => d.company_id === producers[0].id);
  const others = deposits.filter((d) => d.company_id !== producers[0].id);
  const n = 2000 * scale;
  const out: Doc[] = [];
  for (let i = 0; i < n; i++) {
    const deposit = r() < 0.75 || others.length === 0 ? main[i % main.length] : others[i % others.length];
    const kind = r();
    const material_type = kind < 0.8 ? 'rigid_plastic' : kind < 0.93 ? 'composite' : 'metal';
    // A growing fleet: more young IBCs than old ones.
    const made = asOf.getTime() - Math.floor(r() ** 1.5 * 6 * 365) * DAY_MS;
    // Periodic inspections every 30 months after manufacture, up to a year before asOf, each
    // done up to two months early; an IBC missing one is not inspected again.
    let last: number | undefined;
    for (let k = 1; made + k * 913 * DAY_MS < asOf.getTime() - 365 * DAY_MS; k++) {
      if (r() < 0.15) break;
      last = made + (k * 913 - Math.floor(r() * 60)) * DAY_MS;
    }
    out.push({
      id: newId(), serial_number: `IBC-${pad(i, 7)}`, company_id: deposit.company_id, manufactured_date: dateOf(made), deposit_id: deposit.id,
      po_number: `PO-${2020 + (i % 7)}-${pad(i % 500, 4)}`, product_code_id: products[i % products.length].id,
      material_type, capacity: material_type === 'metal' ? 1250 : 1000, ...(last !== undefined ? { lastInspectionDate: dateOf(last) } : {}),
      status: 'in_stock_empty', numberOfUses: 0, ...active,
    });
  }
  return out;
}
