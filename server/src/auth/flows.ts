import { randomBytes } from 'node:crypto';
import type { Store } from '../store/types';
import { isStoreError } from '../store/types';
import { tokenId, type Clock } from './sessions';

export const FLOW_COLLECTION = 'auth_flow';
export const FLOW_COLLECTION_SPEC = { name: FLOW_COLLECTION, uniqueKeys: [], indexes: ['expiresAt'] };
/** Time to get through the provider's screens. */
export const FLOW_TTL_MS = 10 * 60_000;

export interface FlowSecrets {
  verifier: string;
  nonce: string;
}

/**
 * Provider sign-in flows between start and callback, kept in the store (any server instance
 * may receive the callback). Each flow is bound to the browser that started it by a random
 * value in an HttpOnly cookie, so a callback URL planted in another browser (login CSRF) fails;
 * only hashes of the state and of that value are stored.
 */
export class AuthFlows {
  private lastSweep = 0;

  constructor(private readonly store: Store, private readonly now: Clock) {}

  async begin(provider: string, secrets: FlowSecrets): Promise<{ state: string; binding: string }> {
    const state = randomBytes(24).toString('base64url');
    const binding = randomBytes(24).toString('base64url');
    const expiresAt = new Date(this.now() + FLOW_TTL_MS).toISOString();
    await this.store.insert(FLOW_COLLECTION, { id: tokenId(`flow:${state}`), provider, binding: tokenId(binding), ...secrets, expiresAt });
    await this.sweep();
    return { state, binding };
  }

  /** The flow's secrets, once: unknown, expired, another provider's or another browser's flow gives null. */
  async finish(provider: string, state: string, binding: string | undefined): Promise<FlowSecrets | null> {
    const id = tokenId(`flow:${state}`);
    const doc = await this.store.get(FLOW_COLLECTION, id);
    if (!doc || !(await this.store.delete(FLOW_COLLECTION, id))) return null;
    if (Date.parse(String(doc.expiresAt)) <= this.now() || doc.provider !== provider || !binding || doc.binding !== tokenId(binding)) return null;
    return { verifier: String(doc.verifier), nonce: String(doc.nonce) };
  }

  /** True the first time a key is seen until `until` (SAML assertion replay guard); the unique id makes it atomic. */
  async firstUse(key: string, until: number): Promise<boolean> {
    try {
      await this.store.insert(FLOW_COLLECTION, { id: tokenId(`once:${key}`), expiresAt: new Date(until).toISOString() });
      await this.sweep();
      return true;
    } catch (e) {
      if (isStoreError(e, 'DUPLICATE_KEY')) return false;
      throw e;
    }
  }

  /**
   * Where node-saml keeps the ids of our AuthnRequests until the answer names them
   * (InResponseTo): in the store, so the answer may reach any server instance.
   */
  samlRequestCache(): {
    saveAsync(key: string, value: string): Promise<{ value: string; createdAt: number } | null>;
    getAsync(key: string): Promise<string | null>;
    removeAsync(key: string | null): Promise<string | null>;
  } {
    const id = (key: string) => tokenId(`saml-request:${key}`);
    return {
      saveAsync: async (key, value) => {
        const createdAt = this.now();
        try {
          await this.store.insert(FLOW_COLLECTION, { id: id(key), value, expiresAt: new Date(createdAt + FLOW_TTL_MS).toISOString() });
        } catch (e) {
          if (isStoreError(e, 'DUPLICATE_KEY')) return null;
          throw e;
        }
        return { value, createdAt };
      },
      getAsync: async (key) => {
        const doc = await this.store.get(FLOW_COLLECTION, id(key));
        return doc && Date.parse(String(doc.expiresAt)) > this.now() ? String(doc.value) : null;
      },
      removeAsync: async (key) => {
        if (key === null) return null;
        return (await this.store.delete(FLOW_COLLECTION, id(key))) ? key : null;
      },
    };
  }

  /** Abandoned flows are removed now and then, a few at a time, so the collection stays small. */
  private async sweep(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const old = await this.store.find(FLOW_COLLECTION, { filter: { expiresAt: { $lt: new Date(now).toISOString() } }, limit: 200, projection: { id: 1 } });
    for (const d of old) await this.store.delete(FLOW_COLLECTION, d.id);
  }
}
