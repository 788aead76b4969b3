/**
 * A deterministic stretch of traceability activity, played through the operations service
 * (the same workflow code the API runs), so every screen starts with history and the ledger,
 * events and sync states are what real use would leave: imports of active ingredients,
 * synthesis, production declarations, deliveries to distributors and customers with some
 * rejections, scrapping, self-consumption, exports, bulk declarations and fractionation.
 */
import type { IbcSettings, Registry } from '../../engine/src/index';
import type { AuthPrincipal } from '../../server/src/auth/principal';
import type { Store, StoredDoc } from '../../server/src/store/types';
import { ENGINE, OperationService } from '../../server/src/workflows/service';
import { rng } from './random';
import { raiseIbcAlerts } from '../../server/src/ibc/alerts';
import { registerIbcHooks } from '../../server/src/ibc/hooks';
import { WriteHooks } from '../../server/src/records/writeHooks';
import { IbcPlayer, type IbcReference } from './ibcActivity';
import { addDays, day, DAY_MS, round, Stock, type Player } from './player';

type Rec = Record<string, unknown>;

/** What the player needs of the operations service: create a draft, take a transition, at a simulated time. */
export interface OperationsPort {
  create(workflow: string, body: Rec, at: Date): Promise<{ id: string }>;
  transition(workflow: string, id: string, transition: string, body: { comment?: string; fields?: Rec }, at: Date): Promise<unknown>;
  /** The server's ADR job (IBC dates brought current, alerts raised) as it would run at `at`. */
  adrPass(at: Date): Promise<void>;
}

export interface ActivityResult {
  days: number;
  operations: number;
  transitions: number;
  byWorkflow: Record<string, number>;
}


interface Reference {
  producerDeposits: StoredDoc[];
  receiverDeposits: StoredDoc[];
  companyType: Map<string, string>;
  ais: StoredDoc[];
  products: StoredDoc[];
  aiOfProduct: Map<string, { ai: string; kgPerLitre: number }>;
  recipeOf: Map<string, string>;
  countries: StoredDoc[];
  ibc: IbcReference;
  /** Tank trucks and ISO tanks by carrier, for bulk deliveries. */
  tanker: { truck: StoredDoc; tank: StoredDoc }[];
  fleet: StoredDoc[];
}

const companyTypeOf = (c: StoredDoc) => String((c.extensions as { companyInfo?: { company_type?: string } } | undefined)?.companyInfo?.company_type ?? '');
const materialTypeOf = (m: StoredDoc) => String((m.extensions as { agrochemicalMaterial?: { material_type?: string } } | undefined)?.agrochemicalMaterial?.material_type ?? '');

async function reference(store: Store): Promise<Reference> {
  const companies = await store.find('company', { filter: { state: 1 } });
  const companyType = new Map(companies.map((c) => [c.id, companyTypeOf(c)]));
  const deposits = await store.find('company_division', { filter: { division_type: 'deposit', state: 1 }, sort: { erp_id: 1 } });
  const materials = await store.find('material', { filter: { state: 1 }, sort: { name: 1 } });
  const recipes = await store.find('recipe', { filter: { state: 1 } });
  const aiOfProduct = new Map<string, { ai: string; kgPerLitre: number }>();
  const recipeOf = new Map<string, string>();
  for (const r of recipes) {
    const input = (r.input_materials as { material: string; quantity: number }[] | undefined)?.[0];
    const output = (r.output_materials as { material: string; quantity: number }[] | undefined)?.[0];
    if (!input || !output || output.quantity <= 0) continue;
    aiOfProduct.set(output.material, { ai: input.material, kgPerLitre: input.quantity / output.quantity });
    recipeOf.set(output.material, r.id);
  }
  const producerDeposits = deposits.filter((d) => companyType.get(String(d.company_id)) === 'producer');
  const receiverDeposits = deposits.filter((d) => ['distributor', 'customer'].includes(companyType.get(String(d.company_id)) ?? ''));
  const ais = materials.filter((m) => materialTypeOf(m) === 'active_ingredient');
  const products = materials.filter((m) => materialTypeOf(m) === 'formulated_product' && aiOfProduct.has(m.id));
  const plantDeposits = producerDeposits.slice(0, 2);
  const trucks = await store.find('truck', { filter: { state: 1 }, sort: { truckNo: 1 } });
  const tanks = await store.find('iso_tank', { filter: { state: 1 }, sort: { isoTankLicense: 1 } });
  const aiName = new Map(ais.map((a) => [a.id, String(a.name)]));
  return {
    producerDeposits,
    receiverDeposits,
    companyType,
    ais,
    products,
    ibc: {
      plantDeposits, receivers: receiverDeposits, companyType, companies: new Map(companies.map((c) => [c.id, c])),
      plantOf: new Map((await store.find('plant', { filter: { state: 1 }, sort: { name: 1 } })).map((pl) => [String(pl.company), pl.id])),
      products: new Set(products.map((m) => m.id)), aiName: new Map(products.map((m) => [m.id, aiName.get(aiOfProduct.get(m.id)!.ai) ?? ''])), trucks,
    },
    tanker: trucks.flatMap((truck) => tanks.filter((t) => t.carrier === truck.carrier).map((tank) => ({ truck, tank }))),
    fleet: await store.find('ibc_container', { filter: { deposit_id: { $in: plantDeposits.map((d) => d.id) } }, sort: { serial_number: 1 } }),
    aiOfProduct,
    recipeOf,
    countries: await store.find('country', { filter: { state: 1 }, sort: { country_name: 1 } }),
  };
}


