import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Registry } from '../../../../engine/src/index';
import { buildApp, type AppOptions } from '../../app';
import { prepareStore } from '../../boot';
import { readConfig } from '../../config';
import { hashPassword } from '../../auth/passwords';
import { Sessions, SESSION_TTL_MS } from '../../auth/sessions';
import type { Mailer } from '../../auth/mailer';
import { openStore, type OpenStoreOptions } from '../../store/index';
import type { Store, StoredDoc } from '../../store/types';
import { realRegistry, storeTarget } from '../../testing/harness';
import { authRoutes } from '../auth';

export const PASSWORD = 'Secret-pass-1';

/** A clock the test moves by hand, to prove expiry without waiting. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

export interface IdentityApp {
  app: FastifyInstance;
  store: Store;
  registry: Registry;
  sessions: Sessions;
  clock: TestClock;
  /** A user who can sign in with PASSWORD. */
  user(extra?: Record<string, unknown>): Promise<StoredDoc>;
  signIn(email: string, password?: string, remoteAddress?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let hash: Promise<string> | undefined;

/**
 * The real app with the identity routes, like the test harness, but with settings from `env`,
 * a movable clock, and optionally listening on a port (for peers that call back over HTTP).
 */
export interface IdentityAppOptions {
  env?: Record<string, string>;
  registry?: Registry;
  mailer?: Mailer;
  /** Listen on this port of 127.0.0.1 instead of answering only app.inject. */
  port?: number;
  logger?: AppOptions['logger'];
  /** Open this store (left in place on close) instead of a fresh one. */
  storeAt?: OpenStoreOptions;
}

export async function startIdentityApp(options: IdentityAppOptions = {}): Promise<IdentityApp> {
  const registry = options.registry ?? realRegistry();
  const dir = mkdtempSync(join(tmpdir(), 'tm-identity-'));
  // Like the harness: the MongoDB wire server when MONGODB_URI is set (a fresh database), else SQLite.
  const store = await openStore(options.storeAt ?? freshStoreAt(dir));
  await prepareStore(registry, store);
  const clock = testClock();
  const sessions = new Sessions(registry, store, SESSION_TTL_MS, clock.now);
  const config = readConfig({ HOST: '127.0.0.1', PORT: String(options.port ?? 3000), ...options.env });
  const app = await buildApp({
    registry, store, authenticator: sessions, logger: options.logger,
    plugins: [(a) => authRoutes(a, { registry, store, sessions, config, mailer: options.mailer })],
  });
  if (options.port !== undefined) await app.listen({ port: options.port, host: '127.0.0.1' });
  else await app.ready();
  hash ??= hashPassword(PASSWORD);
  let n = 0;
  return {
    app, store, registry, sessions, clock,
    async user(extra = {}) {
      return store.insert('user', {
        email: `person${n++}@example.com`, display_name: 'Test Person', state: 1, access: [], groups: [], templates: [], profiles: [],
        password_hash: await hash!, ...extra,
      } as never);
    },
    signIn(email, password = PASSWORD, remoteAddress = '127.0.0.1') {
      return app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password }, remoteAddress });
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where a test's own store goes: a fresh database on the MongoDB wire server when MONGODB_URI is set (like the harness), else `dir`. */
export function freshStoreAt(dir: string): OpenStoreOptions {
  const target = storeTarget();
  return target.uri ? { mongodbUri: Object.assign(new URL(target.uri), { pathname: `/t_${randomBytes(6).toString('hex')}` }).toString() } : { dataDir: dir };
}

/** A copy of the registry with other deployment sign-in settings (the registry itself is frozen). */
export function withSignIn(reg: Registry, signIn: Partial<Registry['deployment']['settings']['signIn']>): Registry {
  const settings = { ...reg.deployment.settings, signIn: { ...reg.deployment.settings.signIn, ...signIn } };
  return { ...reg, deployment: { ...reg.deployment, settings } };
}
