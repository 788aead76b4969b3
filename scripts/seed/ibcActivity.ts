/**
 * The IBC part of the demo year (issue 16, item 8): the main producer's fleet cycling through
 * customers. Each day a batch of empty IBCs is filled from a product lot the plant holds (never
 * one past its periodic inspection or end of life: the fill would be refused), shipped to a
 * customer and received a day or two later (sometimes by the transporter); after 2 to 8 weeks
 * the customer's IBCs are asked back (some late, a few never: lost), come back empty or full,
 * and pass a QC (with an inspection when one is due), or go to quarantine or are blocked, and
 * some are disposed of. Played through the same operations as the API; the player keeps its own
 * picture of every IBC, as it does of stock, so it only asks for what the server must grant.
 */
import type { StoredDoc } from '../../server/src/store/types';
import { adrDates } from '../../server/src/ibc/dates';
import type { IbcSettings } from '../../engine/src/index';
import { addDays, day, round, type Player } from './player';

type Rec = Record<string, unknown>;

type Status = 'in_stock_empty' | 'prepared' | 'in_transit' | 'at_customer' | 'return_requested' | 'returned' | 'in_qc' | 'quarantine' | 'blocked' | 'disposed';

interface Content {
  material: string;
  batch: string;
  quantity: number;
  uom: string;
}

/** The player's picture of one IBC. */
export interface IbcModel {
  id: string;
  serial: string;
  deposit: string;
  status: Status;
  materialType: string;
  made?: string;
  lastInspection?: string;
  next?: string;
  endOfLife?: string;
  /** False from an inspection until the next ADR pass: the stored next date may still be the old one. */
  dated: boolean;
  uses: number;
  nfc: boolean;
  customer?: string;
  customerDeposit?: string;
  /** Where it goes back to: the deposit it was filled at. */
  home?: string;
  content?: Content;
  /** Not asked back: still at the customer when the year ends. */
  lost?: boolean;
}

export interface IbcReference {
  /** The main producer's deposits, where the activity fills IBCs (the fleet outside them stays idle). */
  plantDeposits: StoredDoc[];
  /** Customer and distributor deposits an IBC delivery may go to. */
  receivers: StoredDoc[];
  companyType: Map<string, string>;
  companies: Map<string, StoredDoc>;
  /** The `plant` record of each producer company. */
  plantOf: Map<string, string>;
  products: Set<string>;
  aiName: Map<string, string>;
  trucks: StoredDoc[];
}

const QC_STAFF = ['Lucía Benítez', 'Jorge Ferreyra', 'Valeria Ríos'];

export class IbcPlayer {
  private readonly ibcs: IbcModel[];
  private seal = 0;
  /** Counts of deliveries and return requests made: every sixth and fifth is one the mobile app captured offline (no random draw, so the rest of the year plays as before). */
  private made = { deliveries: 0, requests: 0 };

  constructor(private readonly p: Player, private readonly ref: IbcReference, fleet: StoredDoc[], private readonly settings: IbcSettings) {
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    this.ibcs = fleet.map((d) => ({
      id: d.id, serial: String(d.serial_number), deposit: String(d.deposit_id), status: (str(d.status) ?? 'in_stock_empty') as Status,
      materialType: str(d.material_type) ?? 'rigid_plastic', made: str(d.manufactured_date), lastInspection: str(d.lastInspectionDate),
      next: str(d.nextInspectionDate), endOfLife: str(d.endOfLife), dated: true, uses: typeof d.numberOfUses === 'number' ? d.numberOfUses : 0, nfc: !!d.nfcTagNumber,
    }));
  }

  /** What the player believes of each IBC (the test compares it with the store). */
  get fleet(): readonly IbcModel[] {
    return this.ibcs;
  }

  /** The ADR pass has run: every stored date is current again. */
  dated(): void {
    for (const i of this.ibcs) i.dated = true;
  }

  private fillable(i: IbcModel, today: string): boolean {
    return i.status === 'in_stock_empty' && i.dated && (i.next ?? '9999') >= today && (i.endOfLife ?? '9999') >= today;
  }

