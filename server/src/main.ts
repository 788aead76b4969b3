import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DefinitionError, type Registry } from '../../engine/src/index';
import type { Store } from './store/types';
import { buildApp, logRequest, REDACT } from './app';
import { ensureAdmin, prepareStore } from './boot';
import { readConfig } from './config';
import { requireDefinitions } from '../../definitions/read';
import { openStore } from './store/index';
import { Sessions } from './auth/sessions';
import { routePlugins } from './routes/index';
import { prepareThreads } from './threads';

/** Starts the server; returns a function that drains and stops it. */
export interface StartOptions {
  /** Runs once the store is ready and before listening (the start script seeds demo data here). */
  beforeListen?: (ctx: { registry: Registry; store: Store }) => Promise<void>;
}

export async function start(env: NodeJS.ProcessEnv = process.env, options: StartOptions = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  const config = readConfig(env);
  // The thread modules bundled while the definitions load (threads.ts): the store's search
  // readers are the first threads to start.
  const threads = prepareThreads();
  const registry = requireDefinitions(config.root);
  const threadsNotBundled = await threads;
  const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri, searchReaders: config.searchReaders });
  await prepareStore(registry, store);
  await ensureAdmin(registry, store, config.adminEmail, config.adminPassword);
  await options.beforeListen?.({ registry, store });
  const sessions = new Sessions(registry, store);
  const webDist = join(config.root, 'web', 'dist');
  const app = await buildApp({
    registry,
    store,
    authenticator: sessions,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    publicOrigin: config.publicOrigin,
    metricsToken: config.metricsToken,
    logger: { level: config.logLevel, redact: REDACT, serializers: { req: logRequest } },
    plugins: routePlugins({ registry, store, sessions, config, webDist: existsSync(webDist) ? webDist : undefined }),
  });
  if (threadsNotBundled) app.log.warn({ reason: threadsNotBundled }, 'worker threads start through tsx: their modules could not be bundled');
  const url = await app.listen({ port: config.port, host: config.host });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    // app.close() stops accepting and lets in-flight requests finish, but a keep-alive connection
    // busy when it began stays open after its answer until keep-alive times out (72 s), and the
    // process with it: each connection is closed as soon as it is idle, so the drain ends with
    // the last answer.
    const reap = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      await app.close();
    } finally {
      clearInterval(reap);
    }
    await store.close();
  })());
  return { url, stop };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { url, stop } = await start();
    console.log(`listening on ${url}`);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => { void stop().then(() => process.exit(0)); });
    }
  } catch (e) {
    if (e instanceof DefinitionError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}
