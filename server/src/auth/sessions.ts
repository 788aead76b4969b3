import { createHash, randomBytes } from 'node:crypto';
import type { Registry } from '../../../engine/src/index';
import type { Store, StoredDoc } from '../store/types';
import type { AuthPrincipal, Authenticator } from './principal';
import { catalogueOf, userKeys } from './grants';
import { strings } from './policy';

export const SESSION_COLLECTION = 'session';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Only the token's hash is stored, so a leaked database holds no usable token. */
export function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Access a user holds: own keys, keys of templates and of named profiles, and of groups. */
export async function principalFor(reg: Registry, store: Store, user: StoredDoc, sessionId: string): Promise<Omit<AuthPrincipal, 'selectedWarehouse'>> {
  const { keys, groups } = await userKeys(catalogueOf(reg), store, user);
  return {
    userId: user.id,
    email: String(user.email ?? ''),
    displayName: String(user.display_name ?? ''),
    sessionId,
    access: [...keys],
    groups: groups.map((g) => ({ name: String(g.name), access: strings(g.access) })),
  };
}

/** Milliseconds since the epoch; tests pass one they can move to prove expiry. */
export type Clock = () => number;

export class Sessions implements Authenticator {
  constructor(
    private readonly reg: Registry,
    private readonly store: Store,
    private readonly ttlMs = SESSION_TTL_MS,
    readonly now: Clock = Date.now,
  ) {}

  async create(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = new Date(now + this.ttlMs).toISOString();
    await this.store.insert(SESSION_COLLECTION, { id: tokenId(token), userId, createdAt: new Date(now).toISOString(), expiresAt, revoked: false });
    return { token, expiresAt };
  }

  /** Signs a user out everywhere (after a password reset, a stolen token must stop working too). */
  async revokeAllFor(userId: string): Promise<number> {
    const live = await this.store.find(SESSION_COLLECTION, { filter: { userId, revoked: false }, projection: { id: 1 } });
    for (const s of live) await this.store.patch(SESSION_COLLECTION, s.id, { revoked: true });
    return live.length;
  }

  async revoke(token: string): Promise<void> {
    const id = tokenId(token);
    if (await this.store.get(SESSION_COLLECTION, id)) await this.store.patch(SESSION_COLLECTION, id, { revoked: true });
  }

  async resolve(token: string): Promise<Omit<AuthPrincipal, 'selectedWarehouse'> | null> {
    const session = await this.store.get(SESSION_COLLECTION, tokenId(token));
    if (!session || session.revoked === true || Date.parse(String(session.expiresAt)) <= this.now()) return null;
    const user = await this.store.get('user', String(session.userId));
    if (!user || user.state === 3) return null;
    return principalFor(this.reg, this.store, user, session.id);
  }
}
