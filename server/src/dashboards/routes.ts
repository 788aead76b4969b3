import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { requestLang } from '../routes/masterdata';
import type { Store } from '../store/types';
import { configAnswer, dataAnswer, filterParams, filtersQuery, keyParam, oneConfigAnswer, optionsAnswer, optionsQuery, widgetAnswer, widgetParams } from './schemas';
import { DashboardService } from './service';

export interface DashboardRoutesOptions {
  registry: Registry;
  store: Store;
  /** Today for relative periods and deadlines (a test names its day). */
  now?: () => Date;
}

/**
 * The dashboards API (SPEC 7 getDashboardConfig and fetchDashboardData, docs/dashboards.md):
 * the dashboards a user may see, and their widgets' data, one widget or all at once. The routes
 * take any key some dashboard needs; the dashboard's own key is checked in the handler, each
 * widget's report or named query key when it is read. Registered after the reports' plugin: on
 * the embedded store the widgets' pipelines run on its reader thread.
 */
export async function dashboardRoutes(app: FastifyInstance, opts: DashboardRoutesOptions): Promise<void> {
  const service = new DashboardService(opts.registry, opts.store, app.reportReader, opts.now);
  const uncache = app.caches.register({
    name: 'dashboard-groups', description: 'Stock and IBCs per deposit, as the dashboards\' maps and charts show them (kept a minute)',
    entries: () => service.groups.size, clear: () => service.groups.clear(),
  });
  app.addHook('onClose', async () => { uncache(); });
  const access = service.accessKeys();
  const tags = ['Dashboards'];
  const params = (request: FastifyRequest) => request.params as { key: string; widget: string; filter: string };
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  app.get('/api/v3/dashboards', { config: { access }, schema: { tags, summary: 'The dashboards you may see, with their filters and widgets, in your language (getDashboardConfig)', response: configAnswer } }, async (request) =>
    service.config(request.principal!, requestLang(request)));
  app.get('/api/v3/dashboards/:key', { config: { access }, schema: { tags, summary: 'One dashboard\'s filters and widgets (getDashboardConfig)', params: keyParam, response: oneConfigAnswer } }, async (request) =>
    service.config(request.principal!, requestLang(request), params(request).key).data[0]);
  app.get('/api/v3/dashboards/:key/filters/:filter/options', {
    config: { access }, schema: { tags, summary: 'The records a reference filter of the dashboard offers (a deposit of your warehouse group)', params: filterParams, querystring: optionsQuery, response: optionsAnswer },
  }, async (request) => {
    const p = request.principal!;
    return service.options(p, service.visible(p, params(request).key), params(request).filter, request.query as { q?: string; id?: string });
  });
  app.get('/api/v3/dashboards/:key/data', {
    config: { access }, schema: { tags, summary: 'Every widget\'s data of a dashboard, each answering in its own slot (fetchDashboardData)', params: keyParam, querystring: filtersQuery, response: dataAnswer },
  }, async (request) => {
    const p = request.principal!;
    const def = service.visible(p, params(request).key);
    return service.all(p, def, service.filters(def, query(request)), (widget, e) => request.log.error({ err: e, dashboard: def.key, widget }, 'a dashboard widget failed'));
  });
  app.get('/api/v3/dashboards/:key/widgets/:widget/data', {
    config: { access }, schema: { tags, summary: 'One widget\'s data: 403 when its report or named query is not yours (fetchDashboardData)', params: widgetParams, querystring: filtersQuery, response: widgetAnswer },
  }, async (request) => {
    const p = request.principal!;
    const def = service.visible(p, params(request).key);
    const w = service.widget(def, params(request).widget);
    return { id: w.id, ...(await service.data(p, def, w, service.filters(def, query(request)))) };
  });
}
