import type { Registry } from '../../../engine/src/index';
import type { Filter, Store } from '../store/types';
import { dayOf, IBC_ENTITY } from './dates';
import type { EventSummaries, EventSummary } from './summary';

const DAY = 86_400_000;
/** The ibc workflow's states (schemas/workflows/ibc.json), for a registry that has not got it. */
export const IBC_STATES = ['in_stock_empty', 'prepared', 'in_transit', 'at_customer', 'return_requested', 'returned', 'in_qc', 'quarantine', 'blocked', 'disposed'];
const HOLDING_STATES = ['at_customer', 'return_requested'];
const NOT_DISPOSED: Filter = { status: { $ne: 'disposed' } };

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
/** Days, 1 decimal; null when there is nothing to average. */
export const days = (ms: number, n: number) => (n > 0 ? round(ms / n / DAY, 1) : null);

export interface Holding {
  customer: string;
  customerName: string | null;
  totalIbcTaken: number;
  totalIbcReturned: number;
  ibcToReturn: number;
  avgReturnTime: number | null;
}

export interface HoldingsQuery {
  customer?: string;
  sort?: 'ibcToReturn' | 'avgReturnTime';
  limit?: number;
}

export interface FleetMeasures {
  fleetSize: number;
  byStatus: Record<string, number>;
  cycleTimeDays: number | null;
  dwellAtCustomerDays: number | null;
  turnsPerYear: number;
  fillCountDistribution: { uses: number; count: number }[];
  lossRate: number;
  lost: number;
  lossAfterDays: number;
  dueForInspection: number;
  pastInspection: number;
  pastEndOfLife: number;
}

/** Per customer: taken (receive rows), returned (return rows), to return, mean days held (summary.ts). */
export function holdingsOf(s: EventSummary, q: HoldingsQuery, names: ReadonlyMap<string, string>): Holding[] {
  const rows = Object.entries(s.customers)
    .filter(([c]) => !q.customer || c === q.customer)
    .map(([customer, t]) => ({
      customer, customerName: names.get(customer) ?? null, totalIbcTaken: t.taken, totalIbcReturned: t.returned,
      ibcToReturn: t.taken - t.returned, avgReturnTime: days(t.returnMs, t.timedReturns),
    }));
  // Most to chase first: the most IBCs out, or the slowest to come back (customers with no return last).
  const key = (h: Holding) => (q.sort === 'avgReturnTime' ? h.avgReturnTime ?? -1 : h.ibcToReturn);
  rows.sort((a, b) => key(b) - key(a) || b.totalIbcTaken - a.totalIbcTaken || (a.customer < b.customer ? -1 : 1));
  return q.limit ? rows.slice(0, q.limit) : rows;
}

/** Holdings and fleet measures: the log's counts from the folded summary, the fleet's from indexed counts of the IBCs. */
export class IbcMeasures {
  constructor(private readonly reg: Registry, private readonly store: Store, private readonly summaries: EventSummaries, private readonly clock: () => Date = () => new Date()) {}

  async holdings(q: HoldingsQuery): Promise<Holding[]> {
    const s = await this.summaries.current();
    const ids = Object.keys(s.customers).filter((c) => !q.customer || c === q.customer);
    const title = this.reg.entities.company?.titleField ?? 'company_name';
    const companies = ids.length ? await this.store.find('company', { filter: { id: { $in: ids } }, projection: { [title]: 1 } }) : [];
    const names = new Map(companies.map((c) => [c.id, typeof c[title] === 'string' ? (c[title] as string) : c.id]));
    return holdingsOf(s, q, names);
  }

  private count(...and: Filter[]): Promise<number> {
    return this.store.count(IBC_ENTITY, and.length === 1 ? and[0] : { $and: and });
  }

  /** IBCs not disposed by fill count: one indexed step to each next count in use, then its count. */
  private async fillCounts(): Promise<{ uses: number; count: number }[]> {
    const out: { uses: number; count: number }[] = [];
    const never = await this.count(NOT_DISPOSED, { $or: [{ numberOfUses: 0 }, { numberOfUses: null }] });
    if (never > 0) out.push({ uses: 0, count: never });
    let uses = 0;
    for (;;) {
      const [next] = await this.store.find(IBC_ENTITY, { filter: { numberOfUses: { $gt: uses } }, sort: { numberOfUses: 1 }, limit: 1, projection: { numberOfUses: 1 } });
      if (!next || typeof next.numberOfUses !== 'number') return out;
      uses = next.numberOfUses;
      const count = await this.count(NOT_DISPOSED, { numberOfUses: uses });
      if (count > 0) out.push({ uses, count });
    }
  }

  async fleet(): Promise<FleetMeasures> {
    const now = this.clock();
    const today = dayOf(now);
    const settings = this.reg.deployment.settings.ibc;
    const states = this.reg.workflows.ibc?.states.map((st) => st.id) ?? IBC_STATES;
    const [s, byStatusList, fleetSize, fillCountDistribution, lost, everShipped, dueForInspection, pastInspection, pastEndOfLife] = await Promise.all([
      this.summaries.current(),
      Promise.all(states.map(async (st) => [st, await this.count({ status: st })] as const)),
      this.count(NOT_DISPOSED),
      this.fillCounts(),
      this.count({ status: { $in: HOLDING_STATES } }, { customerSince: { $lt: new Date(now.getTime() - settings.lossAfterDays * DAY).toISOString() } }),
      // Shipped once at least: a delivery id (set by ship) or a customer that received it (set by receive).
      this.count(NOT_DISPOSED, { $or: [{ deliveryId: { $exists: true } }, { lastCustomer: { $exists: true } }] }),
      this.count(NOT_DISPOSED, { nextInspectionDate: { $gte: today, $lte: dayOf(now, settings.alertDaysBefore) } }),
      this.count(NOT_DISPOSED, { nextInspectionDate: { $lt: today } }),
      this.count(NOT_DISPOSED, { endOfLife: { $lt: today } }),
    ]);
    const yearAgo = dayOf(now, -365);
    const fillsLastYear = Object.entries(s.fillsByDay).reduce((n, [day, c]) => (day > yearAgo && day <= today ? n + c : n), 0);
    const tallies = Object.values(s.customers);
    return {
      fleetSize,
      byStatus: Object.fromEntries(byStatusList),
      cycleTimeDays: days(s.fillGapMs, s.fillGaps),
      dwellAtCustomerDays: days(tallies.reduce((n, t) => n + t.returnMs, 0), tallies.reduce((n, t) => n + t.timedReturns, 0)),
      turnsPerYear: fleetSize > 0 ? round(fillsLastYear / fleetSize, 2) : 0,
      fillCountDistribution,
      lossRate: everShipped > 0 ? round(lost / everShipped, 4) : 0,
      lost,
      lossAfterDays: settings.lossAfterDays,
      dueForInspection,
      pastInspection,
      pastEndOfLife,
    };
  }
}
