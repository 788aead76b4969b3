import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';

/**
 * The definitions the web renders from. Before sign-in only what the sign-in and password
 * screens need; after sign-in the whole checked registry (definitions are configuration,
 * not data, and hold no secrets: integration secrets come from the environment).
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
        apiCache: s.apiCache, frame: s.frame,
      },
    },
    i18n: reg.i18n,
    routes: reg.features.routes,
  };
  app.get('/api/config/public', { config: { public: true }, schema: { tags: ['Configuration'], summary: 'What the screens before sign-in render from' } }, async () => publicConfig);
  app.get('/api/config', { config: { access: null }, schema: { tags: ['Configuration'], summary: 'The checked definitions the web renders from' } }, async () => reg);
}
