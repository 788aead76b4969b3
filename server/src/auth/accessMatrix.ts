import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_ENTITY_ACCESS, type Registry } from '../../../engine/src/index';
import { WAREHOUSE_HEADER } from '../plugins/access';
import type { Store, StoredDoc } from '../store/types';
import { RESET_COLLECTION } from './resetTokens';
import { principalFor } from './sessions';

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
  /^\/api\/(health|ready)$/,
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
  /** The keys of which any lets a caller through (one for most routes). */
  keys?: string[];
  withKey?: number;
  superadmin?: number;
  warehouseScoped?: number;
  /** Customer-module keys: the selected group's pool holds the key. */
  warehouseAllowed?: number;
}

const denied = (s: number) => s === 401 || s === 403;
const FORBIDDEN = /^You do not have the (.+) access this needs$/;
const FORBIDDEN_ANY = /^You need one of these accesses: (.+)$/;

/** The keys a 403 names: one, or the list of which any would do. */
function keysNamed(message: string | undefined): string[] | undefined {
  const one = FORBIDDEN.exec(message ?? '')?.[1];
  if (one) return [one];
  return FORBIDDEN_ANY.exec(message ?? '')?.[1].split(', ');
}

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
    // A HEAD answer has no body to name the keys: they are the keys of the GET it mirrors.
    const keys = route.method === 'HEAD' && withoutKey.message === undefined
      ? rows.find((r) => r.method === 'GET' && r.url === route.url)?.keys
      : keysNamed(withoutKey.message);
    if (!keys || keys.some((k) => k === 'public' || k === '(undeclared)')) { problems.push(`${where}: declares neither public nor an access key`); continue; }
    row.key = keys.join(', ');
    row.keys = keys;
    row.superadmin = (await call(await subjects.user([registry.access.superadmin]))).status;
    if (denied(row.superadmin)) problems.push(`${where}: superadmin got ${row.superadmin}`);
    // Each key of a route taking any of several lets its holder through on its own, and is narrowed on its own.
    for (const key of keys) {
      const withKey = (await call(await subjects.user([key]))).status;
      const warehouseScoped = (await call({ ...(await subjects.user([key], { groups: [hub.id] })), [WAREHOUSE_HEADER]: String(hub.name) })).status;
      row.withKey ??= withKey;
      row.warehouseScoped ??= warehouseScoped;
      if (denied(withKey)) problems.push(`${where}: holding "${key}" got ${withKey}`);
      const narrowed = warehouseScoped === 403;
      if (customerKeys.has(key)) {
        const open = await openHub(key);
        const allowed = (await call({ ...(await subjects.user([key], { groups: [open.id] })), [WAREHOUSE_HEADER]: String(open.name) })).status;
        row.warehouseAllowed ??= allowed;
        if (denied(allowed)) problems.push(`${where}: the selected warehouse group holds "${key}" yet got ${allowed}`);
      }
      if (customerKeys.has(key) && !narrowed) problems.push(`${where}: "${key}" is a customer-module key but the selected warehouse group does not narrow it (${warehouseScoped})`);
      if (!customerKeys.has(key) && denied(warehouseScoped)) problems.push(`${where}: a selected warehouse group refused "${key}", which is not a customer-module key (${warehouseScoped})`);
    }
  }
  return { rows, problems };
}

/**
 * The escalations a hostile tester tried (issue 13), as requests a key holder sends; `t` holds
 * the records they aim at. Each must be refused, and afterwards nobody the walk made may hold
 * superadmin or have taken over the superadmin's account.
 */
export interface EscalationTargets {
  self: StoredDoc;
  superadmin: StoredDoc;
  /** An enabled group that grants superadmin. */
  superGroup: StoredDoc;
  /** An enabled group the caller belongs to, holding the caller's own keys. */
  ownGroup: StoredDoc;
  /** An e-mail no account has yet. */
  freshEmail: string;
}

export interface Escalation {
  name: string;
  request(t: EscalationTargets): { method: 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> };
}

const body = (doc: StoredDoc, change: Record<string, unknown>) => {
  const { id: _id, createdAt: _c, updatedAt: _u, createdBy: _cb, updatedBy: _ub, password_hash: _p, ...rest } = doc;
  return { ...rest, ...change };
};