  private emptyAt(deposit: string, today: string): IbcModel[] {
    return this.ibcs.filter((i) => i.deposit === deposit && this.fillable(i, today));
  }

  /** One day of the fleet at `plant` (a deposit of the main producer). */
  async day(d: number, at: Date, tick: () => Date, plant: StoredDoc): Promise<void> {
    const today = day(at);
    if (d % 7 === 3) await this.transfer(tick(), today);
    if (d % 30 === 15) await this.disposeWornOut(tick(), today, plant.id);
    await this.prepare(d, tick, today, plant);
  }

  /** A batch of 2 to 6 IBCs filled from a product lot at `plant`, shipped the same or the next day. */
  private async prepare(d: number, tick: () => Date, today: string, plant: StoredDoc): Promise<void> {
    const { p } = this;
    const want = p.between(2, 6);
    const lot = p.stock.at(plant.id).find((l) => this.ref.products.has(l.material) && l.quantity >= 1000);
    if (!lot) return;
    const empty = this.emptyAt(plant.id, today);
    // The warehouse takes what is at hand: not always the first in the row.
    const start = empty.length > want ? Math.floor(p.r() * (empty.length - want)) : 0;
    const chosen = empty.slice(start, start + Math.min(want, Math.floor(lot.quantity / 1000)));
    if (chosen.length === 0) return;
    // A tag for some IBCs still without one, read when they are picked.
    for (const i of chosen.filter((x) => !x.nfc && p.r() < 0.3)) {
      await p.step('ibc', i.id, 'mapNfc', tick(), { nfcTagNumber: `04${i.serial.replace(/\D/g, '').padStart(12, '0')}` });
      i.nfc = true;
    }
    const at = tick();
    const quantity = 1000;
    await p.run('ibc_batch_preparation', {
      batchNumber: p.ids('IBP', at), preparedDate: today, deposit: plant.id, productionPlant: this.ref.plantOf.get(String(plant.company_id)),
      sourceMaterial: lot.material, sourceBatch: lot.batch, material: lot.material, batchId: lot.batch, uom: lot.uom,
      ...(this.ref.aiName.has(lot.material) ? { activeIngredient: this.ref.aiName.get(lot.material) } : {}),
      containers: chosen.map((i) => ({ ibc: i.id, ibcNumber: i.serial, quantity, topSeal: `TS-${++this.seal}`, bottomSeal: `BS-${this.seal}` })),
    }, 'confirm', at);
    // Set aside at once: the filled product leaves the deposit's stock when the IBCs ship.
    p.stock.remove(lot.material, lot.batch, plant.id, round(quantity * chosen.length));
    for (const i of chosen) Object.assign(i, { status: 'prepared', uses: i.uses + 1, home: plant.id, content: { material: lot.material, batch: lot.batch, quantity, uom: lot.uom } });
    if (p.r() < 0.5) await this.ship(d, tick(), plant, chosen);
    else p.later(d + 1, (when) => this.ship(d + 1, when, plant, chosen));
  }

