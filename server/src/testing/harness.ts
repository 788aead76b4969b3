import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { buildApp } from '../app';
import { prepareStore } from '../boot';
import { requireDefinitions } from '../../../definitions/read';
import { openStore } from '../store/index';
import type { Store } from '../store/types';
import { Sessions } from '../auth/sessions';
import { hashPassword } from '../auth/passwords';
import { routePlugins } from '../routes/index';
import { readConfig } from '../config';

export interface Harness {
  app: FastifyInstance;
  store: Store;
  registry: Registry;
  sessions: Sessions;
  /** Creates a signed-in user with the given access and returns its bearer header. */
  userWith(access: string[], extra?: Record<string, unknown>): Promise<{ id: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

/** The MongoDB wire server when MONGODB_URI is set (a fresh database per harness), else SQLite in a temp dir. */
export function storeTarget(): { label: string; uri?: string } {
  const uri = process.env.MONGODB_URI;
  return uri ? { label: 'mongodb', uri } : { label: 'embedded' };
}

function withDatabase(uri: string, db: string): string {
  const u = new URL(uri);
  u.pathname = `/${db}`;
  return u.toString();
}

let cachedRegistry: Registry | undefined;
export function realRegistry(): Registry {
  cachedRegistry ??= requireDefinitions(process.cwd());
  return cachedRegistry;
}

let passwordHash: Promise<string> | undefined;

/** A store of its own for one test server, prepared from the definitions: a temp directory, or a fresh database on MONGODB_URI. */
export async function openTestStore(registry: Registry, prefix: string): Promise<{ store: Store; dir: string; dispose(): Promise<void> }> {
  const target = storeTarget();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = await openStore(target.uri
    ? { mongodbUri: withDatabase(target.uri, `t_${randomBytes(6).toString('hex')}`) }
    : { dataDir: dir });
  await prepareStore(registry, store);
  return {
    store, dir,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Makes signed-in users with the given access (and a password, so the identity routes treat them as real). */
export function testUsers(store: Store, sessions: Sessions, prefix = 'user'): (access: string[], extra?: Record<string, unknown>) => Promise<{ id: string; headers: Record<string, string> }> {
  passwordHash ??= hashPassword('Secret-pass-1');
  let n = 0;
  return async (access, extra = {}) => {
    const user = await store.insert('user', {
      email: `${prefix}${n++}-${randomBytes(3).toString('hex')}@test.local`, display_name: 'Test User', state: 1,
      access, groups: [], templates: [], profiles: [], password_hash: await passwordHash!, ...extra,
    } as never);
    const { token } = await sessions.create(user.id);
    return { id: user.id, headers: { authorization: `Bearer ${token}` } };
  };
}

/** `env`: settings beside the process's (SMTP_URL, PUBLIC_URL…) for this server only. */
export async function startHarness(options: { registry?: Registry; bodyLimit?: number; env?: Record<string, string> } = {}): Promise<Harness> {
  const registry = options.registry ?? realRegistry();
  const { store, dir, dispose } = await openTestStore(registry, 'tm-api-');
  const sessions = new Sessions(registry, store);
  const config = readConfig({ ...process.env, ...options.env, DATA_DIR: dir });
  const app = await buildApp({
    registry, store, authenticator: sessions, bodyLimit: options.bodyLimit, metricsToken: config.metricsToken,
    plugins: routePlugins({ registry, store, sessions, config }),
  });
  await app.ready();
  return {
    app, store, registry, sessions,
    userWith: testUsers(store, sessions),
    async close() {
      await app.close();
      await dispose();
    },
  };
}
