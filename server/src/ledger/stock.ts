import { ApiError } from '../apiError';
import type { Filter, Store, StoredDoc } from '../store/types';
import { BALANCES, balanceId, MOVEMENTS, roundQuantity } from './ledger';

export interface StockQuery {
  material?: string;
  batch?: string;
  deposit?: string;
  /** An ISO date or date-time: the stock then. Absent: now. */
  at?: string;
  page?: number;
  pageSize?: number;
}

export interface StockRow {
  material: string;
  batch: string;
  deposit: string;
  quantity: number;
  unit: string | null;
  elaborationDate: string | null;
  expirationDate: string | null;
  daysToExpire: number | null;
}

const DAY = 86_400_000;

/** The deposits a caller may see: those of the selected warehouse group; absent, all. */
export type DepositScope = ReadonlySet<string> | undefined;

function keyFilter(q: { material?: string; batch?: string; deposit?: string }, scope: DepositScope): Filter {
  const f: Filter = {};
  if (q.material) f.material = q.material;
  if (q.batch) f.batch = q.batch;
  if (q.deposit) f.deposit = !scope || scope.has(q.deposit) ? q.deposit : { $in: [] };
  else if (scope) f.deposit = { $in: [...scope] };
  return f;
}

/**
 * The instant a query's date names, refused (400) when it is none: the query schema checks the
 * shape only, so a month 13 or a 31 February gets here.
 */
export function checkedDate(at: string): { dateOnly: boolean; iso: string } {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(at);
  const t = Date.parse(dateOnly ? `${at}T00:00:00Z` : at);
  if (Number.isNaN(t) || (dateOnly && new Date(t).toISOString().slice(0, 10) !== at)) {
    throw new ApiError('INVALID_REQUEST', { detail: `${at.slice(0, 40)} is not a date` });
  }
  return { dateOnly, iso: new Date(t).toISOString() };
}

/** A date alone means the end of that day (stock "on" a date includes the day's movements). */
export function endOf(at: string): string {
  const d = checkedDate(at);
  return d.dateOnly ? `${at}T23:59:59.999Z` : d.iso;
}

/** Whole days from `from` to the expiry date, negative once expired; null without a date. */
export function daysToExpire(expirationDate: unknown, from: Date): number | null {
  if (typeof expirationDate !== 'string' || !expirationDate) return null;
  const t = Date.parse(expirationDate.length === 10 ? `${expirationDate}T00:00:00Z` : expirationDate);
  if (Number.isNaN(t)) return null;
  const today = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  return Math.floor((t - today) / DAY);
}

/** The lots of the given material and lot number pairs, by `material|number`. */
async function lotsOf(store: Store, rows: readonly { material: string; batch: string }[]): Promise<Map<string, StoredDoc>> {
  if (rows.length === 0) return new Map();
  const numbers = [...new Set(rows.map((r) => r.batch))];
  const materials = [...new Set(rows.map((r) => r.material))];
  const lots = await store.find('lot', { filter: { number: { $in: numbers }, material: { $in: materials } } });
  return new Map(lots.map((l) => [`${l.material}|${l.number}`, l]));
}

function dateText(v: unknown): string | null {
  return typeof v === 'string' && v ? v : null;
}

async function withLots(store: Store, rows: { material: string; batch: string; deposit: string; quantity: number; unit: string | null }[], when: Date): Promise<StockRow[]> {
  const lots = await lotsOf(store, rows);
  return rows.map((r) => {
    const lot = lots.get(`${r.material}|${r.batch}`);
    const expirationDate = dateText(lot?.expirationDate);
    return { ...r, elaborationDate: dateText(lot?.elaborationDate), expirationDate, daysToExpire: daysToExpire(expirationDate, when) };
  });
}

const asRow = (b: StoredDoc) => ({
  material: String(b.material), batch: String(b.batch), deposit: String(b.deposit),
  quantity: Number(b.quantity), unit: typeof b.unit === 'string' ? b.unit : null,
});

/**
 * Stock by material, batch and deposit: now from the balances, on a past date by summing the
 * movements up to it. Rows with nothing left are left out.
 */
export async function stockLevels(store: Store, q: StockQuery, scope?: DepositScope, now = new Date()): Promise<{ data: StockRow[]; total: number }> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  if (q.at === undefined) {
    const filter = { ...keyFilter(q, scope), quantity: { $ne: 0 } };
    const [rows, total] = await Promise.all([
      store.find(BALANCES, { filter, sort: { material: 1, batch: 1, deposit: 1 }, skip: (page - 1) * pageSize, limit: pageSize }),
      store.count(BALANCES, filter),
    ]);
    return { data: await withLots(store, rows.map(asRow), now), total };
  }
  const until = endOf(q.at);
  const one = q.material && q.batch && q.deposit && (!scope || scope.has(q.deposit));
  const match = one ? { key: balanceId({ material: q.material!, batch: q.batch!, deposit: q.deposit! }) } : keyFilter(q, scope);
  const grouped = await store.aggregate(MOVEMENTS, [
    { $match: { ...match, at: { $lte: until } } },
    { $group: { _id: { material: '$material', batch: '$batch', deposit: '$deposit' }, quantity: { $sum: '$quantity' }, unit: { $max: '$unit' } } },
  ]);
  const all = grouped
    .map((g) => {
      const k = g._id as { material: string; batch: string; deposit: string };
      return { material: k.material, batch: k.batch, deposit: k.deposit, quantity: roundQuantity(Number(g.quantity)), unit: typeof g.unit === 'string' ? g.unit : null };
    })
    .filter((r) => r.quantity !== 0)
    .sort((a, b) => (a.material < b.material ? -1 : a.material > b.material ? 1 : a.batch < b.batch ? -1 : a.batch > b.batch ? 1 : a.deposit < b.deposit ? -1 : a.deposit > b.deposit ? 1 : 0));
  const rows = all.slice((page - 1) * pageSize, page * pageSize);
  return { data: await withLots(store, rows, new Date(until)), total: all.length };
}

/** The batches of a material with stock (at a deposit, or anywhere), the first to expire first (FEFO); no expiry date last. */
export async function fefoBatches(store: Store, q: { material: string; deposit?: string }, scope?: DepositScope, now = new Date()): Promise<StockRow[]> {
  const balances = await store.find(BALANCES, { filter: { ...keyFilter(q, scope), quantity: { $gt: 0 } } });
  const rows = await withLots(store, balances.map(asRow), now);
  const rank = (r: StockRow) => r.expirationDate ?? '\uffff';
  return rows.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : a.batch < b.batch ? -1 : a.batch > b.batch ? 1 : a.deposit < b.deposit ? -1 : 1));
}

/** The ledger's rows, newest first. */
export async function movementRows(store: Store, q: { material?: string; batch?: string; deposit?: string; page?: number; pageSize?: number }, scope?: DepositScope): Promise<{ data: StoredDoc[]; total: number }> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 50;
  const filter = keyFilter(q, scope);
  const [data, total] = await Promise.all([
    store.find(MOVEMENTS, { filter, sort: { at: -1 }, skip: (page - 1) * pageSize, limit: pageSize }),
    store.count(MOVEMENTS, filter),
  ]);
  return { data, total };
}
