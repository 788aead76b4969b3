import { MIN_SEARCH_CHARS, type ListAnswer, type ListQuery } from '../../../engine/src/contract';
import type { ApiClient } from '../api/client';
import { errorFromResponse } from '../api/errors';

export type Rec = Record<string, unknown>;

export type { ListAnswer, ListQuery };
export { MIN_SEARCH_CHARS };

/** The query string of a list call; a search shorter than the server's minimum is not sent. */
export function listParams(query: ListQuery & { columns?: string[] }): string {
  const p = new URLSearchParams();
  const q = query.q?.trim();
  if (q && q.length >= MIN_SEARCH_CHARS) p.set('q', q);
  if (query.page && query.page > 1) p.set('page', String(query.page));
  if (query.pageSize) p.set('pageSize', String(query.pageSize));
  if (query.sort) p.set('sort', query.sort);
  if (query.state) p.set('state', String(query.state));
  if (query.titles) p.set('titles', 'true');
  if (query.columns?.length) p.set('columns', query.columns.join(','));
  const s = p.toString();
  return s ? `?${s}` : '';
}

const base = (entity: string) => `/api/v3/masterdata/${encodeURIComponent(entity)}`;

/** Master-data calls of the generated screens; lists are never cached (they change under the user). */
export function masterDataApi(api: ApiClient) {
  async function raw(method: string, path: string, body?: BodyInit, contentType?: string): Promise<Response> {
    const headers = api.headers(false);
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(path, { method, headers, body });
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }
  return {
    list: (entity: string, query: ListQuery) => api.get<ListAnswer>(`${base(entity)}${listParams(query)}`, { noCache: true }),
    get: (entity: string, id: string) => api.get<Rec>(`${base(entity)}/${encodeURIComponent(id)}`, { noCache: true }),
    create: (entity: string, value: Rec) => api.post<Rec>(base(entity), value),
    update: (entity: string, id: string, value: Rec) => api.put<Rec>(`${base(entity)}/${encodeURIComponent(id)}`, value),
    /** DELETE disables (state 3); the client has no DELETE verb, so this goes through fetch with its headers. */
    disable: async (entity: string, id: string) => (await raw('DELETE', `${base(entity)}/${encodeURIComponent(id)}`)).json() as Promise<Rec>,
    enable: async (entity: string, id: string) => {
      const rec = await api.get<Rec>(`${base(entity)}/${encodeURIComponent(id)}`, { noCache: true });
      return api.put<Rec>(`${base(entity)}/${encodeURIComponent(id)}`, { ...rec, state: 1 });
    },
    exportCsv: async (entity: string, query: ListQuery & { columns?: string[] }) =>
      (await raw('GET', `${base(entity)}/export.csv${listParams({ ...query, page: undefined, pageSize: undefined })}`)).blob(),
    upload: async (file: File, target: { entity: string; field: string }) => {
      const form = new FormData();
      form.set('entity', target.entity);
      form.set('field', target.field);
      form.set('file', file, file.name);
      return (await raw('POST', '/api/files', form)).json() as Promise<{ id: string; name: string; size: number; contentType: string }>;
    },
    /** An administrator's invitation (after creating a user) or password reset link (docs/identity.md). */
    sendLink: (email: string, purpose: 'invite' | 'reset') => api.post<unknown>('/api/auth/send-link', { email, purpose }),
  };
}

export type MasterDataApi = ReturnType<typeof masterDataApi>;
