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
export function queryString(params: Record<string, string | number | string[] | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The list call's query string; the first page is the default and is not sent. */
export function operationParams(q: OperationQuery): string {
  return queryString({
    state: q.state, from: q.from, to: q.to, deposit: q.deposit, depositField: q.depositField,
    q: (q.q?.trim().length ?? 0) >= MIN_SEARCH_CHARS ? q.q!.trim() : undefined, sync: q.sync, page: q.page && q.page > 1 ? q.page : undefined, pageSize: q.pageSize, sort: q.sort,
  });
}

const base = (wf: string) => `/api/v3/operations/${encodeURIComponent(wf)}`;
const one = (wf: string, id: string) => `${base(wf)}/${encodeURIComponent(id)}`;

/** Operation and stock calls of the guest screens; nothing is cached (stock and states change under the user). */
export function operationsApi(api: ApiClient) {
  const fresh = { noCache: true } as const;
  return {
    list: (wf: string, q: OperationQuery) => api.get<OperationPage>(`${base(wf)}${operationParams(q)}`, fresh),
    get: (wf: string, id: string) => api.get<OperationAnswer>(one(wf, id), fresh),
    create: (wf: string, value: Rec) => api.post<Rec>(base(wf), value),
    update: (wf: string, id: string, value: Rec) => api.put<Rec>(one(wf, id), value),
    transition: (wf: string, id: string, transition: string, body: { comment?: string; fields?: Rec }) =>
      api.post<{ record: Rec }>(`${one(wf, id)}/transitions/${encodeURIComponent(transition)}`, body),
    stock: (q: { material?: string; batch?: string; deposit?: string; at?: string }) =>
      api.get<{ data: StockRow[]; total: number }>(`/api/v3/stock${queryString(q)}`, fresh),
    batches: (q: { material: string; deposit?: string }) =>
      api.get<{ data: StockRow[]; total?: number }>(`/api/v3/stock/batches${queryString(q)}`, fresh),
  };
}

export type OperationsApi = ReturnType<typeof operationsApi>;
