import type { ApiClient } from '../api/client';
import { errorFromResponse } from '../api/errors';
import type { ImportJob } from './logic';

export interface JobList { data: ImportJob[]; total: number; page: number; pageSize: number }

/** The import API (docs/imports.md) through the shell's client: its token and warehouse headers. */
export function importsApi(api: ApiClient) {
  async function call(method: string, path: string, body?: BodyInit): Promise<Response> {
    const res = await fetch(path, { method, headers: api.headers(false), body });
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }
  return {
    start: async (file: File, o: { entity: string; dryRun: boolean; mode: string }) => {
      const form = new FormData();
      form.set('entity', o.entity);
      form.set('dryRun', String(o.dryRun));
      form.set('mode', o.mode);
      form.set('file', file, file.name);
      return (await call('POST', '/api/imports', form)).json() as Promise<ImportJob>;
    },
    job: (id: string, page = 1) => api.get<ImportJob>(`/api/imports/${encodeURIComponent(id)}?page=${page}&pageSize=50`, { noCache: true }),
    list: (page: number) => api.get<JobList>(`/api/imports?page=${page}&pageSize=20`, { noCache: true }),
    /** Saves a file the API serves (a template, an error file) under the given name. */
    download: async (path: string, name: string) => {
      const url = URL.createObjectURL(await (await call('GET', path)).blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
}

export type ImportsApi = ReturnType<typeof importsApi>;
