import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { readConfig, type ServerConfig } from '../config';
import { dummyHash, verifyPassword } from '../auth/passwords';
import { smtpMailer, type Mailer } from '../auth/mailer';
import { checkAccountUsable, checkOrganisationRules, findUserByEmail, normaliseEmail, organisationOf } from '../auth/policy';
import type { Clock, Sessions } from '../auth/sessions';
import type { Store } from '../store/types';
import { attemptCounters, emailSchema, limitAttempt, openSession, publicUser, tags, type IdentityContext } from './identity/context';
import { accountRoutes } from './identity/account';
import { resetRoutes } from './identity/reset';
import { providerRoutes } from './identity/providers';
import { profileRoutes } from './identity/profile';
import { customerRoutes } from './identity/customer';

export { publicUser } from './identity/context';

export interface AuthRoutesOptions {
  registry: Registry;
  store: Store;
  sessions: Sessions;
  /** Settings (public URL, SMTP, providers, limits); read from the environment when absent. */
  config?: Pick<ServerConfig, 'publicUrl' | 'smtpUrl' | 'identity'>;
  /** Defaults to the sessions' clock, so a test that moves one moves both. */
  now?: Clock;
  /** Replaces the SMTP mailer (tests that do not want a real peer). */
  mailer?: Mailer;
}

const signInBody = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: {
    email: emailSchema,
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

/**
 * Sign-in, sign-out and validate, and every other identity route (reset, providers, profile,
 * warehouse groups, account status) registered from here, so main.ts and the test harness
 * get them all by registering this one plugin.
 */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const { registry, store, sessions } = opts;
  const config = opts.config ?? readConfig();
  const now = opts.now ?? sessions.now;
  const ctx: IdentityContext = {
    registry, store, sessions, now,
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    identity: config.identity,
    mailer: opts.mailer ?? (config.smtpUrl ? smtpMailer(config.smtpUrl, config.identity.mailFrom) : undefined),
    signInLimits: attemptCounters({ account: config.identity.signInPerAccount, address: config.identity.signInPerAddress }, now),
    resetLimits: attemptCounters({ account: config.identity.resetPerAccount, address: config.identity.resetPerAddress }, now),
  };
  app.addHook('onClose', async () => ctx.mailer?.close());

  app.post('/api/auth/sign-in', { config: { public: true }, schema: { tags, summary: 'Sign in with e-mail and password', body: signInBody } }, async (request, reply) => {
    const body = request.body as { email: string; password: string };
    const email = normaliseEmail(body.email);
    limitAttempt(ctx.signInLimits, email, request, reply);
    const user = await findUserByEmail(store, email);
    if (!user || typeof user.password_hash !== 'string') {
      // Same work as a real check, so the answer's timing does not tell accounts apart.
      await verifyPassword(body.password, await dummyHash());
      if (!user) throw new ApiError('SIGN_IN_ACCOUNT_NOT_FOUND');
    }
    const org = await organisationOf(store, user);
    checkOrganisationRules(registry, org, 'email', email);
    if (typeof user.password_hash !== 'string') throw new ApiError('SIGN_IN_PROVIDER_NOT_CONFIGURED', { provider: 'Email' });
    if (!(await verifyPassword(body.password, user.password_hash))) throw new ApiError('SIGN_IN_INVALID_PASSWORD');
    checkAccountUsable(registry, user, org, now());
    // A success is not a failed attempt: the account starts afresh, the address gets its one back.
    ctx.signInLimits.account.clear(email);
    ctx.signInLimits.address.remove(request.ip);
    const { token, expiresAt } = await openSession(ctx, user);
    return { token, expiresAt, user: publicUser(user) };
  });

  app.post('/api/auth/sign-out', { config: { access: null }, schema: { tags, summary: 'Revoke the bearer token' } }, async (request: FastifyRequest) => {
    const token = String(request.headers.authorization).replace(/^Bearer\s+/, '');
    await sessions.revoke(token);
    return { signedOut: true };
  });

  app.get('/api/auth/validate', { config: { access: null }, schema: { tags, summary: 'The caller\'s access and groups' } }, async (request) => ({
    detail: { access: request.principal!.access, groups: request.principal!.groups },
  }));

  await app.register(accountRoutes, ctx);
  await app.register(resetRoutes, ctx);
  await app.register(providerRoutes, ctx);
  await app.register(profileRoutes, ctx);
  await app.register(customerRoutes, ctx);
}