export const ESCALATIONS: readonly Escalation[] = [
  { name: 'grant themselves superadmin', request: (t) => ({ method: 'PUT', url: `/api/v3/masterdata/user/${t.self.id}`, payload: body(t.self, { access: [...(t.self.access as string[]), 'superadmin'] }) }) },
  { name: 'join a superadmin group', request: (t) => ({ method: 'PUT', url: `/api/v3/masterdata/user/${t.self.id}`, payload: body(t.self, { groups: [t.superGroup.id] }) }) },
  { name: 'create a superadmin', request: (t) => ({ method: 'POST', url: '/api/v3/masterdata/user', payload: { email: t.freshEmail, display_name: 'Escalated', access: ['superadmin'] } }) },
  { name: 'create a member of a superadmin group', request: (t) => ({ method: 'POST', url: '/api/v3/masterdata/user', payload: { email: t.freshEmail, display_name: 'Escalated', groups: [t.superGroup.id] } }) },
  { name: 'take over the superadmin\'s e-mail', request: (t) => ({ method: 'PUT', url: `/api/v3/masterdata/user/${t.superadmin.id}`, payload: body(t.superadmin, { email: t.freshEmail }) }) },
  { name: 'mail the superadmin a reset link', request: (t) => ({ method: 'POST', url: '/api/auth/send-link', payload: { email: t.superadmin.email } }) },
  { name: 'disable the superadmin', request: (t) => ({ method: 'DELETE', url: `/api/v3/masterdata/user/${t.superadmin.id}` }) },
  { name: 'put superadmin into their own group', request: (t) => ({ method: 'PUT', url: `/api/v3/masterdata/group/${t.ownGroup.id}`, payload: body(t.ownGroup, { access: [...(t.ownGroup.access as string[]), 'superadmin'] }) }) },
  { name: 'create a superadmin group', request: (t) => ({ method: 'POST', url: '/api/v3/masterdata/group', payload: { name: `Escalated ${t.freshEmail}`, access: ['superadmin'] } }) },
];

export type Subject = (access: string[], extra?: Record<string, unknown>) => Promise<{ id: string; headers: Record<string, string> }>;

/**
 * Every escalation, tried by a holder of each key that manages access (the keys of the user and
 * group entities, apart and together). Returns what went wrong (empty: none got through).
 */
export async function walkEscalations(app: FastifyInstance, registry: Registry, store: Store, subject: Subject, escalations: readonly Escalation[] = ESCALATIONS): Promise<{ problems: string[]; tried: number }> {
  const sa = registry.access.superadmin;
  const managers = [...new Set(['user', 'group'].map((e) => registry.entities[e]?.access ?? DEFAULT_ENTITY_ACCESS))];
  const run = randomBytes(4).toString('hex');
  const superadmin = await subject([sa]);
  const superRecord = (await store.get('user', superadmin.id))!;
  const superGroup = await store.insert('group', { name: `Escalation supers ${run}`, access: [sa], warehouses: [], state: 1 });
  const problems: string[] = [];
  const made: string[] = [];
  let tried = 0;
  for (const keys of [...managers.map((k) => [k]), managers]) {
    const who = `holder of ${keys.join(' + ')}`;
    const ownGroup = await store.insert('group', { name: `Escalation ${run} ${keys.join(' ')}`, access: keys, warehouses: [], state: 1 });
    const caller = await subject([], { groups: [ownGroup.id] });
    made.push(caller.id);
    for (const [i, e] of escalations.entries()) {
      const targets: EscalationTargets = {
        self: (await store.get('user', caller.id))!, superadmin: (await store.get('user', superadmin.id))!, superGroup, ownGroup: (await store.get('group', ownGroup.id))!,
        freshEmail: `escalation-${run}-${made.length}-${i}@example.com`,
      };
      const r = await app.inject({ ...e.request(targets), headers: caller.headers });
      tried++;
      if (r.statusCode < 400 || r.statusCode >= 500) problems.push(`${who}: "${e.name}" answered ${r.statusCode}`);
      if (r.statusCode < 300 && typeof r.json().id === 'string') made.push(r.json().id as string);
    }
  }
  for (const id of new Set(made)) {
    const user = await store.get('user', id);
    if (user && (await principalFor(registry, store, user, 'matrix')).access.includes(sa)) problems.push(`${String(user.email)} holds superadmin after the escalation attempts`);
  }
  const after = await store.get('user', superadmin.id);
  if (after?.email !== superRecord.email || after?.state !== 1) problems.push('the superadmin\'s account was changed by the escalation attempts');
  if ((await store.count(RESET_COLLECTION, { userId: superadmin.id })) > 0) problems.push('a reset link was issued for the superadmin');
  return { problems, tried };
}
