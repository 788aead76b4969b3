/**
 * A server process with the import routes and test settings, for the crash tests: environment
 * as server/src/main.ts (the IMPORT_MAX_* limits included), plus settings the real server
 * (routes/index.ts) does not read: IMPORT_WRITE_WHILE_VALIDATING (0: write after validation),
 * IMPORT_VALIDATE_BATCH and IMPORT_APPLY_BATCH (rows per batch and per write transaction), and
 * IMPORT_CRASH_AT (crashPoint.ts; read wherever the import runs). The import bench runs the real server.
 */
import { join } from 'node:path';
import { buildApp, REDACT } from '../app';
import { ensureAdmin, prepareStore } from '../boot';
import { readConfig } from '../config';
import { requireDefinitions } from '../../../definitions/read';
import { openStore } from '../store/index';
import { Sessions } from '../auth/sessions';
import { authRoutes } from '../routes/auth';
import { importRoutes } from '../routes/imports';

const config = readConfig(process.env);
const registry = requireDefinitions(config.root);
const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri });
await prepareStore(registry, store);
await ensureAdmin(registry, store, config.adminEmail, config.adminPassword);
const sessions = new Sessions(registry, store);
const app = await buildApp({
  registry,
  store,
  authenticator: sessions,
  bodyLimit: config.bodyLimit,
  logger: { level: config.logLevel, redact: REDACT },
  plugins: [
    (a) => authRoutes(a, { registry, store, sessions }),
    (a) => importRoutes(a, {
      registry, store, dir: join(config.dataDir, 'imports'), ...config.imports,
      writeWhileValidating: process.env.IMPORT_WRITE_WHILE_VALIDATING !== '0',
      validateBatch: Number(process.env.IMPORT_VALIDATE_BATCH) || undefined,
      applyBatch: Number(process.env.IMPORT_APPLY_BATCH) || undefined,
    }),
  ],
});
const url = await app.listen({ port: config.port, host: config.host });
console.log(`listening on ${url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void app.close().then(() => store.close()).then(() => process.exit(0));
  });
}
