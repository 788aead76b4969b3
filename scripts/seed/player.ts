/** What the demo players share: their picture of stock, the simulated calendar, and the steps they take. */
type Rec = Record<string, unknown>;

export const DAY_MS = 86_400_000;
export const day = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);

/** The player's own picture of stock, kept in step with what it asks the service to do. */
export class Stock {
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

export const round = (n: number) => Math.round(n * 1000) / 1000;

/** A player's tools for one run: its random numbers, stock model, calendar of steps due, and the operations it takes. */
export interface Player {
  r: () => number;
  pick<T>(xs: readonly T[]): T;
  between(lo: number, hi: number, step?: number): number;
  stock: Stock;
  /** Schedules `fn` on day `dayIndex` of the run (dropped when past its end). */
  later(dayIndex: number, fn: (when: Date) => Promise<void>): void;
  /** Creates a record and takes its first transition; the record's id. */
  run(workflow: string, body: Rec, transition: string, at: Date, fields?: Rec): Promise<string>;
  step(workflow: string, id: string, transition: string, at: Date, fields?: Rec, comment?: string): Promise<void>;
  /** A unique, dated number: `prefix-YYYYMMDD-nnnnn`. */
  ids(prefix: string, at: Date): string;
}
