/**
 * The mobile app's HTTP calls: the product's sign-in (POST /api/auth/sign-in, a bearer token),
 * the mobile API (/api/v3/mobile/…), and the existing read routes a feature screen needs
 * (operations lists and records, the IBC look-up, stock, master data for pickers). Every call
 * sends the token, `platform: mobile`, the selected warehouse group and the language.
 * Errors are the web app's ApiRequestError (status 0: the network failed).
 */
import { ApiRequestError, errorFromResponse } from '../../src/api/errors';
import type { ActionPayload, ActionResult, MobileApp, MobileRecord } from './types';

export { ApiRequestError };

export interface SignedIn {
  token: string;
  expiresAt?: string;
  user: { id?: string; email?: string; name?: string; language?: string } | null;
}

export interface ApiOptions {
  token: () => string | null;
  group: () => string | null;
  lang: () => string;
  fetchFn?: typeof fetch;
  /** Told about every network failure and success, for the online indicator. */
  onNetwork?: (reachable: boolean) => void;
}

interface Paged<T> {
  data: T[];
  total?: number;
}

export const MAX_LIST = 200;

export class MobileApi {
  constructor(private readonly o: ApiOptions) {}

  async request<T>(method: string, path: string, body?: unknown, group = this.o.group()): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', platform: 'mobile', 'accept-language': this.o.lang() };
    const token = this.o.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (group) headers['x-warehouse-group'] = encodeURIComponent(group);
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await (this.o.fetchFn ?? fetch)(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      this.o.onNetwork?.(false);
      throw new ApiRequestError(0, 'NETWORK', (e as Error).message || 'Network error');
    }
    this.o.onNetwork?.(true);
    if (!res.ok) throw await errorFromResponse(res);
    const text = res.status === 204 ? '' : await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  signIn(email: string, password: string): Promise<SignedIn> {
    return this.request('POST', '/api/auth/sign-in', { email, password });
  }

  signOut(): Promise<void> {
    return this.request('POST', '/api/auth/sign-out');
  }

  app(): Promise<MobileApp> {
    return this.request('GET', '/api/v3/mobile/app');
  }

  acceptTerms(version: number): Promise<void> {
    return this.request('POST', '/api/v3/mobile/terms', { version });
  }

  async sendActions(deviceId: string, actions: ActionPayload[], group: string | null): Promise<ActionResult[]> {
    return (await this.request<{ results: ActionResult[] }>('POST', '/api/v3/mobile/actions', { deviceId, actions }, group)).results;
  }

  async verdicts(deviceId: string, after: number): Promise<ActionResult[]> {
    const q = new URLSearchParams({ deviceId, after: String(after) });
    return (await this.request<{ results: ActionResult[] }>('GET', `/api/v3/mobile/actions?${q}`)).results ?? [];
  }

  /** The records of a workflow in the given states (the first 200, newest first). */
  async list(workflow: string, states: string[]): Promise<MobileRecord[]> {
    const q = new URLSearchParams({ pageSize: String(MAX_LIST) });
    if (states.length) q.set('state', states.join(','));
    return (await this.request<Paged<MobileRecord>>('GET', `/api/v3/operations/${encodeURIComponent(workflow)}?${q}`)).data;
  }

  record(workflow: string, id: string): Promise<MobileRecord> {
    return this.request('GET', `/api/v3/operations/${encodeURIComponent(workflow)}/${encodeURIComponent(id)}`);
  }

  lookupIbc(by: { serial: string } | { nfc: string }): Promise<MobileRecord> {
    return this.request('GET', `/api/v3/ibc/lookup?${new URLSearchParams(by)}`);
  }

  async stock(): Promise<MobileRecord[]> {
    return (await this.request<Paged<MobileRecord>>('GET', `/api/v3/stock?pageSize=${MAX_LIST}`)).data;
  }

  /** Active records of a master-data entity, for a picker (searched when `q` is given). */
  async masterdata(entity: string, q?: string): Promise<MobileRecord[]> {
    const params = new URLSearchParams({ pageSize: String(MAX_LIST), state: '1' });
    if (q) params.set('q', q);
    return (await this.request<Paged<MobileRecord>>('GET', `/api/v3/masterdata/${encodeURIComponent(entity)}?${params}`)).data;
  }

  async groups(): Promise<string[]> {
    const answer = await this.request<{ data: { wareHouses: { name?: string; groupName?: string }[] } }>('GET', '/api/customer/groups');
    return (answer.data?.wareHouses ?? []).map((g) => g.name ?? g.groupName ?? '').filter(Boolean);
  }
}
