import { randomBytes } from 'node:crypto';
import type { Store } from '../store/types';
import { tokenId, type Clock } from './sessions';

export const RESET_COLLECTION = 'password_reset';
export const RESET_COLLECTION_SPEC = { name: RESET_COLLECTION, uniqueKeys: [], indexes: ['userId', 'expiresAt'] };

/** The web page a reset token is used on, as mailed (or, for an operator, printed). */
export function resetLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/resetPassword?token=${token}`;
}

/**
 * One-use password reset tokens. Only the token's sha256 is stored (a leaked database holds no
 * usable link), and using one deletes it: the store's delete reports whether it removed
 * something, so two requests racing with the same token cannot both succeed.
 */
export class ResetTokens {
  constructor(private readonly store: Store, private readonly validityMs: number, private readonly now: Clock) {}

  /** A new token for the user; earlier ones stop working, so only the latest mail's link does. */
  async issue(userId: string): Promise<{ token: string; expiresAt: string }> {
    await this.revokeAllFor(userId);
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = new Date(now + this.validityMs).toISOString();
    await this.store.insert(RESET_COLLECTION, { id: tokenId(token), userId, createdAt: new Date(now).toISOString(), expiresAt });
    return { token, expiresAt };
  }

  /** The user the token was issued to, once; null when unknown, used or expired. */
  async consume(token: string): Promise<string | null> {
    const id = tokenId(token);
    const doc = await this.store.get(RESET_COLLECTION, id);
    if (!doc) return null;
    const live = Date.parse(String(doc.expiresAt)) > this.now();
    const removed = await this.store.delete(RESET_COLLECTION, id);
    return live && removed ? String(doc.userId) : null;
  }

  async revokeAllFor(userId: string): Promise<void> {
    for (const d of await this.store.find(RESET_COLLECTION, { filter: { userId }, projection: { id: 1 } })) await this.store.delete(RESET_COLLECTION, d.id);
  }
}
