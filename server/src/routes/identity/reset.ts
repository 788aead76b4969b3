import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Lang } from '../../../../engine/src/index';
import { ApiError } from '../../apiError';
import { takeAttempt } from '../../auth/attempts';
import { Grants } from '../../auth/grants';
import { hashPassword, requireStrongEnough } from '../../auth/passwords';
import { findUserByEmail, normaliseEmail, organisationOf } from '../../auth/policy';
import { RESET_COLLECTION_SPEC, ResetTokens, resetLink } from '../../auth/resetTokens';
import type { StoredDoc } from '../../store/types';
import { emailSchema, limitAttempt, tags, type IdentityContext } from './context';

const requestBody = {
  type: 'object', required: ['email'], additionalProperties: false, properties: { email: emailSchema },
} as const;

const sendLinkBody = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: emailSchema, purpose: { type: 'string', enum: ['invite', 'reset'], default: 'reset' } },
} as const;

/** Who a link is mailed for: the user asking (`self`), or an administrator inviting or resetting a user they manage. */
type LinkPurpose = 'self' | 'invite' | 'reset';

const resetBody = {
  type: 'object',
  required: ['token', 'password'],
  additionalProperties: false,
  properties: {
    token: { type: 'string', minLength: 10, maxLength: 200 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

function text(ctx: IdentityContext, lang: Lang, key: string, params: Record<string, string | number>): string {
  const template = ctx.registry.i18n[lang]?.[key] ?? ctx.registry.i18n.en?.[key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

function languageOf(ctx: IdentityContext, user: StoredDoc): Lang {
  const available = ctx.registry.deployment.settings.languages.available;
  const pick = [user.language, ctx.registry.deployment.settings.languages.default].find((l) => typeof l === 'string' && available.includes(l));
  return (pick as Lang | undefined) ?? 'en';
}

/**
 * Mails (or, without SMTP_URL, logs) a fresh link, and says whether it did. Nothing happens for
 * an unknown or disabled account, or one whose organisation does not allow e-mail sign-in; nor,
 * when users ask for themselves, for a password-less account (an administrator's invitation
 * or reset is what gives such an account its first password).
 */
async function sendLink(ctx: IdentityContext, tokens: ResetTokens, user: StoredDoc | null, log: FastifyBaseLogger, purpose: LinkPurpose = 'self'): Promise<boolean> {
  if (!user || user.state === 3 || (purpose === 'self' && typeof user.password_hash !== 'string')) return false;
  const org = await organisationOf(ctx.store, user);
  if (org && Array.isArray(org.providers) && !org.providers.includes('email')) return false;
  const { token } = await tokens.issue(user.id);
  const link = resetLink(ctx.publicUrl, token);
  if (!ctx.mailer) {
    // The one log line that holds a secret, on purpose: a deployment without mail still needs the link.
    log.info({ resetLink: link, userId: user.id }, 'password reset link (SMTP_URL is not set, so it is logged instead of mailed)');
    return true;
  }
  const lang = languageOf(ctx, user);
  const hours = Math.round(ctx.registry.deployment.settings.passwordResetValidityMs / 3_600_000);
  const mail = purpose === 'invite' ? 'invitation.mail' : 'resetPassword.mail';
  await ctx.mailer.send({
    to: String(user.email),
    subject: text(ctx, lang, `${mail}.subject`, {}),
    text: text(ctx, lang, `${mail}.text`, { name: String(user.display_name ?? user.email), email: String(user.email), hours, link }),
  });
  return true;
}

/** SPEC 2.3 /requestPasswordReset and /resetPassword: a mailed one-use link valid passwordResetValidityMs. */
export async function resetRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  await ctx.store.ensureCollection(RESET_COLLECTION_SPEC);
  const settings = ctx.registry.deployment.settings;
  const tokens = new ResetTokens(ctx.store, settings.passwordResetValidityMs, ctx.now);
  const grants = new Grants(ctx.registry, ctx.store);
  const pending = new Set<Promise<void>>();
  // Let mails in flight finish before the store closes under them.
  app.addHook('onClose', async () => { await Promise.allSettled([...pending]); });

  app.post('/api/auth/request-password-reset', {
    config: { public: true },
    schema: { tags, summary: 'Mail a one-use password reset link (same answer whether or not the account exists)', body: requestBody },
  }, async (request, reply) => {
    const email = normaliseEmail((request.body as { email: string }).email);
    limitAttempt(ctx.resetLimits, email, request, reply);
    // Sent after answering, so the answer's timing does not tell known accounts from unknown ones.
    const job = findUserByEmail(ctx.store, email)
      .then((user) => sendLink(ctx, tokens, user, request.log))
      .then(() => undefined)
      .catch((err: unknown) => request.log.error({ reason: err instanceof Error ? err.message : String(err) }, 'password reset mail failed'))
      .finally(() => pending.delete(job));
    pending.add(job);
    return { data: { requested: true } };
  });

  // An administrator's invitation (after creating a user) or reset of a user they manage: the
  // user's own access key; sent to password-less (invited) accounts too; the answer says
  // whether a link went out, since the caller may see the account anyway.
  app.post('/api/auth/send-link', {
    config: { access: ctx.registry.entities.user?.access ?? 'User Management' },
    schema: { tags, summary: 'Mail a user an invitation or a password reset link (administrators)', body: sendLinkBody },
  }, async (request, reply) => {
    const { email, purpose } = request.body as { email: string; purpose: 'invite' | 'reset' };
    const address = normaliseEmail(email);
    const wait = takeAttempt([[ctx.resetLimits.account, address]]);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      throw new ApiError('RATE_LIMITED', { seconds: wait });
    }
    // A link signs its holder in as the account: only a superadmin sends one to a superadmin.
    const target = await findUserByEmail(ctx.store, address);
    if (target) await grants.checkMayManage(request.principal!, target);
    if (!(await sendLink(ctx, tokens, target, request.log, purpose))) {
      throw new ApiError('INVALID_REQUEST', { detail: `no link can be sent to ${address.slice(0, 100)}: the account is unknown or disabled, or its organisation does not allow e-mail sign-in` });
    }
    return { data: { sent: true } };
  });

  app.post('/api/auth/reset-password', {
    config: { public: true },
    schema: { tags, summary: 'Set a new password with the token of a reset link', body: resetBody },
  }, async (request) => {
    const { token, password } = request.body as { token: string; password: string };
    // Checked before the token is used up, so a refused password does not cost the link.
    requireStrongEnough(ctx.registry, password);
    const userId = await tokens.consume(token);
    const user = userId ? await ctx.store.get('user', userId) : null;
    if (!user) throw new ApiError('RESET_TOKEN_INVALID');
    await ctx.store.patch('user', user.id, { password_hash: await hashPassword(password), updatedAt: new Date(ctx.now()).toISOString(), updatedBy: user.id });
    // Whoever held the old password (or a stolen token) is signed out everywhere.
    await ctx.sessions.revokeAllFor(user.id);
    await tokens.revokeAllFor(user.id);
    ctx.signInLimits.account.clear(normaliseEmail(String(user.email)));
    return { data: { reset: true } };
  });
}
