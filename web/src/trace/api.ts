import type { ApiClient } from '../api/client';
import { importsApi } from '../imports/api';
import { queryOf, type LotHistory, type SearchHit, type TraceAnswer, type TraceParams, type TraceRow } from './model';

/** The trace routes (docs/trace.md): never cached, since a trace changes with every operation. */
export function traceApi(api: ApiClient) {
  const fresh = { noCache: true } as const;
  const downloads = importsApi(api);
  return {
    trace: (p: TraceParams) => api.get<TraceAnswer>(`/api/v3/trace?${queryOf(p)}`, fresh),
    /** The events of a trace (`p`), or every event (`null`), a page at a time. */
    events: (p: TraceParams | null, page: number, pageSize: number, sort?: string) =>
      api.get<{ data: TraceRow[]; total: number; page: number; pageSize: number; boundary?: TraceAnswer['boundary'] }>(
        `/api/v3/trace/events?${p ? queryOf(p, { page, pageSize, sort }) : new URLSearchParams(Object.entries({ page, pageSize, ...(sort ? { sort } : {}) }).map(([k, v]) => [k, String(v)])).toString()}`, fresh),
    search: (q: string) => api.get<{ data: SearchHit[] }>(`/api/v3/trace/search?q=${encodeURIComponent(q)}`, fresh).then((a) => a.data),
    history: (lot: string, material?: string) => api.get<LotHistory>(`/api/v3/trace/history?${new URLSearchParams({ lot, ...(material ? { material } : {}) })}`, fresh),
    /** Saves an export under the name the server gives (the session goes as a header, never in the address). */
    download: (kind: 'csv' | 'epcis', p: TraceParams, sort?: string) =>
      downloads.download(`/api/v3/trace/${kind}?${queryOf(p, kind === 'csv' ? { sort } : {})}`, kind === 'csv' ? 'trace.csv' : 'trace.jsonld'),
  };
}

export type TraceApi = ReturnType<typeof traceApi>;
