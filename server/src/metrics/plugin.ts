import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyMetrics from 'fastify-metrics';
import client from 'prom-client';
import { metrics } from './registry';

export const METRICS_ACCESS = 'Monitoring';

/**
 * Prometheus metrics at /metrics through fastify-metrics: request durations per route pattern
 * (never a concrete URL, so no id reaches a label), the process's metrics and what the
 * capabilities publish (registry.ts). A scraper has no session: it sends METRICS_TOKEN as its
 * bearer token; a signed-in user with the Monitoring key may read them too; anyone else is
 * refused, so an unset token leaves the metrics closed to machines.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { token?: string }) => {
  // Request metrics of this app in a registry of its own: two apps of one process (tests) never share a series.
  const requests = new client.Registry();
  metrics.processMetrics();
  await app.register(fastifyMetrics, {
    defaultMetrics: { enabled: false },
    routeMetrics: {
      enabled: true,
      routeBlacklist: ['/metrics'],
      overrides: {
        histogram: { name: 'tracemesh_http_request_duration_seconds', registers: [requests] },
        summary: { name: 'tracemesh_http_request_summary_seconds', registers: [requests] },
      },
    },
    endpoint: {
      url: '/metrics',
      method: 'GET',
      logLevel: 'warn',
      exposeHeadRoute: false,
      config: { access: METRICS_ACCESS, ...(opts.token ? { machineToken: opts.token } : {}) },
      schema: {
        tags: ['System'],
        summary: 'Prometheus metrics: requests, outbox, sync attempts, export and import jobs',
        description: 'Bearer METRICS_TOKEN (a scraper) or a signed-in user holding the Monitoring key.',
        produces: ['text/plain'],
      },
    } as never,
  });
});
