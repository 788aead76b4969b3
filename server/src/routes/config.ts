import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { frameOf } from '../plugins/frameOrigins';

/**
 * The definitions the web renders from. Before sign-in only what the sign-in and password
 * screens need; after sign-in the whole checked registry (definitions are configuration,
 * not data, and hold no secrets: integration secrets come from the environment). The frame
 * settings come with their addresses made absolute for the origin this request reached us at.
 */
export async function configRoutes(app: FastifyInstance, opts: { registry: Registry }): Promise<void> {
  const reg = opts.registry;
  const s = reg.deployment.settings;
  const publicConfig = {
    deployment: {
      name: reg.deployment.name,
      label: reg.deployment.label,
      settings: {
        defaultLocale: s.defaultLocale, languages: s.languages, toast: s.toast, timings: s.timings,
        passwordStrength: s.passwordStrength, terms: s.terms, version: s.version, logo: s.logo ?? null,
        signIn: { providers: s.signIn.providers, accountExpiry: s.signIn.accountExpiry ?? null },
        apiCache: s.apiCache,
      },
    },
    i18n: reg.i18n,
    routes: reg.features.routes,
  };
  const withFrame = <T extends { deployment: { settings: object } }>(config: T, req: FastifyRequest): T => (
    { ...config, deployment: { ...config.deployment, settings: { ...config.deployment.settings, frame: frameOf(req.raw) ?? s.frame } } }
  );
  app.get('/api/config/public', { config: { public: true }, schema: { tags: ['Configuration'], summary: 'What the screens before sign-in render from' } }, async (req) => withFrame(publicConfig, req));
  app.get('/api/config', { config: { access: null }, schema: { tags: ['Configuration'], summary: 'The checked definitions the web renders from' } }, async (req) => withFrame(reg, req));
}
