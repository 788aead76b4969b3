/**
 * A deterministic stretch of traceability activity, played through the operations service
 * (the same workflow code the API runs), so every screen starts with history and the ledger,
 * events and sync states are what real use would leave: imports of active ingredients,
 * synthesis, production declarations, deliveries to distributors and customers with some
 * rejections, scrapping, self-consumption, exports, bulk declarations and fractionation.
 */
import type { Registry } from '../../engine/src/index';
import type { AuthPrincipal } from '../../server/src/auth/principal';
import type { Store, StoredDoc } from '../../server/src/store/types';
import { ENGINE, OperationService } from '../../server/src/workflows/service';
import { rng } from './random';

type Rec = Record<string, unknown>;

/** What the player needs of the operations service: create a draft, take a transition, at a simulated time. */
export interface OperationsPort {
  create(workflow: string, body: Rec, at: Date): Promise<{ id: string }>;
  transition(workflow: string, id: string, transition: string, body: { comment?: string; fields?: Rec }, at: Date): Promise<unknown>;
}

export interface ActivityResult {
  days: number;
  operations: number;
  transitions: number;
  byWorkflow: Record<string, number>;
}

const DAY_MS = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);

interface Reference {
  producerDeposits: StoredDoc[];
  receiverDeposits: StoredDoc[];
  companyType: Map<string, string>;
  ais: StoredDoc[];
  products: StoredDoc[];
  aiOfProduct: Map<string, { ai: string; kgPerLitre: number }>;
  recipeOf: Map<string, string>;
  countries: StoredDoc[];
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
  return {
    producerDeposits: deposits.filter((d) => companyType.get(String(d.company_id)) === 'producer'),
    receiverDeposits: deposits.filter((d) => ['distributor', 'customer'].includes(companyType.get(String(d.company_id)) ?? '')),
    companyType,
    ais: materials.filter((m) => materialTypeOf(m) === 'active_ingredient'),
    products: materials.filter((m) => materialTypeOf(m) === 'formulated_product' && aiOfProduct.has(m.id)),
    aiOfProduct,
    recipeOf,
    countries: await store.find('country', { filter: { state: 1 }, sort: { country_name: 1 } }),
  };
}

