import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountExpired, findUserByEmail, organisationOf } from '../../auth/policy';
import type { StoredDoc } from '../../store/types';
import { bearerToken, emailSchema, type IdentityContext } from './context';

/**
 * Whose organisation the answer is about: the signed-in caller when the request carries a
 * valid token (what the web does right after sign-in), else the account named by `?email=`.
 * Neither: only the deployment-wide date counts.
 */
async function userOf(ctx: IdentityContext, request: FastifyRequest, email: string | undefined): Promise<StoredDoc | null> {
  const token = bearerToken(request);
  const principal = token ? await ctx.sessions.resolve(token) : null;
  if (principal) return ctx.store.get('user', principal.userId);
  return email ? findUserByEmail(ctx.store, email) : null;
}

/** SPEC 7: GET public/checkOrganizationAccountStatus → {data: {accountExpired}}. */
export async function accountRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  app.get('/api/public/checkOrganizationAccountStatus', {
    config: { public: true },
    schema: {
      tags: ['Identity'],
      summary: 'Whether the account has expired (deployment date, or the organisation of the caller or of ?email=)',
      querystring: { type: 'object', additionalProperties: false, properties: { email: emailSchema } },
    },
  }, async (request) => {
    const { email } = request.query as { email?: string };
    const user = await userOf(ctx, request, email);
    const org = user ? await organisationOf(ctx.store, user) : null;
    return { data: { accountExpired: accountExpired(ctx.registry, org, ctx.now()) } };
  });
}
