import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { dummyHash, verifyPassword } from '../auth/passwords';
import type { Sessions } from '../auth/sessions';
import type { Store, StoredDoc } from '../store/types';

const signInBody = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

/** What a client may know of a user: never the hash. */
export function publicUser(user: StoredDoc): Record<string, unknown> {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}

async function organisationOf(store: Store, user: StoredDoc): Promise<StoredDoc | null> {
  return typeof user.organisation === 'string' ? store.get('organisation', user.organisation) : null;
}

export async function authRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; sessions: Sessions }): Promise<void> {
  const { store, sessions } = opts;
  const tags = ['Identity'];

  app.post('/api/auth/sign-in', { config: { public: true }, schema: { tags, summary: 'Sign in with e-mail and password', body: signInBody } }, async (request) => {
    const { email, password } = request.body as { email: string; password: string };
    const [user] = await store.find('user', { filter: { email: email.trim().toLowerCase() }, limit: 1 });
    if (!user || typeof user.password_hash !== 'string') {
      await verifyPassword(password, await dummyHash());
      if (!user) throw new ApiError('SIGN_IN_ACCOUNT_NOT_FOUND');
    }
    const org = await organisationOf(store, user);
    const providers = Array.isArray(org?.providers) ? org!.providers : null;
    if (providers && !providers.includes('email')) throw new ApiError('SIGN_IN_PROVIDER_NOT_CONFIGURED', { provider: 'Email' });
    const domains = Array.isArray(org?.allowed_domains) ? (org!.allowed_domains as string[]) : [];
    if (domains.length > 0 && !domains.includes(email.split('@')[1]?.toLowerCase() ?? '')) throw new ApiError('SIGN_IN_DOMAIN_NOT_AUTHORIZED');
    if (typeof user.password_hash !== 'string') throw new ApiError('SIGN_IN_PROVIDER_NOT_CONFIGURED', { provider: 'Email' });
    const ok = await verifyPassword(password, user.password_hash);
    if (!ok) throw new ApiError('SIGN_IN_INVALID_PASSWORD');
    if (user.state === 3) throw new ApiError('SIGN_IN_ACCOUNT_DISABLED');
    const { token, expiresAt } = await sessions.create(user.id);
    await store.patch('user', user.id, { last_sign_in: new Date().toISOString() });
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
}
