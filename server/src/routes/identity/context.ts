import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from '../../../../engine/src/index';
import { ApiError } from '../../apiError';
import type { IdentityConfig } from '../../config';
import { AttemptCounter, takeAttempt } from '../../auth/attempts';
import type { Mailer } from '../../auth/mailer';
import type { Clock, Sessions } from '../../auth/sessions';
import type { Store, StoredDoc } from '../../store/types';

/** What the identity routes share: built once by authRoutes, handed to each route plugin. */
export interface IdentityContext {
  registry: Registry;
  store: Store;
  sessions: Sessions;
  now: Clock;
  publicUrl: string;
  identity: IdentityConfig;
  /** Absent without SMTP_URL: reset links are then logged (docs/identity.md). */
  mailer?: Mailer;
  signInLimits: { account: AttemptCounter; address: AttemptCounter };
  resetLimits: { account: AttemptCounter; address: AttemptCounter };
}

export function attemptCounters(limits: { account: IdentityConfig['signInPerAccount']; address: IdentityConfig['signInPerAddress'] }, now: Clock): { account: AttemptCounter; address: AttemptCounter } {
  return { account: new AttemptCounter(limits.account, now), address: new AttemptCounter(limits.address, now) };
}

/** Counts one attempt for the account and the address, or refuses with 429 and Retry-After. */
export function limitAttempt(limits: IdentityContext['signInLimits'], email: string, request: FastifyRequest, reply: FastifyReply): void {
  const wait = takeAttempt([[limits.account, email], [limits.address, request.ip]]);
  if (wait > 0) {
    void reply.header('retry-after', String(wait));
    throw new ApiError('RATE_LIMITED', { seconds: wait });
  }
}

/** A new session for a user whose identity and account were just checked. */
export async function openSession(ctx: IdentityContext, user: StoredDoc): Promise<{ token: string; expiresAt: string }> {
  const session = await ctx.sessions.create(user.id);
  await ctx.store.patch('user', user.id, { last_sign_in: new Date(ctx.now()).toISOString() });
  return session;
}

/** The bearer token of a request, if it carries one (for public routes that answer more when signed in). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const m = /^Bearer\s+([A-Za-z0-9_\-.~+/=]{10,512})$/.exec(String(request.headers.authorization ?? ''));
  return m?.[1];
}

/** What a client may know of a user: never the hash. */
export function publicUser(user: StoredDoc): Record<string, unknown> {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}

export const emailSchema = { type: 'string', minLength: 3, maxLength: 254 } as const;
export const tags = ['Identity'];
