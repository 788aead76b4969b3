import { createContext, useContext } from 'react';
import type { Session } from './session';

export type AuthStatus = 'signedOut' | 'signingIn' | 'signedIn';

export interface AccessGroup {
  name: string;
  access: string[];
}

export interface Access {
  access: string[];
  groups: AccessGroup[];
  /** False while the access of a new sign-in state is being fetched. */
  loaded: boolean;
}

export interface AuthValue {
  status: AuthStatus;
  session: Session | null;
  access: Access;
  /** E-mail and password; rejects with the server's error. */
  signIn(email: string, password: string): Promise<void>;
  /** A token a provider popup handed over. */
  signInWithToken(token: string): Promise<void>;
  signOut(): Promise<void>;
  updateSession(patch: Partial<Session>): void;
}

export const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const a = useContext(AuthContext);
  if (!a) throw new Error('AuthContext is missing');
  return a;
}

/** Thrown by sign-in when the organisation's account expired (SPEC 2.2). */
export class AccountExpiredError extends Error {
  constructor() {
    super('ACCOUNT_EXPIRED');
    this.name = 'AccountExpiredError';
  }
}