  private async ship(d: number, at: Date, plant: StoredDoc, batch: IbcModel[]): Promise<void> {
    const { p, ref } = this;
    const customers = ref.receivers.filter((r) => ref.companyType.get(String(r.company_id)) === 'customer');
    const receiver = p.r() < 0.8 || customers.length === ref.receivers.length ? p.pick(customers) : p.pick(ref.receivers.filter((r) => !customers.includes(r)));
    const shipmentID = p.ids('RI0001', at);
    const truck = ref.trucks.length ? p.pick(ref.trucks) : undefined;
    const id = await p.run('ibc_delivery', {
      sendDate: day(at), shipmentID, salesOrderNo: p.ids('SOI', at), deposit: plant.id, receiverDeposit: receiver.id, receiver: receiver.company_id,
      receiverCompanyType: ref.companyType.get(String(receiver.company_id)) ?? 'customer', ...(truck ? { truckMapping: { truckNo: truck.truckNo } } : {}),
      containers: batch.map((i) => ({ ibc: i.id, ibcNumber: i.serial })), ...(++this.made.deliveries % 6 === 0 ? { offline: true } : {}),
    }, 'confirm', at);
    for (const i of batch) i.status = 'in_transit';
    const receivedOn = d + p.between(1, 2);
    const byTransporter = p.r() < 0.2;
    p.later(receivedOn, async (when) => {
      await p.step('ibc_delivery', id, byTransporter ? 'receiveByTransporter' : 'receive', when, { receivedDate: day(when) });
      for (const i of batch) {
        Object.assign(i, { status: 'at_customer', customer: String(receiver.company_id), customerDeposit: receiver.id, lost: p.r() < 0.04 });
        if (i.content) p.stock.add(i.content.material, i.content.batch, receiver.id, i.content.quantity, i.content.uom, '9999-12-31');
      }
      // Where some of them stand at the customer's (the reusable assets map).
      const place = (ref.companies.get(String(receiver.company_id))?.address as { location?: { lat: number; lng: number } } | undefined)?.location;
      if (place) {
        for (const i of batch.filter(() => p.r() < 0.25)) {
          await p.step('ibc', i.id, 'mapLocation', when, { location: { lat: round(place.lat + (p.r() - 0.5) / 100), lng: round(place.lng + (p.r() - 0.5) / 100) } });
        }
      }
      // Asked back after 2 to 8 weeks; one batch in ten late (2 to 5 months); some never (lost).
      const dwell = p.r() < 0.1 ? p.between(60, 150) : p.between(14, 56);
      p.later(receivedOn + dwell, (asked) => this.askBack(receivedOn + dwell, asked, batch.filter((i) => !i.lost)));
    });
  }

  /** A return request for the IBCs of a delivery still at the customer, or (one in ten) a return at the gate without one. */
  private async askBack(d: number, at: Date, batch: IbcModel[]): Promise<void> {
    const { p } = this;
    const held = batch.filter((i) => i.status === 'at_customer');
    if (held.length === 0) return;
    const { customer, customerDeposit, home } = held[0] as Required<IbcModel>;
    if (p.r() < 0.1) {
      for (const i of held) {
        await p.step('ibc', i.id, 'return', at, { deposit_id: home, returnState: 'empty' });
        this.returned(i, home, 'empty');
        this.scheduleQc(d, i);
      }
      return;
    }
    const returnState = p.r() < 0.15 ? 'full' : 'empty';
    const id = await p.run('return_request', {
      requestNumber: p.ids('RR', at), requestDate: day(at), customer, deposit: customerDeposit, returnTo: home, returnState,
      containers: held.map((i) => ({ ibc: i.id, ibcNumber: i.serial })), ...(++this.made.requests % 5 === 0 ? { offline: true } : {}),
    }, 'request', at);
    for (const i of held) i.status = 'return_requested';
    if (p.r() < 0.07) {
      // The customer still needs them: the request is withdrawn and made again later.
      const on = d + p.between(1, 5);
      p.later(on, async (when) => {
        await p.step('return_request', id, 'withdraw', when, {}, 'El cliente todavía los usa');
        for (const i of held) i.status = 'at_customer';
        const again = on + p.between(7, 21);
        p.later(again, (when2) => this.askBack(again, when2, held));
      });
      return;
    }
    const on = d + p.between(2, 10);
    p.later(on, async (when) => {
      await p.step('return_request', id, 'receive', when);
      for (const i of held) {
        this.returned(i, home, returnState);
        this.scheduleQc(on, i);
      }
    });
  }

  /** A full IBC brings its product back; it stays the IBC's (not picked for anything else) until the QC empties it. */
  private returned(i: IbcModel, home: string, state: 'empty' | 'full'): void {
    if (i.content && state === 'full') this.p.stock.remove(i.content.material, i.content.batch, i.customerDeposit!, i.content.quantity);
    Object.assign(i, { status: 'returned', deposit: home, customer: undefined, content: state === 'full' ? i.content : undefined });
  }