/** The player's own picture of stock, kept in step with what it asks the service to do. */
class Stock {
  private readonly lots = new Map<string, { material: string; batch: string; deposit: string; quantity: number; uom: string; expires: string }>();
  private key = (material: string, batch: string, deposit: string) => `${material}|${batch}|${deposit}`;
  add(material: string, batch: string, deposit: string, quantity: number, uom: string, expires: string): void {
    const k = this.key(material, batch, deposit);
    const lot = this.lots.get(k);
    if (lot) lot.quantity += quantity;
    else this.lots.set(k, { material, batch, deposit, quantity, uom, expires });
  }
  remove(material: string, batch: string, deposit: string, quantity: number): void {
    const lot = this.lots.get(this.key(material, batch, deposit));
    if (!lot || lot.quantity < quantity - 1e-9) throw new Error(`activity: planned to take ${quantity} of ${material}/${batch} at ${deposit}, holding ${lot?.quantity ?? 0}`);
    lot.quantity = round(lot.quantity - quantity);
  }
  /** Batches at a deposit, first-expired first (how a warehouse picks). */
  at(deposit: string, material?: string) {
    return [...this.lots.values()]
      .filter((l) => l.deposit === deposit && l.quantity > 0 && (material === undefined || l.material === material))
      .sort((a, b) => a.expires.localeCompare(b.expires) || a.batch.localeCompare(b.batch));
  }
  /** Takes `quantity` first-expired first; the lines it takes, or null when there is not enough. */
  pick(deposit: string, material: string, quantity: number) {
    const lines: { material: string; batchId: string; quantity: number; uom: string }[] = [];
    let left = quantity;
    for (const lot of this.at(deposit, material)) {
      if (left <= 0) break;
      const take = round(Math.min(lot.quantity, left));
      lines.push({ material, batchId: lot.batch, quantity: take, uom: lot.uom });
      left = round(left - take);
    }
    return left > 0 ? null : lines;
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Plays `days` days ending on `end` (default today). Deterministic for a given store content
 * and seed: the same demo master data gives the same operations, quantities and outcomes.
 */
export async function playActivity(store: Store, ops: OperationsPort, opts: { days: number; seed?: number; end?: Date }): Promise<ActivityResult> {
  const ref = await reference(store);
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

  for (let d = 0; d < opts.days; d++) {
    // Every step of a day gets a later time than the one before: the ledger's order by time is
    // then the order the steps were played in, so stock on any past instant is never negative.
    let minute = 0;
    const tick = () => new Date(start.getTime() + d * DAY_MS - 5 * 3_600_000 + (minute += 7) * 60_000);
    for (const fn of due.get(d) ?? []) await fn(tick());
    due.delete(d);
    const at = tick();
    const plant = ref.producerDeposits[d % Math.min(ref.producerDeposits.length, 2)];
    const expires = (months: number) => day(addDays(at, months * 30));

    // Imports of active ingredients, every week and on the first day.
    if (d % 7 === 0) {
      const lines = [pick(ref.ais), pick(ref.ais)].filter((m, i, xs) => xs.findIndex((x) => x.id === m.id) === i).map((m) => ({
        material: m.id, batchId: ids('AI', at), quantity: between(4000, 9000, 500), uom: String(m.uom), elaborationDate: day(addDays(at, -20)), expirationDate: expires(24 + between(0, 12)),
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
    if (d % 2 === 1) {
      for (const product of [pick(ref.products), pick(ref.products)]) {
        const { ai, kgPerLitre } = ref.aiOfProduct.get(product.id)!;
        const litres = between(1000, 4000, 500);
        const consumption = stock.pick(plant.id, ai, round(litres * kgPerLitre));
        if (!consumption) continue;
        const batchId = ids('FG', at);
        await run('product_declaration', {
          productionDate: day(at), productDeclarationId: ids('PD', at), deposit: plant.id, recipe: ref.recipeOf.get(product.id), material: product.id, batchId,
          quantity: litres, uom: String(product.uom), elaborationDate: day(at), expirationDate: expires(24),
          consumption: consumption.map((c) => ({ ...c, consumptionStatus: 'Draft' })),
        }, 'declare', at);
        for (const c of consumption) stock.remove(c.material, c.batchId, plant.id, c.quantity);
        stock.add(product.id, batchId, plant.id, litres, String(product.uom), expires(24));
        break;
      }
    }

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
        stock.add(product.id, batchId, plant.id, litres, String(product.uom), expires(24));
        const on = d + 3;
        later(on, async (when) => {
          const ibcBatches = [1, 2, 3].map((i) => ({ material: product.id, batchId: `${batchId}-IBC${i}`, quantity: 1000, uom: String(product.uom), elaborationDate: day(when), expirationDate: day(addDays(when, 720)) }));
          await run('bulk_fractionation', { fractionationDate: day(when), fractionationId: ids('FR', when), deposit: plant.id, material: product.id, batchId, quantity: 3000, uom: String(product.uom), ibcBatches }, 'fractionate', when);
          stock.remove(product.id, batchId, plant.id, 3000);
          for (const b of ibcBatches) stock.add(b.material, b.batchId, plant.id, b.quantity, b.uom, b.expirationDate);
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
  const service = new OperationService(reg, store, ENGINE, () => clock);
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
  };
}

/** Plays `days` of activity into a store that has demo master data and no operations yet; null when it already has some. */
export async function seedActivity(reg: Registry, store: Store, days: number, end?: Date): Promise<ActivityResult | null> {
  if ((await store.count('product_import', {})) > 0 || (await store.count('delivery', {})) > 0) return null;
  const [actor] = await store.find('user', { filter: { access: reg.access.superadmin, state: 1 }, sort: { createdAt: 1 }, limit: 1 });
  if (!actor) return null;
  return playActivity(store, servicePort(reg, store, { id: actor.id, email: String(actor.email) }), { days, end });
}
