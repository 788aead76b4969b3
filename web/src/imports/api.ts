import type { ApiClient } from '../api/client';
import { ApiRequestError, errorFromResponse } from '../api/errors';
import { attachmentName, ERRORS_PAGE_SIZE, LOGS_PAGE_SIZE, uploadForm, type ImportJob, type ImportMode, type JobPage } from './logic';

/**
 * The import API (docs/imports.md) with the shell client's headers (token, warehouse group).
 * Calls go straight to fetch, not through the client, so polling a job every second neither
 * caches answers nor blinks the shell's busy bar.
 */
export function importsApi(api: ApiClient) {
  async function call(path: string): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(path, { headers: api.headers(false) });
    } catch (e) {
      throw new ApiRequestError(0, 'NETWORK', (e as Error).message || 'Network error');
    }
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }
  const json = async <T>(path: string): Promise<T> => (await call(path)).json() as Promise<T>;

  return {
    /** Uploads the file and starts the job (202); `onUpload` hears the share of the file sent, 0 to 1. */
    start(file: File, o: { entity: string; dryRun: boolean; mode: ImportMode }, onUpload?: (share: number) => void): Promise<ImportJob> {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/imports');
        for (const [k, v] of Object.entries(api.headers(false))) xhr.setRequestHeader(k, v);
        xhr.upload.onprogress = (e) => { if (e.lengthComputable && e.total > 0) onUpload?.(e.loaded / e.total); };
        xhr.onload = () => {
          const res = new Response(xhr.responseText || null, { status: xhr.status, statusText: xhr.statusText, headers: { 'content-type': 'application/json' } });
          if (res.ok) res.json().then(resolve, reject);
          else errorFromResponse(res).then(reject, reject);
        };
        xhr.onerror = () => reject(new ApiRequestError(0, 'NETWORK', 'Network error'));
        xhr.send(uploadForm(file, file.name, o));
      });
    },
    job: (id: string, page = 1) => json<ImportJob>(`/api/imports/${encodeURIComponent(id)}?page=${page}&pageSize=${ERRORS_PAGE_SIZE}`),
    list: (page: number) => json<JobPage>(`/api/imports?page=${page}&pageSize=${LOGS_PAGE_SIZE}`),
    /** Saves a file the API serves (a template, an error file) under the name the server gives. */
    async download(path: string, fallbackName: string): Promise<void> {
      const res = await call(path);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = attachmentName(res.headers.get('content-disposition'), fallbackName);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
}

export type ImportsApi = ReturnType<typeof importsApi>;
