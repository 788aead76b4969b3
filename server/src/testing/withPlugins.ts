import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { buildApp, type AppOptions } from '../app';
import { Sessions } from '../auth/sessions';
import type { Store } from '../store/types';
import { readConfig, type ServerConfig } from '../config';
import { openTestStore, realRegistry, testUsers } from './harness';

export interface PluginHarness {
  app: FastifyInstance;
  store: Store;
  registry: Registry;
  dataDir: string;
  userWith(access: string[], extra?: Record<string, unknown>): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * A server with the core routes plus the given route plugins (the ones not yet in
 * routes/index.ts), on the embedded store in a temp dir or on MONGODB_URI.
 */
export async function startWithPlugins(
  plugins: (ctx: { registry: Registry; store: Store; config: ServerConfig }) => ((app: FastifyInstance) => Promise<void>)[],
  options: { registry?: Registry; app?: Pick<AppOptions, 'publicOrigin' | 'trustProxy'> } = {},
): Promise<PluginHarness> {
  const registry = options.registry ?? realRegistry();
  const { store, dir: dataDir, dispose } = await openTestStore(registry, 'tm-md-');
  const sessions = new Sessions(registry, store);
  const config = readConfig({ ...process.env, DATA_DIR: dataDir });
  const app = await buildApp({ ...options.app, registry, store, authenticator: sessions, plugins: plugins({ registry, store, config }) });
  await app.ready();
  const users = testUsers(store, sessions, 'md');
  return {
    app, store, registry, dataDir,
    async userWith(access, extra = {}) {
      return (await users(access, { display_name: 'MD', ...extra })).headers;
    },
    async close() {
      await app.close();
      await dispose();
    },
  };
}
