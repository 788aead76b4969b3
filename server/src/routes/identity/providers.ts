import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatError } from '../../../../engine/src/index';
import { ApiError } from '../../apiError';
import { AuthFlows, FLOW_COLLECTION_SPEC, FLOW_TTL_MS } from '../../auth/flows';
import { OidcClients, ProviderError } from '../../auth/oidc';
import { checkAccountUsable, checkOrganisationRules, findUserByEmail, organisationOf, providerLabel } from '../../auth/policy';
import { popupPage, type PopupMessage } from '../../auth/popup';
import { SAML_MAX_AGE_MS, SamlProvider } from '../../auth/saml';
import { openSession, tags, type IdentityContext } from './context';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z0-9_-]{1,40}$' } } } as const;
const callbackQuery = {
  type: 'object',
  additionalProperties: true,
  properties: { state: { type: 'string', maxLength: 200 }, code: { type: 'string', maxLength: 4096 }, error: { type: 'string', maxLength: 200 } },
} as const;
const samlBody = {
  type: 'object',
  required: ['SAMLResponse'],
  properties: { SAMLResponse: { type: 'string', minLength: 1, maxLength: 512 * 1024 }, RelayState: { type: 'string', maxLength: 1024 } },
} as const;

const cookieName = (id: string) => `tm_signin_${id}`;

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * Provider sign-in in a popup (SPEC 2.2): start redirects to the provider, the callback finds
 * the user by the e-mail the provider vouches for, applies the same organisation rules as an
 * e-mail sign-in, and answers a page that hands the session token to the app window.
 */