/**
 * Plays `days` days ending on `end` (default today). Deterministic for a given store content
 * and seed: the same demo master data gives the same operations, quantities and outcomes.
 */
export async function playActivity(store: Store, ops: OperationsPort, opts: { days: number; settings: IbcSettings; seed?: number; end?: Date }): Promise<ActivityResult> {
  const ref = await reference(store);
  const settings = opts.settings;
  const result: ActivityResult = { days: opts.days, operations: 0, transitions: 0, byWorkflow: {} };
  if (ref.producerDeposits.length === 0 || ref.receiverDeposits.length === 0 || ref.ais.length === 0 || ref.products.length === 0) return result;
  const r = rng(opts.seed ?? 20261124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const between = (lo: number, hi: number, step = 1) => lo + Math.floor(r() * ((hi - lo) / step + 1)) * step;
  const stock = new Stock();
  const end = opts.end ?? new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 12));
  const start = addDays(end, -(opts.days - 1));
  let n = 0;
  const ids = (prefix: string, at: Date) => `${prefix}-${day(at).replace(/-/g, '')}-${String(++n).padStart(5, '0')}`;
  // Reception outcomes and rejections to settle later, by the day they fall due.
  const due = new Map<number, ((when: Date) => Promise<void>)[]>();
  const later = (dayIndex: number, fn: (when: Date) => Promise<void>) => due.set(dayIndex, [...(due.get(dayIndex) ?? []), fn]);

  const run = async (workflow: string, body: Rec, transition: string, at: Date, fields?: Rec) => {
    const { id } = await ops.create(workflow, body, at);
    result.operations++;
    result.byWorkflow[workflow] = (result.byWorkflow[workflow] ?? 0) + 1;
    await ops.transition(workflow, id, transition, { fields }, at);
    result.transitions++;
    return id;
  };
  const step = async (workflow: string, id: string, transition: string, at: Date, fields?: Rec, comment?: string) => {
    await ops.transition(workflow, id, transition, { fields, comment }, at);
    result.transitions++;
  };

  const player: Player = { r, pick, between, stock, later, run, step, ids };
  const ibcs = new IbcPlayer(player, ref.ibc, ref.fleet, settings);

  /** A production batch of `litres` of one of `products` whose active ingredient the plant holds; false when none. */
  const produce = async (plant: StoredDoc, products: StoredDoc[], litres: number, at: Date) => {
    const expires = day(addDays(at, 720));
    for (const product of products) {
      const { ai, kgPerLitre } = ref.aiOfProduct.get(product.id)!;
      const consumption = stock.pick(plant.id, ai, round(litres * kgPerLitre));
      if (!consumption) continue;
      const batchId = ids('FG', at);
      await run('product_declaration', {
        productionDate: day(at), productDeclarationId: ids('PD', at), deposit: plant.id, recipe: ref.recipeOf.get(product.id), material: product.id, batchId,
        quantity: litres, uom: String(product.uom), elaborationDate: day(at), expirationDate: expires,
        consumption: consumption.map((c) => ({ ...c, consumptionStatus: 'Draft' })),
      }, 'declare', at);
      for (const c of consumption) stock.remove(c.material, c.batchId, plant.id, c.quantity);
      stock.add(product.id, batchId, plant.id, litres, String(product.uom), expires);
      return true;
    }
    return false;
  };

  /** A bulk delivery in a registered tank truck and ISO tank; mostly accepted, one in five rejected and the rejection accepted. */
  let bulkDeliveries = 0;
  const bulkDelivery = async (d: number, plant: StoredDoc, product: StoredDoc, batchId: string, quantity: number, at: Date) => {
    if (ref.tanker.length === 0) return;
    const { truck, tank } = pick(ref.tanker);
    const receiver = pick(ref.receiverDeposits);
    const uom = String(product.uom);
    const id = await run('bulk_delivery', {
      sendDate: day(at), shipmentID: ids('RB0001', at), salesOrderNo: ids('SOB', at), deposit: plant.id, receiverDeposit: receiver.id, receiver: receiver.company_id,
      material: product.id, batchId, quantity, uom, truckMapping: { truckNo: truck.truckNo, isoTankLicense: tank.isoTankLicense },
    }, 'confirm', at);
    const on = d + between(1, 2);
    const rejected = ++bulkDeliveries % 5 === 2;
    later(on, async (when) => {
      if (!rejected) {
        await step('bulk_delivery', id, 'accept', when, { receivedDate: day(when) });
        stock.add(product.id, batchId, receiver.id, quantity, uom, '9999-12-31');
        return;
      }
      await step('bulk_delivery', id, 'reject', when, { receivedDate: day(when) }, 'Densidad fuera de especificación en la muestra de recepción');
      later(on + 1, async (settled) => {
        await step('bulk_delivery', id, 'acceptRejection', settled);
        stock.add(product.id, batchId, plant.id, quantity, uom, '9999-12-31');
      });
    });
  };

  for (let d = 0; d < opts.days; d++) {
    // Every step of a day gets a later time than the one before: the ledger's order by time is
    // then the order the steps were played in, so stock on any past instant is never negative.
    let minute = 0;
    const tick = () => new Date(start.getTime() + d * DAY_MS - 5 * 3_600_000 + (minute += 2) * 60_000);
    for (const fn of due.get(d) ?? []) await fn(tick());
    due.delete(d);
    const at = tick();
    const plant = ref.producerDeposits[d % Math.min(ref.producerDeposits.length, 2)];
    const expires = (months: number) => day(addDays(at, months * 30));

    // Imports of active ingredients, every week and on the first day.
    if (d % 7 === 0) {
      const lines = [pick(ref.ais), pick(ref.ais), pick(ref.ais)].filter((m, i, xs) => xs.findIndex((x) => x.id === m.id) === i).map((m) => ({
        material: m.id, batchId: ids('AI', at), quantity: between(8000, 16000, 500), uom: String(m.uom), elaborationDate: day(addDays(at, -20)), expirationDate: expires(24 + between(0, 12)),
      }));
      await run('product_import', { importDate: day(at), importID: ids('IMP', at), deposit: plant.id, originCountry: pick(ref.countries.slice(6)).id, productData: lines }, 'confirm', at);
      for (const l of lines) stock.add(l.material, l.batchId, plant.id, l.quantity, l.uom, l.expirationDate);
    }

    // Synthesis of an active ingredient at a plant, every five weeks.
    if (d % 35 === 17) {
      const ai = pick(ref.ais);
      const batchId = ids('SYN', at);
      const quantity = between(1000, 3000, 100);
      await run('synthesis', { synthesisDate: day(at), synthesisID: ids('S', at), deposit: plant.id, material: ai.id, batchId, quantity, uom: String(ai.uom), elaborationDate: day(at), expirationDate: expires(24) }, 'declare', at);
      stock.add(ai.id, batchId, plant.id, quantity, String(ai.uom), expires(24));
    }

    // A production batch every other day, when the plant holds the active ingredient for it.
    if (d % 2 === 1) await produce(plant, [pick(ref.products), pick(ref.products)], between(1000, 4000, 500), at);

    // The IBC filling line: a lot to fill from (made today when the deposit has none big enough), then the fleet's day.
    if (!stock.at(plant.id).some((l) => ref.ibc.products.has(l.material) && l.quantity >= 4000)) {
      await produce(plant, [pick(ref.products), pick(ref.products), pick(ref.products)], between(4000, 8000, 1000), at);
    }
    if (d % 7 === 0) {
      await ops.adrPass(at);
      ibcs.dated();
    }
    await ibcs.day(d, at, tick, plant);

    // Deliveries to distributors and customers most days, received a day or two later.
    if (d % 3 !== 2) {
      const available = stock.at(plant.id).filter((l) => ref.products.some((p) => p.id === l.material));
      const chosen = available.slice(0, between(1, 3));
      if (chosen.length > 0) {
        const internal = r() < 0.15 ? ref.producerDeposits.find((x) => x.company_id === plant.company_id && x.id !== plant.id) : undefined;
        const receiver = internal ?? pick(ref.receiverDeposits);
        const productData = chosen.map((l) => ({ material: l.material, batchId: l.batch, amount: round(Math.min(l.quantity, between(200, 1200, 100))), uom: l.uom }));
        const sendDate = day(at);
        const id = await run('delivery', {
          sendDate, shipmentID: ids('R0001', at), salesOrderNo: ids('SO', at), deposit: plant.id, receiverDeposit: receiver.id,
          receiverCompanyType: internal ? 'internal' : ref.companyType.get(String(receiver.company_id)) ?? 'customer',
          truckMapping: { truckNo: `AB${between(100, 999)}CD`, isoTankLicense: '' }, productData,
        }, 'confirm', at);
        for (const l of productData) stock.remove(l.material, l.batchId, plant.id, l.amount);
        const outcome = r();
        const receivedOn = d + between(1, 2);
        later(receivedOn, async (when) => {
          if (outcome < 0.8) {
            await step('delivery', id, 'acceptAll', when, { receivedDate: day(when) });
            for (const l of productData) stock.add(l.material, l.batchId, receiver.id, l.amount, l.uom, '9999-12-31');
            return;
          }
          const total = outcome >= 0.92;
          const rejected = productData.map((l, i) => (total ? l.amount : i === 0 ? round(Math.max(1, Math.floor(l.amount * 0.2))) : 0));
          if (total) await step('delivery', id, 'totalReject', when, { receivedDate: day(when) }, 'Envases dañados en el transporte');
          else await step('delivery', id, 'partialReject', when, { receivedDate: day(when), productData: rejected.map((x) => ({ rejected: x })) }, 'Faltante de etiquetas');
          productData.forEach((l, i) => { if (l.amount > rejected[i]) stock.add(l.material, l.batchId, receiver.id, round(l.amount - rejected[i]), l.uom, '9999-12-31'); });
          later(receivedOn + 1, async (settled) => {
            await step('delivery', id, 'acceptRejection', settled);
            productData.forEach((l, i) => { if (rejected[i] > 0) stock.add(l.material, l.batchId, plant.id, rejected[i], l.uom, '9999-12-31'); });
          });
        });
      }
    }

    // Scrapping, self-consumption and exports now and then, from what the plant holds.
    const holding = stock.at(plant.id);
    if (d % 29 === 11 && holding.length > 0) {
      const l = holding[0];
      const quantity = round(Math.min(l.quantity, between(5, 50)));
      await run('scrapping', { scrapDate: day(at), scrapID: ids('SC', at), deposit: plant.id, reason: 'damaged', productData: [{ material: l.material, batchId: l.batch, quantity, uom: l.uom }] }, 'scrap', at);
      stock.remove(l.material, l.batch, plant.id, quantity);
    }
    if (d % 31 === 5 && holding.length > 0) {
      const l = holding[holding.length - 1];
      const quantity = round(Math.min(l.quantity, between(10, 100)));
      await run('self_consumption', { consumptionDate: day(at), consumptionID: ids('SCN', at), deposit: plant.id, purpose: 'Ensayo a campo', productData: [{ material: l.material, batchId: l.batch, quantity, uom: l.uom }] }, 'consume', at);
      stock.remove(l.material, l.batch, plant.id, quantity);
    }
    if (d % 45 === 30) {
      const l = stock.at(plant.id).find((x) => ref.products.some((p) => p.id === x.material));
      if (l) {
        const quantity = round(Math.min(l.quantity, between(500, 1500, 100)));
        await run('product_export', { exportDate: day(at), exportID: ids('EXP', at), deposit: plant.id, destinationCountry: pick(ref.countries.slice(1, 5)).id, productData: [{ material: l.material, batchId: l.batch, quantity, uom: l.uom }] }, 'confirm', at);
        stock.remove(l.material, l.batch, plant.id, quantity);
      }
    }

    // Bulk: a bulk batch declared every three weeks, fractionated into IBC batches a few days later.
    if (d % 21 === 9) {
      const product = pick(ref.products);
      const { ai, kgPerLitre } = ref.aiOfProduct.get(product.id)!;
      const litres = 4000;
      const consumption = stock.pick(plant.id, ai, round(litres * kgPerLitre));
      if (consumption) {
        const batchId = ids('BLK', at);
        await run('bulk_declaration', {
          declarationDate: day(at), bulkDeclarationId: ids('BD', at), deposit: plant.id, recipe: ref.recipeOf.get(product.id), material: product.id, batchId,
          quantity: litres, uom: String(product.uom), elaborationDate: day(at), expirationDate: expires(24), consumption: consumption.map((c) => ({ ...c, consumptionStatus: 'Draft' })),
        }, 'declare', at);
        for (const c of consumption) stock.remove(c.material, c.batchId, plant.id, c.quantity);
        // The bulk lot is spoken for (its fractionation and a bulk delivery): never in the player's free stock.
        const on = d + 3;
        later(on, async (when) => {
          const ibcBatches = [1, 2, 3].map((i) => ({ material: product.id, batchId: `${batchId}-IBC${i}`, quantity: 1000, uom: String(product.uom), elaborationDate: day(when), expirationDate: day(addDays(when, 720)) }));
          await run('bulk_fractionation', { fractionationDate: day(when), fractionationId: ids('FR', when), deposit: plant.id, material: product.id, batchId, quantity: 3000, uom: String(product.uom), ibcBatches }, 'fractionate', when);
          for (const b of ibcBatches) stock.add(b.material, b.batchId, plant.id, b.quantity, b.uom, b.expirationDate);
          // What is left of the bulk goes out in a tank truck two days later.
          later(on + 2, (sent) => bulkDelivery(on + 2, plant, product, batchId, 1000, sent));
        });
      }
    }

  }
  return result;
}

