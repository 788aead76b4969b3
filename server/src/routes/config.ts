import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { frameOf } from '../plugins/frameOrigins';

/** Frame address variants kept serialised per route (an origin each the shell is reached at); past it the memory starts afresh. */
const VARIANTS = 32;

/**
 * A configuration answer serialised once per frame addresses (the definitions do not change
 * while the server runs), with an ETag: the shell and the feature frame both ask for it on every
 * load, and a browser holding it gets a 304 instead of the 800 kB again.
 */
function servedOnce(build: (frame: unknown) => object) {
  const kept = new Map<string, { body: string; etag: string }>();
  return (frame: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const key = JSON.stringify(frame ?? null);
    let hit = kept.get(key);
    if (!hit) {
      const body = JSON.stringify(build(frame));
      hit = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      if (kept.size >= VARIANTS) kept.clear();
      kept.set(key, hit);
    }
    // private: it is answered to a signed-in user; no-cache: asked again each time, answered 304 while unchanged.
    reply.header('etag', hit.etag).header('cache-control', 'private, no-cache');
    if (req.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(hit.body);
  };
}

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
  const withFrame = <T extends { deployment: { settings: object } }>(config: T) => (frame: unknown): T => (
    { ...config, deployment: { ...config.deployment, settings: { ...config.deployment.settings, frame } } }
  );
  const publicAnswer = servedOnce(withFrame(publicConfig));
  const whole = servedOnce(withFrame(reg));
  app.get('/api/config/public', { config: { public: true }, schema: { tags: ['Configuration'], summary: 'What the screens before sign-in render from' } }, (req, reply) => publicAnswer(frameOf(req.raw) ?? s.frame, req, reply));
  app.get('/api/config', { config: { access: null }, schema: { tags: ['Configuration'], summary: 'The checked definitions the web renders from' } }, (req, reply) => whole(frameOf(req.raw) ?? s.frame, req, reply));
}
