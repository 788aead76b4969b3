import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Profile, SessionUser } from '../config/types';
import { local } from '../app/storage';
import { useServices } from '../app/services';
import { ApiRequestError } from '../api/errors';
import { AccountExpiredError, AuthContext, type Access, type AuthStatus, type AuthValue } from './auth';
import { saveSession, type Session } from './session';

const SIGNED_OUT: Access = { access: [], groups: [], loaded: true };

interface ValidateAnswer {
  detail?: { access?: string[]; groups?: { name: string; access: string[] }[] };
}

/** SPEC 7: the organisation's account state, asked only when an expiry date is configured; a failure never blocks. */
export async function accountExpired(api: ReturnType<typeof useServices>['api'], configured: boolean): Promise<boolean> {
  if (!configured) return false;
  try {
    const a = await api.get<{ data?: { accountExpired?: boolean } }>('/api/public/checkOrganizationAccountStatus', { noCache: true });
    return a.data?.accountExpired === true;
  } catch {
    return false;
  }
}

/** Sign-in state (signed out, signing in, signed in) and the access that goes with it (SPEC 4). */
export function AuthProvider({ children }: { children: ReactNode }) {
  const services = useServices();
  const { api, keys, config } = services;
  const [session, setSessionState] = useState<Session | null>(services.session.current);
  const [status, setStatus] = useState<AuthStatus>(session ? 'signedIn' : 'signedOut');
  const [access, setAccess] = useState<Access>(session ? { ...SIGNED_OUT, loaded: false } : SIGNED_OUT);
  const expiryConfigured = Boolean(config.deployment.settings.signIn.accountExpiry);

  const setSession = useCallback((s: Session | null) => {
    services.session.current = s;
    saveSession(keys.session, s);
    setSessionState(s);
  }, [services, keys.session]);

  const signOut = useCallback(async () => {
    const token = services.session.current?.token;
    setSession(null);
    api.cache.clear();
    setStatus('signedOut');
    if (token) {
      await fetch('/api/auth/sign-out', { method: 'POST', headers: { authorization: `Bearer ${token}`, platform: 'desktop' } }).catch(() => undefined);
    }
  }, [api, services, setSession]);

  const finish = useCallback(async (s: Session) => {
    setSession(s);
    if (await accountExpired(api, expiryConfigured)) {
      await signOut();
      throw new AccountExpiredError();
    }
    setStatus('signedIn');
  }, [api, expiryConfigured, setSession, signOut]);

  const signIn = useCallback(async (email: string, password: string) => {
    setStatus('signingIn');
    try {
      const a = await api.post<{ token: string; expiresAt?: string; user?: SessionUser }>('/api/auth/sign-in', { email, password });
      local.set(keys.lastEmail, email);
      await finish({ token: a.token, expiresAt: a.expiresAt, user: a.user ?? { email } });
    } catch (e) {
      setStatus('signedOut');
      throw e;
    }
  }, [api, finish, keys.lastEmail]);

  const signInWithToken = useCallback(async (token: string) => {
    setStatus('signingIn');
    try {
      services.session.current = { token, user: null };
      const p = await api.get<{ detail?: Profile }>('/api/auth/profile', { noCache: true });
      const d = p.detail ?? {};
      await finish({ token, user: { email: d.email ?? '', display_name: d.display_name, photo: d.photo } });
    } catch (e) {
      services.session.current = null;
      setStatus('signedOut');
      throw e;
    }
  }, [api, finish, services]);

  const updateSession = useCallback((patch: Partial<Session>) => {
    const cur = services.session.current;
    if (cur) setSession({ ...cur, ...patch });
  }, [services, setSession]);

  // Access is refreshed whenever the sign-in state changes; 401/403 signs out (SPEC 4, 8).
  useEffect(() => {
    if (status !== 'signedIn') {
      if (status === 'signedOut') setAccess(SIGNED_OUT);
      return;
    }
    let live = true;
    setAccess((a) => ({ ...a, loaded: false }));
    api.get<ValidateAnswer>('/api/auth/validate', { noCache: true })
      .then((a) => {
        if (live) setAccess({ access: a.detail?.access ?? [], groups: a.detail?.groups ?? [], loaded: true });
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (e instanceof ApiRequestError && (e.status === 401 || e.status === 403)) {
          void signOut();
        } else {
          console.error('validate failed', e);
          setAccess({ access: [], groups: [], loaded: true });
        }
      });
    return () => {
      live = false;
    };
  }, [status, api, signOut]);

  const value = useMemo<AuthValue>(
    () => ({ status, session, access, signIn, signInWithToken, signOut, updateSession }),
    [status, session, access, signIn, signInWithToken, signOut, updateSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
