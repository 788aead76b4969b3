/**
 * The named queries of the dashboards (engine/src/dashboards/queries.ts lists them with their
 * access and figures; docs/dashboards.md, "Named queries"): what a report cannot say, read with
 * indexed counts or one small `$group`, always within the selected warehouse group.
 */
import type { Registry } from '../../../engine/src/index';
import { SYNC_JOB } from '../sync/collections';
import type { Doc, Filter, Store } from '../store/types';
import type { Warehouse } from '../workflows/service';

const DAY = 86_400_000;
const OPEN_JOB = ['pending', 'leased', 'failed'];
const HOLDING = ['at_customer', 'return_requested'];
const IN_STOCK = ['in_stock_empty', 'prepared'];
const BACK = ['returned', 'in_qc', 'quarantine'];
const NOT_DISPOSED: Filter = { status: { $ne: 'disposed' } };

/** Where a named query reads: counts on the store, pipelines where the reports' run (the reader thread on the embedded store). */
export type Reads = Pick<Store, 'count' | 'aggregate'>;

/** The parameters a dashboard fed it (a deposit), and the narrowing the selected group makes. */
export interface QueryScope {
  deposit?: string;
  warehouse: Warehouse | null;
}

const and = (...filters: (Filter | undefined)[]): Filter => {
  const all = filters.filter((f): f is Filter => f !== undefined && Object.keys(f).length > 0);
  return all.length === 0 ? {} : all.length === 1 ? all[0] : { $and: all };
};

/** Records naming a deposit on `field` within the scope: the deposit fed, and the group's deposits (or, with `owner`, its companies' records). */
function depositFilter(field: string, s: QueryScope, owner?: string): Filter | undefined {
  const conds: Filter[] = [];
  if (s.deposit !== undefined) conds.push({ [field]: s.deposit });
  if (s.warehouse) {
    const ors: Filter[] = [{ [field]: { $in: [...s.warehouse.divisions] } }];
    if (owner) ors.push({ [owner]: { $in: [...s.warehouse.companies] } });
    conds.push(ors.length === 1 ? ors[0] : { $or: ors });
  }
  return conds.length ? and(...conds) : undefined;
}

export class NamedQueries {
  constructor(private readonly reg: Registry, private readonly store: Store) {}

  /** The outbox's figures (sync/deadlines.ts syncCounts), counting the jobs declared at the scope's deposits. */
  async declarations(reads: Reads, s: QueryScope, now: Date): Promise<Record<string, number>> {
    const at = now.toISOString();
    const where = depositFilter('deposit', s);
    const count = (f: Filter) => reads.count(SYNC_JOB, and(where, f));
    const [pending, failed, synced, overdue, dueSoon] = await Promise.all([
      count({ state: { $in: ['pending', 'leased'] } }),
      count({ state: 'failed' }),
      count({ state: 'done' }),
      count({ state: { $in: OPEN_JOB }, deadline: { $lte: at } }),
      count({ state: { $in: OPEN_JOB }, dueSoonAt: { $lte: at }, deadline: { $gt: at } }),
    ]);
    return { pending, failed, synced, overdue, dueSoon };
  }

  /** The IBC fleet's figures, as the fleet measures count them (ibc/measures.ts), for the IBCs at or owned within the scope. */
  async ibcFleet(reads: Reads, s: QueryScope, now: Date): Promise<Record<string, number>> {
    const wf = this.reg.workflows.ibc;
    const where = depositFilter(wf?.depositFields[0] ?? 'deposit_id', s, wf?.ownerField);
    const count = (f: Filter) => reads.count('ibc_container', and(where, f));
    const lossDays = this.reg.deployment.settings.ibc.lossAfterDays;
    const today = now.toISOString().slice(0, 10);
    const [fleet, inStock, inTransit, atCustomers, returnRequested, overdue, inQc, pastInspection] = await Promise.all([
      count(NOT_DISPOSED),
      count({ status: { $in: IN_STOCK } }),
      count({ status: 'in_transit' }),
      count({ status: { $in: HOLDING } }),
      count({ status: 'return_requested' }),
      count({ status: { $in: HOLDING }, customerSince: { $lt: new Date(now.getTime() - lossDays * DAY).toISOString() } }),
      count({ status: { $in: BACK } }),
      count({ ...NOT_DISPOSED, nextInspectionDate: { $lt: today } }),
    ]);
    return { fleet, inStock, inTransit, atCustomers, returnRequested, overdue, inQc, pastInspection };
  }

  /** Stock on hand per deposit (key) and unit (series): the ledger's balances above 0, in one `$group`. */
  async stockByDeposit(reads: Reads, s: QueryScope): Promise<Doc[]> {
    const match = and({ quantity: { $gt: 0 } }, depositFilter('deposit', s));
    const docs = await reads.aggregate('stock_balance', [{ $match: match }, { $group: { _id: { k: '$deposit', s: '$unit' }, v: { $sum: '$quantity' } } }]);
    const title = this.reg.entities.units_of_measurement?.titleField ?? 'id';
    const ids = [...new Set(docs.map((d) => String((d._id as Doc | undefined)?.s ?? '')).filter(Boolean))];
    const units = ids.length ? await this.store.find('units_of_measurement', { filter: { id: { $in: ids } }, projection: { [title]: 1 } }) : [];
    const names = new Map(units.map((u) => [u.id, typeof u[title] === 'string' ? (u[title] as string) : u.id]));
    return docs.map((d) => ({ ...d, sl: names.get(String((d._id as Doc | undefined)?.s ?? '')) ?? null }));
  }

  /** IBCs not disposed per deposit they are at (key) and status (series), in one `$group`; a status is labelled by the ibc workflow. */
  async ibcsByDeposit(reads: Reads, s: QueryScope): Promise<Doc[]> {
    const wf = this.reg.workflows.ibc;
    const field = wf?.depositFields[0] ?? 'deposit_id';
    const match = and(NOT_DISPOSED, depositFilter(field, s, wf?.ownerField));
    const docs = await reads.aggregate('ibc_container', [{ $match: match }, { $group: { _id: { k: `$${field}`, s: '$status' }, v: { $sum: 1 } } }]);
    const labels = new Map((wf?.states ?? []).map((st) => [st.id, { ...st.label }]));
    return docs.map((d) => ({ ...d, sl: labels.get(String((d._id as Doc | undefined)?.s ?? '')) ?? null }));
  }
}
