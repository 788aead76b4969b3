import type { Principal } from '../../../engine/src/index';

/** The signed-in user as every route sees it. */
export interface AuthPrincipal extends Principal {
  userId: string;
  email: string;
  displayName: string;
  sessionId: string;
  groups: { name: string; access: string[] }[];
}

/** Turns a bearer token into a principal; the identity module provides the real one. */
export interface Authenticator {
  resolve(token: string): Promise<Omit<AuthPrincipal, 'selectedWarehouse'> | null>;
}
