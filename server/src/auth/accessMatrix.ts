import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { WAREHOUSE_HEADER } from '../plugins/access';
import type { Store, StoredDoc } from '../store/types';

/**
 * The access matrix (issue 4): every registered route called anonymous, signed in without its
 * key, with its key, as superadmin and warehouse-scoped. Lives beside the test that runs it so
 * a second test can prove it catches a route that declares no access.
 */

export interface RouteRef {
  method: string;
  url: string;
}

/**
 * Every route of a ready app, read from Fastify's own route tree (printRoutes), hidden ones
 * included: nothing a plugin registers can escape the walk.
 */
export function collectRoutes(app: FastifyInstance): RouteRef[] {
  const out: RouteRef[] = [];
  const path: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    path.length = m[1].length / 4;
    path.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) out.push({ method, url: path.join('') });
  }
  return out;
}

/** Routes meant to answer without sign-in; anything else answering an anonymous caller is a finding. */
export const PUBLIC_ROUTES: readonly RegExp[] = [
  /^\/api\/health$/,
  /^\/api\/openapi\.json$/,
  /^\/api\/docs(\/.*)?$/,
  /^\/api\/config\/public$/,
  /^\/api\/auth\/(sign-in|request-password-reset|reset-password)$/,
  /^\/api\/auth\/provider\/:id\/(start|callback)$/,
  /^\/api\/auth\/provider\/saml\/(callback|metadata)$/,
  /^\/api\/public\//,
  // The web app's pages and assets (served by the same server in production).
  /^\/(?!api\/)/,
];

const PARAMS: Record<string, string> = { entity: 'material', id: 'matrix-id' };

function concrete(url: string): string {
  return url.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? 'matrix').replace(/\*$/, 'matrix');
}

export interface MatrixSubjects {
  /** Headers of a fresh signed-in user holding `access` (and `extra` fields); fresh each call, as sign-out revokes. */
  user(access: string[], extra?: Record<string, unknown>): Promise<Record<string, string>>;
}

export interface MatrixRow extends RouteRef {
  anonymous: number;
  withoutKey: number;
  key: string | null | 'public';
  withKey?: number;
  superadmin?: number;
  warehouseScoped?: number;
  /** Customer-module keys: the selected group's pool holds the key. */
  warehouseAllowed?: number;
}

const denied = (s: number) => s === 401 || s === 403;
const FORBIDDEN = /^You do not have the (.+) access this needs$/;

/** Walks the routes and returns the rows and what is wrong with them (empty: the matrix holds). */
export async function walkAccessMatrix(app: FastifyInstance, registry: Registry, store: Store, subjects: MatrixSubjects): Promise<{ rows: MatrixRow[]; problems: string[] }> {
  const customerKeys = new Set(registry.access.keys.filter((k) => k.customerModule).map((k) => k.key));
  const run = randomBytes(4).toString('hex');
  const hub = await store.insert('group', { name: `Matrix Hub ${run}`, access: ['matrix-only-key'], warehouses: [], state: 1 });
  const hubs = new Map<string, Promise<StoredDoc>>();
  const openHub = (key: string) => {
    if (!hubs.has(key)) hubs.set(key, store.insert('group', { name: `Matrix Hub ${run} with ${key}`, access: [key], warehouses: [], state: 1 }));
    return hubs.get(key)!;
  };
  const rows: MatrixRow[] = [];
  const problems: string[] = [];
  for (const route of collectRoutes(app)) {
    const where = `${route.method} ${route.url}`;
    const call = async (headers: Record<string, string> = {}) => {
      const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
      const r = await app.inject({ method: route.method as 'GET', url: concrete(route.url), headers, ...(withBody ? { payload: {} } : {}) });
      return { status: r.statusCode, message: r.headers['content-type']?.toString().startsWith('application/json') && r.body ? (JSON.parse(r.body).error?.message as string | undefined) : undefined };
    };
    const anonymous = await call();
    if (!denied(anonymous.status)) {
      if (!PUBLIC_ROUTES.some((p) => p.test(route.url))) problems.push(`${where}: answers ${anonymous.status} without sign-in but is not meant to be public`);
      rows.push({ ...route, anonymous: anonymous.status, withoutKey: anonymous.status, key: 'public' });
      continue;
    }
    if (anonymous.status !== 401) problems.push(`${where}: anonymous got ${anonymous.status}, expected 401`);
    const withoutKey = await call(await subjects.user([]));
    const row: MatrixRow = { ...route, anonymous: anonymous.status, withoutKey: withoutKey.status, key: null };
    rows.push(row);
    if (withoutKey.status === 401) { problems.push(`${where}: a signed-in user got 401`); continue; }
    if (withoutKey.status !== 403) continue; // access null: any signed-in user
    // A HEAD answer has no body to name the key: it is the key of the GET it mirrors.
    const key = route.method === 'HEAD' && withoutKey.message === undefined
      ? rows.find((r) => r.method === 'GET' && r.url === route.url)?.key ?? undefined
      : FORBIDDEN.exec(withoutKey.message ?? '')?.[1];
    if (!key || key === 'public' || key === '(undeclared)') { problems.push(`${where}: declares neither public nor an access key`); continue; }
    row.key = key;
    row.withKey = (await call(await subjects.user([key]))).status;
    row.superadmin = (await call(await subjects.user([registry.access.superadmin]))).status;
    row.warehouseScoped = (await call({ ...(await subjects.user([key], { groups: [hub.id] })), [WAREHOUSE_HEADER]: String(hub.name) })).status;
    if (denied(row.withKey)) problems.push(`${where}: holding "${key}" got ${row.withKey}`);
    if (denied(row.superadmin)) problems.push(`${where}: superadmin got ${row.superadmin}`);
    const narrowed = row.warehouseScoped === 403;
    if (customerKeys.has(key)) {
      const open = await openHub(key);
      row.warehouseAllowed = (await call({ ...(await subjects.user([key], { groups: [open.id] })), [WAREHOUSE_HEADER]: String(open.name) })).status;
      if (denied(row.warehouseAllowed)) problems.push(`${where}: the selected warehouse group holds "${key}" yet got ${row.warehouseAllowed}`);
    }
    if (customerKeys.has(key) && !narrowed) problems.push(`${where}: "${key}" is a customer-module key but the selected warehouse group does not narrow it (${row.warehouseScoped})`);
    if (!customerKeys.has(key) && denied(row.warehouseScoped)) problems.push(`${where}: a selected warehouse group refused "${key}", which is not a customer-module key (${row.warehouseScoped})`);
  }
  return { rows, problems };
}
