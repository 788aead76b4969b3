import type { ApiClient } from '../api/client';
import { ApiRequestError, errorFromResponse } from '../api/errors';
import type { ExportJob } from './exportJob';
import type { FilterParams, SavedFilter } from './filters';

/** One page of a report: the rows under the report's response field (deliveryData, importData…). */
export interface RowsAnswer {
  rows: Record<string, unknown>[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** A scheduled export (CONTRACT17 §4): hour and weekday in UTC. */
export interface Schedule {
  id: string;
  frequency: 'daily' | 'weekly';
  weekday?: number;
  hour: number;
  filters: FilterParams;
  sort?: string;
  email?: string;
  nextRunAt?: string;
  lastRunAt?: string | null;
}

export type ScheduleBody = Pick<Schedule, 'frequency' | 'weekday' | 'hour' | 'filters' | 'sort'>;

const base = (key: string) => `/api/v3/reports/${encodeURIComponent(key)}`;
const exportPath = (id: string) => `/api/v3/reports/exports/${encodeURIComponent(id)}`;

function query(params: FilterParams, extra: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams(params);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * The report routes of CONTRACT17 §4. Polls and deletes go straight to fetch with the
 * client's headers (the client has no DELETE, and polling must not blink the shell's busy bar).
 */
export function reportsApi(api: ApiClient) {
  async function call<T>(method: 'GET' | 'DELETE', path: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(path, { method, headers: api.headers(false) });
    } catch (e) {
      throw new ApiRequestError(0, 'NETWORK', (e as Error).message || 'Network error');
    }
    if (!res.ok) throw await errorFromResponse(res);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }
  const fresh = { noCache: true } as const;
  return {
    rows: async (def: { key: string; source: { responseField: string } }, params: FilterParams, page: number, pageSize: number, sort?: string): Promise<RowsAnswer> => {
      const a = await api.get<Record<string, unknown>>(`${base(def.key)}/rows${query(params, { page, pageSize, sort })}`, fresh);
      const rows = a[def.source.responseField];
      return { rows: Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [], page: Number(a.page) || page, pageSize: Number(a.pageSize) || pageSize, hasMore: a.hasMore === true };
    },
    count: (key: string, params: FilterParams) => api.get<{ total: number }>(`${base(key)}/count${query(params, {})}`, fresh),
    startExport: (key: string, filters: FilterParams, sort?: string) => api.post<ExportJob>(`${base(key)}/exports`, { filters, ...(sort ? { sort } : {}) }),
    exportJob: (id: string) => call<ExportJob>('GET', exportPath(id)),
    downloadPath: (id: string) => `${exportPath(id)}/download`,
    /**
     * Downloads the finished file as the browser's own download, streamed to disk whatever its
     * size: the server gives a link good once for a minute (the session goes as a header, never
     * in an address), and the browser follows it at once.
     */
    download: async (id: string): Promise<void> => {
      const { url } = await api.post<{ url: string }>(`${exportPath(id)}/link`, {});
      const a = document.createElement('a');
      a.href = url;
      a.rel = 'noopener';
      document.body.append(a);
      a.click();
      a.remove();
    },
    savedFilters: (key: string) => api.get<{ data: SavedFilter[] } | SavedFilter[]>(`${base(key)}/saved-filters`, fresh).then(listOf),
    saveFilter: (key: string, body: { name: string; filters: FilterParams; sort?: string }) => api.post<SavedFilter>(`${base(key)}/saved-filters`, body),
    deleteFilter: (key: string, id: string) => call<unknown>('DELETE', `${base(key)}/saved-filters/${encodeURIComponent(id)}`),
    schedules: (key: string) => api.get<{ data: Schedule[] } | Schedule[]>(`${base(key)}/schedules`, fresh).then(listOf),
    schedule: (key: string, body: ScheduleBody) => api.post<Schedule>(`${base(key)}/schedules`, body),
    deleteSchedule: (key: string, id: string) => call<unknown>('DELETE', `${base(key)}/schedules/${encodeURIComponent(id)}`),
  };
}

/** A list answer, `{data: […]}` or a bare array (the contract names the items, not the envelope). */
function listOf<T>(a: { data: T[] } | T[]): T[] {
  return Array.isArray(a) ? a : a.data ?? [];
}

export type ReportsApi = ReturnType<typeof reportsApi>;