/**
 * The operations service as the player's port, acting as `actor` (the seeding administrator)
 * at the simulated time of each step: the ledger, events and history carry the day played.
 */
export function servicePort(reg: Registry, store: Store, actor: { id: string; email: string }): OperationsPort {
  let clock = new Date();
  // The fields the server derives on every write (an IBC's ADR dates and QC lead time), as the API's writes get them.
  const hooks = new WriteHooks();
  registerIbcHooks(hooks, reg);
  const service = new OperationService(reg, store, ENGINE, () => clock, hooks);
  const principal: AuthPrincipal = {
    userId: actor.id, email: actor.email, displayName: 'Demo activity', sessionId: 'seed', groups: [], access: [reg.access.superadmin], selectedWarehouse: null,
  };
  return {
    async create(workflow, body, at) {
      clock = at;
      return (await service.create(workflow, body, principal, 'en')) as { id: string };
    },
    async transition(workflow, id, transition, body, at) {
      clock = at;
      return service.transition(workflow, id, transition, body, principal, 'en');
    },
    async adrPass(at) {
      await raiseIbcAlerts(store, reg, at);
    },
  };
}

/** Plays `days` of activity into a store that has demo master data and no operations yet; null when it already has some. */
export async function seedActivity(reg: Registry, store: Store, days: number, end?: Date): Promise<ActivityResult | null> {
  if ((await store.count('product_import', {})) > 0 || (await store.count('delivery', {})) > 0) return null;
  const [actor] = await store.find('user', { filter: { access: reg.access.superadmin, state: 1 }, sort: { createdAt: 1 }, limit: 1 });
  if (!actor) return null;
  return playActivity(store, servicePort(reg, store, { id: actor.id, email: String(actor.email) }), { days, end, settings: reg.deployment.settings.ibc });
}
