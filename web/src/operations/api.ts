import type { ApiClient } from '../api/client';
import { MIN_SEARCH_CHARS, type Rec } from '../masterdata/api';
import type { LocalText } from '../../../engine/src/index';

/** The Senasa Sync states a list filters on: pending is an empty or absent status. */
export type SyncFilter = 'pending' | 'synced' | 'failed';

/** The list call of an operation (CONTRACT15: GET /api/v3/operations/:wf). */
export interface OperationQuery {
  state?: string[];
  /** ISO dates (YYYY-MM-DD), both ends included. */
  from?: string;
  to?: string;
  deposit?: string;
  depositField?: string;
  q?: string;
  sync?: SyncFilter;
  /** The IBC fleet's list filters (served by IBC_LIST_PATH): customer id, fill count and age in whole years, both ends included. */
  customer?: string;
  usesMin?: number;
  usesMax?: number;
  ageMin?: number;
  ageMax?: number;
  page?: number;
  pageSize?: number;
  sort?: string;
}

export interface OperationPage {
  data: Rec[];
  total: number;
  page: number;
  pageSize: number;
}

/** A transition this user may take now, as the record's read answers it. */
export interface AllowedTransition {
  id: string;
  label: LocalText;
  to: string;
  requires?: string[];
  input?: string[];
  comment?: 'none' | 'optional' | 'required';
}

export interface OperationAnswer {
  record: Rec;
  transitions: AllowedTransition[];
}

export interface StockRow {
  material: string;
  batch: string;
  deposit: string;
  quantity: number;
  unit?: string | null;
  elaborationDate?: string | null;
  expirationDate?: string | null;
  daysToExpire?: number | null;
}

/** The query string of a call: empty values are left out, lists are comma-joined. */
export function queryString(params: Record<string, string | number | string[] | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The list call's query string; the first page is the default and is not sent. */
export function operationParams(q: OperationQuery): string {
  return queryString({
    state: q.state, from: q.from, to: q.to, deposit: q.deposit, depositField: q.depositField,
    q: (q.q?.trim().length ?? 0) >= MIN_SEARCH_CHARS ? q.q!.trim() : undefined, sync: q.sync,
    customer: q.customer, usesMin: q.usesMin, usesMax: q.usesMax, ageMin: q.ageMin, ageMax: q.ageMax,
    page: q.page && q.page > 1 ? q.page : undefined, pageSize: q.pageSize, sort: q.sort,
  });
}

const base = (wf: string) => `/api/v3/operations/${encodeURIComponent(wf)}`;
const one = (wf: string, id: string) => `${base(wf)}/${encodeURIComponent(id)}`;

/** The IBC fleet's list (GET /api/v3/ibc): the ibc workflow's records with the fleet filters (customer, fill count, age). */
export const IBC_LIST_PATH = '/api/v3/ibc';

/**
 * Where a feature's list is read: the fleet's own route where the feature shows the IBC fleet
 * (`measures: "ibc"`), which serves its filters; the workflow's generic list otherwise.
 */
export function listPathOf(workflow: string, measures: 'ibc' | null): string {
  return measures === 'ibc' ? IBC_LIST_PATH : base(workflow);
}

/** Operation and stock calls of the guest screens; nothing is cached (stock and states change under the user). */
export function operationsApi(api: ApiClient) {
  const fresh = { noCache: true } as const;
  return {
    /** A list route (listPathOf) with the query. */
    list: (path: string, q: OperationQuery) => api.get<OperationPage>(`${path}${operationParams(q)}`, fresh),
    get: (wf: string, id: string) => api.get<OperationAnswer>(one(wf, id), fresh),
    create: (wf: string, value: Rec) => api.post<Rec>(base(wf), value),
    update: (wf: string, id: string, value: Rec) => api.put<Rec>(one(wf, id), value),
    transition: (wf: string, id: string, transition: string, body: { comment?: string; fields?: Rec }) =>
      api.post<{ record: Rec }>(`${one(wf, id)}/transitions/${encodeURIComponent(transition)}`, body),
    /** syncToSenasa: a refused record goes back to pending and the outbox sends it again. */
    resync: (wf: string, id: string) => api.post<{ record: Rec }>(`/api/v3/sync/${encodeURIComponent(wf)}/${encodeURIComponent(id)}/resync`, {}),
    stock: (q: { material?: string; batch?: string; deposit?: string; at?: string }) =>
      api.get<{ data: StockRow[]; total: number }>(`/api/v3/stock${queryString(q)}`, fresh),
    batches: (q: { material: string; deposit?: string }) =>
      api.get<{ data: StockRow[]; total?: number }>(`/api/v3/stock/batches${queryString(q)}`, fresh),
  };
}

/** One customer's IBC holdings (GET /api/v3/ibc/holdings). */
export interface Holding {
  customer: string;
  customerName: string;
  totalIbcTaken: number;
  totalIbcReturned: number;
  ibcToReturn: number;
  /** Days, or null when none came back yet. */
  avgReturnTime: number | null;
}

/** The fleet measures (GET /api/v3/ibc/measures); days with one decimal, null when nothing to measure. */
export interface FleetMeasures {
  fleetSize: number;
  byStatus: Record<string, number>;
  cycleTimeDays: number | null;
  dwellAtCustomerDays: number | null;
  turnsPerYear: number | null;
  fillCountDistribution: { uses: number; count: number }[];
  lossRate: number | null;
  lost: number;
  lossAfterDays: number;
  dueForInspection: number;
  pastInspection: number;
  pastEndOfLife: number;
}

/**
 * One row of an IBC's event log (ibc_event, as GET /api/v3/ibc/:id/events serves it, newest
 * first): references are ids (deposit, customer, by), named by the screen.
 */
export interface IbcEvent {
  id?: string;
  record: string;
  serial?: string;
  transition: string;
  from?: string | null;
  to?: string | null;
  at: string;
  since?: string | null;
  by?: string | null;
  deposit?: string | null;
  customer?: string | null;
  customerSince?: string | null;
  uses?: number | null;
  operation?: { workflow: string; id: string; transition: string } | null;
}

/** The IBC routes (CONTRACT16): holdings and fleet measures, the look-up by serial or NFC tag, an IBC's events. */
export function ibcApi(api: ApiClient) {
  const fresh = { noCache: true } as const;
  return {
    holdings: () => api.get<{ data: Holding[] }>('/api/v3/ibc/holdings', fresh),
    measures: () => api.get<FleetMeasures>('/api/v3/ibc/measures', fresh),
    lookup: (by: { serial: string } | { nfc: string }) => api.get<Rec>(`/api/v3/ibc/lookup${queryString(by)}`, fresh),
    events: (id: string) => api.get<{ data: IbcEvent[] }>(`/api/v3/ibc/${encodeURIComponent(id)}/events`, fresh),
  };
}

export type IbcApi = ReturnType<typeof ibcApi>;

export type OperationsApi = ReturnType<typeof operationsApi>;
