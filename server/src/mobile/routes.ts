import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { requestLang } from '../routes/masterdata';
import type { Store } from '../store/types';
import { ENGINE, OperationService } from '../workflows/service';
import { mapAnswer } from './app';
import { actionsBody, actionsQuery, appAnswer, noContent, termsBody, verdictsAnswer } from './schemas';
import { MobileService, type MobileAction } from './service';
import { MOBILE_COLLECTIONS } from './verdicts';

/**
 * The mobile app's API (issue 20, docs/mobile.md): what the app shows the signed-in user, their
 * acceptance of the mobile terms, and the actions a device queued, judged at most once each.
 * Every route is open to any signed-in user; each action is checked against its feature's key.
 */
export async function mobileRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store }): Promise<void> {
  for (const spec of MOBILE_COLLECTIONS) await opts.store.ensureCollection(spec);
  const ops = new OperationService(opts.registry, opts.store, ENGINE, undefined, app.writeHooks);
  const service = new MobileService(opts.registry, opts.store, ops);
  const principal = (request: FastifyRequest) => request.principal!;
  const tags = ['Mobile'];

  app.get('/api/v3/mobile/app', {
    config: { access: null },
    schema: { tags, summary: 'The mobile app for you: versions, your accepted terms version, the map tiles, and the features your keys give, each with its fields schema and transitions', response: appAnswer },
  }, async (request) => ({ ...(await service.app(principal(request), requestLang(request))), map: mapAnswer(opts.registry) }));

  app.post('/api/v3/mobile/terms', {
    config: { access: null },
    schema: { tags, summary: 'Accept the current mobile terms version (409 MOBILE_TERMS_VERSION for another)', body: termsBody, response: noContent },
  }, async (request, reply) => {
    await service.acceptTerms(principal(request), (request.body as { version: number }).version);
    return reply.status(204).send();
  });

  app.post('/api/v3/mobile/actions', {
    config: { access: null },
    schema: {
      tags, summary: 'Judge the actions a device queued, in seq order, each at most once: applied or rejected with the reason and a hint', body: actionsBody, response: verdictsAnswer,
    },
  }, async (request) => {
    const body = request.body as { deviceId: string; actions: MobileAction[] };
    return service.judge(principal(request), body.deviceId, body.actions, requestLang(request));
  });

  app.get('/api/v3/mobile/actions', {
    config: { access: null },
    schema: { tags, summary: 'Your verdicts for a device after a seq, in seq order (500 at a time)', querystring: actionsQuery, response: verdictsAnswer },
  }, async (request) => {
    const q = request.query as { deviceId: string; after: number };
    return service.verdicts(principal(request), q.deviceId, q.after, requestLang(request));
  });
}
