import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Registry } from '../../engine/src/index';
import type { Store } from './store/types';
import type { Authenticator } from './auth/principal';
import { errorsPlugin } from './plugins/errors';
import { jsonDepthPlugin } from './plugins/jsonDepth';
import { nulBytesPlugin } from './plugins/nulBytes';
import { documented, openapiErrorsPlugin } from './plugins/openapiErrors';
import { routeMethodsPlugin } from './plugins/methodNotAllowed';
import { clientErrorHandler } from './plugins/clientErrors';
import { ApiError } from './apiError';
import { accessPlugin } from './plugins/access';
import { securityHeaders } from './plugins/securityHeaders';
import { frameOrigins } from './plugins/frameOrigins';
import { healthRoutes } from './routes/health';
import { masterDataRoutes } from './routes/masterdata';
import { configRoutes } from './routes/config';
import { WriteHooks } from './records/writeHooks';
import { metricsPlugin } from './metrics/plugin';
import { Readiness } from './ops/readiness';
import { Caches } from './ops/caches';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's derive-before-write registry: capabilities register into it, every writer of records applies it. */
    writeHooks: WriteHooks;
    /** What /api/ready checks: the store, and each background worker its capability registers. */
    readiness: Readiness;
    /** The in-memory caches the cache manager lists and clears. */
    caches: Caches;
  }
}

export interface AppOptions {
  /** Fastify trustProxy: behind a reverse proxy, so request.ip (sign-in limits) is the client's. */
  trustProxy?: boolean | number | string;
  /** PUBLIC_URL's origin when it is set; without it the feature frame follows each request's own origin. */
  publicOrigin?: string;
  registry: Registry;
  store: Store;
  authenticator: Authenticator;
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
  /** METRICS_TOKEN: the bearer token a Prometheus scraper sends to /metrics (unset: only Monitoring users read them). */
  metricsToken?: string;
  /** Extra route plugins (identity, imports…) registered after the core ones. */
  plugins?: ((app: FastifyInstance) => Promise<void>)[];
}

/** Request log lines carry no query string: reset tokens and OIDC codes travel there. */
export function logRequest(req: { method: string; url: string; ip: string; id: string }): Record<string, unknown> {
  return { method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip, reqId: req.id };
}

/** Never written to a log line, whatever the log level. */
export const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.password_hash', '*.token'];

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const bodyLimit = opts.bodyLimit ?? 1024 * 1024;
  const app = Fastify({
    logger: opts.logger ?? false,
    // Fastify's types take a hop count as a number only through the function form's overloads.
    trustProxy: (opts.trustProxy ?? false) as boolean | string,
    bodyLimit,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: 'x-request-id',
    // Malformed URLs and over-long path parameters get the same error body as everything else.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const e = new ApiError('INVALID_REQUEST', { detail: tooLong ? 'a path segment is too long' : 'the URL is malformed' });
      void (reply as unknown as { status(n: number): { send(b: unknown): void } }).status(tooLong ? 414 : 400).send(e.toBody());
    },
    // Requests Node cannot read get the API's error body too.
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: true, coerceTypes: true, useDefaults: true, allErrors: false } },
  });
  // Only JSON is spoken; any other body type is a 415, never a string taken for a record.
  app.removeContentTypeParser('text/plain');

  app.decorate('writeHooks', new WriteHooks());
  app.decorate('readiness', new Readiness());
  app.decorate('caches', new Caches());
  // Any collection answers: a count is the cheapest question both stores can be asked.
  app.readiness.register('store', async () => { await opts.store.count('user'); });
  await app.register(errorsPlugin, { bodyLimit });
  await app.register(frameOrigins, { frame: opts.registry.deployment.settings.frame, publicOrigin: opts.publicOrigin });
  await app.register(securityHeaders, { settings: opts.registry.deployment.settings });
  // Bad input refused at the boundary, and the OpenAPI document and 405s kept true (issue 13).
  for (const plugin of [jsonDepthPlugin, nulBytesPlugin, openapiErrorsPlugin, routeMethodsPlugin]) await app.register(plugin);
  await app.register(accessPlugin, {
    authenticator: opts.authenticator,
    superadmin: opts.registry.access.superadmin,
    customerKeys: opts.registry.access.keys.filter((k) => k.customerModule).map((k) => k.key),
  });
  // Before every route, so each one is timed.
  await app.register(metricsPlugin, { token: opts.metricsToken });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Traceability platform API', version: '3.0.0', description: 'Generated from the definitions in schemas/.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // Shared schemas keep their $id as their component name (ApiError), not def-0.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const docBody = route.config?.docBody;
      return { schema: documented(docBody ? { ...schema, body: docBody } : schema, route.config), url } as never;
    },
  });
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true };
    });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  await app.register(healthRoutes, { store: opts.store });
  await app.register(configRoutes, { registry: opts.registry });
  await app.register(masterDataRoutes, { registry: opts.registry, store: opts.store, hooks: app.writeHooks });
  for (const plugin of opts.plugins ?? []) await app.register(plugin);
  return app;
}
