import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Registry } from '../../../engine/src/index';
import type { Sessions } from '../auth/sessions';
import type { ServerConfig } from '../config';
import type { Store } from '../store/types';
import { authRoutes } from './auth';
import { webRoutes } from './web';
import { masterDataExportRoutes } from './masterdataExport';
import { fileRoutes } from './files';
import { importRoutes } from './imports';
import { operationRoutes } from '../workflows/routes';
import { ibcRoutes } from '../ibc/routes';
import { bulkRoutes } from '../bulk/routes';
import { reportRoutes } from '../reports/routes';
import { chainRoutes } from '../chain/routes';
import { syncRoutes } from '../sync/routes';
import { cacheRoutes } from '../ops/routes';
import { inboundRoutes } from '../inbound/routes';
import { dashboardRoutes } from '../dashboards/routes';
import { traceRoutes } from '../trace/routes';
import { epcisRoutes } from '../epcis/routes';
import { mobileRoutes } from '../mobile/routes';

export interface RouteContext {
  registry: Registry;
  store: Store;
  sessions: Sessions;
  config: ServerConfig;
  /** The built web app, when there is one to serve. */
  webDist?: string;
}

/**
 * The route plugins beyond the core ones of buildApp, in one list shared by the server and
 * the test harness, so the access matrix walks exactly the routes the server serves.
 */
export function routePlugins(ctx: RouteContext): ((app: FastifyInstance) => Promise<void>)[] {
  const { registry, store, sessions, config } = ctx;
  return [
    (a) => authRoutes(a, { registry, store, sessions, config }),
    (a) => masterDataExportRoutes(a, { registry, store }),
    (a) => fileRoutes(a, { registry, store, config }),
    (a) => importRoutes(a, { registry, store, dir: join(config.dataDir, 'imports'), ...config.imports }),
    (a) => operationRoutes(a, { registry, store }),
    (a) => ibcRoutes(a, { registry, store }),
    (a) => bulkRoutes(a, { registry, store }),
    (a) => chainRoutes(a, { registry, store, dataDir: config.dataDir, anchorUrl: config.anchorUrl }),
    (a) => syncRoutes(a, { registry, store, config }),
    // Not encapsulated, so app.reportExports and app.reportSchedules (runDue) are the app's own.
    fp((a: FastifyInstance) => reportRoutes(a, { registry, store, config })),
    // After the reports: widgets read through their reader thread.
    (a) => dashboardRoutes(a, { registry, store }),
    (a) => cacheRoutes(a, { store }),
    (a) => inboundRoutes(a, { store }),
    (a) => traceRoutes(a, { registry, store }),
    (a) => epcisRoutes(a, { registry, store, limits: config.epcis }),
    (a) => mobileRoutes(a, { registry, store }),
    ...(ctx.webDist ? [(a: FastifyInstance) => webRoutes(a, { dist: ctx.webDist! })] : []),
  ];
}
