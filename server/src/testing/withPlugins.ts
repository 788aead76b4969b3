import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { buildApp } from '../app';
import { prepareStore } from '../boot';
import { Sessions } from '../auth/sessions';
import { openStore } from '../store/index';
import type { Store } from '../store/types';
import { readConfig, type ServerConfig } from '../config';
import { realRegistry, storeTarget } from './harness';

export interface PluginHarness {
  app: FastifyInstance;
  store: Store;
  registry: Registry;
  dataDir: string;
  userWith(access: string[]): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * A server with the core routes plus the given route plugins (the ones not yet in
 * routes/index.ts), on the embedded store in a temp dir or on MONGODB_URI.
 */
export async function startWithPlugins(
  plugins: (ctx: { registry: Registry; store: Store; config: ServerConfig }) => ((app: FastifyInstance) => Promise<void>)[],
  options: { registry?: Registry } = {},
): Promise<PluginHarness> {
  const registry = options.registry ?? realRegistry();
  const dataDir = mkdtempSync(join(tmpdir(), 'tm-md-'));
  const target = storeTarget();
  let mongodbUri: string | undefined;
  if (target.uri) {
    const u = new URL(target.uri);
    u.pathname = `/t_${randomBytes(6).toString('hex')}`;
    mongodbUri = u.toString();
  }
  const store = await openStore(mongodbUri ? { mongodbUri } : { dataDir });
  await prepareStore(registry, store);
  const sessions = new Sessions(registry, store);
  const config = readConfig({ ...process.env, DATA_DIR: dataDir });
  const app = await buildApp({ registry, store, authenticator: sessions, plugins: plugins({ registry, store, config }) });
  await app.ready();
  let n = 0;
  return {
    app, store, registry, dataDir,
    async userWith(access) {
      const user = await store.insert('user', { email: `md${n++}-${randomBytes(3).toString('hex')}@test.local`, display_name: 'MD', state: 1, access, groups: [], templates: [], profiles: [] } as never);
      const { token } = await sessions.create(user.id);
      return { authorization: `Bearer ${token}` };
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