  /** QC 1 to 4 days after the return: most pass, some go to quarantine or are blocked; worn-out ones are disposed of. */
  private scheduleQc(d: number, i: IbcModel): void {
    const { p } = this;
    const on = d + p.between(1, 4);
    p.later(on, async (when) => {
      const today = day(when);
      await p.step('ibc', i.id, 'startQC', when);
      i.status = 'in_qc';
      const qc = (qcResult: string) => ({ qcDate: today, qcResult, performedBy: p.pick(QC_STAFF) });
      if ((i.endOfLife ?? '9999') < today) {
        await p.step('ibc', i.id, 'block', when, qc('Fin de vida útil alcanzado (ADR 4.1.1.15)'));
        i.status = 'blocked';
        p.later(on + p.between(2, 10), (w) => this.dispose(w, i, 'Fin de vida útil: enviado a reciclado'));
        return;
      }
      const outcome = p.r();
      if (outcome < 0.85) return this.pass(when, i, qc('Sin observaciones'));
      if (outcome < 0.94) {
        await p.step('ibc', i.id, 'quarantine', when, qc('Restos de producto y válvula con pérdida: en observación'));
        i.status = 'quarantine';
        p.later(on + p.between(5, 20), async (w) => {
          if (p.r() < 0.65) return this.pass(w, i, { qcDate: day(w), qcResult: 'Válvula reemplazada, prueba de estanqueidad aprobada', performedBy: p.pick(QC_STAFF) });
          await p.step('ibc', i.id, 'block', w, { qcDate: day(w), qcResult: 'Fisura en la botella', performedBy: p.pick(QC_STAFF) });
          i.status = 'blocked';
        });
        return;
      }
      await p.step('ibc', i.id, 'block', when, qc('Jaula deformada'));
      i.status = 'blocked';
      if (p.r() < 0.6) p.later(on + p.between(3, 15), (w) => this.dispose(w, i, 'Daño irreparable'));
    });
  }

  /** Back in stock, with the periodic inspection done when it is due within four months (or past). */
  private async pass(at: Date, i: IbcModel, qc: Rec): Promise<void> {
    const inspection = (i.next ?? '9999') <= day(addDays(at, 120));
    await this.p.step('ibc', i.id, 'passQC', at, { ...qc, inspection });
    if (i.content) this.p.stock.add(i.content.material, i.content.batch, i.deposit, i.content.quantity, i.content.uom, '9999-12-31');
    Object.assign(i, { status: 'in_stock_empty', content: undefined });
    if (inspection) {
      i.lastInspection = String(qc.qcDate);
      const dates = adrDates({ manufactured_date: i.made, lastInspectionDate: i.lastInspection, material_type: i.materialType }, this.settings);
      Object.assign(i, { next: dates.nextInspectionDate, endOfLife: dates.endOfLife, dated: false });
    }
  }

  private async dispose(at: Date, i: IbcModel, comment: string): Promise<void> {
    await this.p.step('ibc', i.id, 'dispose', at, {}, comment);
    i.status = 'disposed';
  }

  /** Once a month, up to three empty IBCs past their end of life are taken out of the fleet. */
  private async disposeWornOut(at: Date, today: string, deposit: string): Promise<void> {
    const worn = this.ibcs.filter((i) => i.deposit === deposit && i.status === 'in_stock_empty' && (i.endOfLife ?? '9999') < today).slice(0, 3);
    for (const i of worn) await this.dispose(at, i, 'Fin de vida útil (ADR 4.1.1.15)');
  }

  /** Once a week, a few fillable IBCs move to the plant deposit that has fewer. */
  private async transfer(at: Date, today: string): Promise<void> {
    const [a, b] = this.ref.plantDeposits;
    if (!a || !b) return;
    const [from, to] = this.emptyAt(a.id, today).length >= this.emptyAt(b.id, today).length ? [a, b] : [b, a];
    for (const i of this.emptyAt(from.id, today).slice(0, this.p.between(2, 5))) {
      await this.p.step('ibc', i.id, 'transfer', at, { deposit_id: to.id });
      i.deposit = to.id;
    }
  }
}