export async function providerRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  await ctx.store.ensureCollection(FLOW_COLLECTION_SPEC);
  const flows = new AuthFlows(ctx.store, ctx.now);
  const oidc = new OidcClients(ctx.identity.oidc);
  const uncache = app.caches.register({
    name: 'oidc-discovery', description: 'Sign-in providers\' discovered endpoints and keys',
    entries: () => oidc.discovered, clear: () => oidc.forget(),
  });
  app.addHook('onClose', async () => { uncache(); });
  const listed = new Map(ctx.registry.deployment.settings.signIn.providers.map((p) => [p.id, p]));
  const callbackUrl = (id: string) => `${ctx.publicUrl}/api/auth/provider/${id}/callback`;
  const saml = ctx.identity.saml && listed.get('saml')?.kind === 'saml' ? new SamlProvider(ctx.identity.saml, callbackUrl('saml'), flows.samlRequestCache(), FLOW_TTL_MS) : undefined;
  const appOrigin = new URL(ctx.publicUrl).origin;
  const secure = appOrigin.startsWith('https:') ? '; Secure' : '';
  const en = ctx.registry.i18n.en ?? {};
  const texts = { title: en['signIn.popup.title'] ?? 'Signing in…', done: en['signIn.popup.done'] ?? 'You can close this window.' };

  const answer = (reply: FastifyReply, message: PopupMessage, status = 200) => {
    const page = popupPage(appOrigin, message, texts);
    return reply.status(status).headers(page.headers).send(page.html);
  };
  /** Errors end in the popup too, as a message for the app window; unexpected ones are logged without secrets. */
  const fail = (request: FastifyRequest, reply: FastifyReply, provider: string, e: unknown) => {
    if (e instanceof ApiError) return answer(reply, { type: 'auth-error', message: e.message }, e.status);
    request.log.error({ provider, reason: e instanceof Error ? e.message : String(e) }, 'provider sign-in failed');
    return answer(reply, { type: 'auth-error', message: formatError('SIGN_IN_PROVIDER_FAILED', { provider: providerLabel(provider), reason: 'the provider could not be reached; try again' }) }, 502);
  };
  const unavailable = (id: string) => new ApiError('SIGN_IN_PROVIDER_UNAVAILABLE', { provider: providerLabel(id) });

  /** The session for the account with this e-mail, after the checks of SPEC 8. */
  const signInByEmail = async (provider: string, email: string): Promise<string> => {
    const user = await findUserByEmail(ctx.store, email);
    if (!user) throw new ApiError('SIGN_IN_ACCOUNT_NOT_FOUND');
    const org = await organisationOf(ctx.store, user);
    checkOrganisationRules(ctx.registry, org, provider, email);
    checkAccountUsable(ctx.registry, user, org, ctx.now());
    return (await openSession(ctx, user)).token;
  };

  app.get('/api/auth/provider/:id/start', {
    config: { public: true },
    schema: { tags, summary: 'Open in a popup: goes to the provider\'s sign-in', params: idParams, produces: ['text/html'] },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    try {
      if (!listed.has(id)) throw unavailable(id);
      if (listed.get(id)!.kind === 'saml') {
        if (!saml) throw unavailable(id);
        return reply.header('cache-control', 'no-store').redirect(await saml.authorizeUrl());
      }
      if (!oidc.has(id)) throw unavailable(id);
      const secrets = OidcClients.secrets();
      const { state, binding } = await flows.begin(id, secrets);
      const url = await oidc.authorizationUrl(id, callbackUrl(id), state, secrets);
      const cookie = `${cookieName(id)}=${binding}; Path=/api/auth/provider/${id}; HttpOnly; SameSite=Lax; Max-Age=${FLOW_TTL_MS / 1000}${secure}`;
      return reply.header('set-cookie', cookie).header('cache-control', 'no-store').redirect(url.href);
    } catch (e) {
      return fail(request, reply, id, e);
    }
  });

  app.get('/api/auth/provider/:id/callback', {
    config: { public: true },
    schema: { tags, summary: 'Where the OpenID provider sends the popup back; answers a page that hands the session to the app', params: idParams, querystring: callbackQuery, produces: ['text/html'] },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { state } = request.query as { state?: string };
    try {
      if (!listed.has(id) || !oidc.has(id)) throw unavailable(id);
      void reply.header('set-cookie', `${cookieName(id)}=; Path=/api/auth/provider/${id}; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
      const secrets = state ? await flows.finish(id, state, readCookie(request, cookieName(id))) : null;
      const label = providerLabel(id);
      if (!state || !secrets) throw new ApiError('SIGN_IN_PROVIDER_FAILED', { provider: label, reason: 'the sign-in expired or was started in another browser; try again' });
      const current = new URL(callbackUrl(id));
      current.search = request.url.split('?')[1] ?? '';
      let email: string | null;
      try {
        email = await oidc.emailFrom(id, current, state, secrets);
      } catch (e) {
        if (e instanceof ProviderError) throw new ApiError('SIGN_IN_PROVIDER_FAILED', { provider: label, reason: e.message });
        throw e;
      }
      if (!email) throw new ApiError('SIGN_IN_PROVIDER_NO_EMAIL', { provider: label });
      return answer(reply, { type: 'auth', token: await signInByEmail(id, email) });
    } catch (e) {
      return fail(request, reply, id, e);
    }
  });

  // SAML's HTTP-POST binding sends a form; this parser serves the routes of this plugin only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post('/api/auth/provider/saml/callback', {
    config: { public: true },
    schema: { tags, summary: 'SAML assertion consumer (HTTP-POST binding); answers a page that hands the session to the app', body: samlBody, produces: ['text/html'] },
  }, async (request, reply) => {
    try {
      if (!saml) throw unavailable('saml');
      let identity;
      try {
        identity = await saml.identity((request.body as { SAMLResponse: string }).SAMLResponse);
      } catch (e) {
        request.log.warn({ reason: e instanceof Error ? e.message : String(e) }, 'SAML response refused');
        throw new ApiError('SIGN_IN_PROVIDER_FAILED', { provider: 'SAML', reason: 'the identity provider\'s answer could not be verified' });
      }
      if (!(await flows.firstUse(identity.assertionKey, ctx.now() + 2 * SAML_MAX_AGE_MS))) {
        throw new ApiError('SIGN_IN_PROVIDER_FAILED', { provider: 'SAML', reason: 'this answer was already used' });
      }
      if (!identity.email) throw new ApiError('SIGN_IN_PROVIDER_NO_EMAIL', { provider: 'SAML' });
      return answer(reply, { type: 'auth', token: await signInByEmail('saml', identity.email) });
    } catch (e) {
      return fail(request, reply, 'saml', e);
    }
  });

  app.get('/api/auth/provider/saml/metadata', {
    config: { public: true },
    schema: { tags, summary: 'Our SAML service-provider metadata, for the identity provider\'s set-up', produces: ['application/samlmetadata+xml'] },
  }, async (_request, reply) => {
    if (!saml) throw unavailable('saml');
    return reply.type('application/samlmetadata+xml').send(saml.metadata());
  });
}
