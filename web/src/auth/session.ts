import type { SessionUser } from '../config/types';
import { local } from '../app/storage';

/** What survives a reload: the bearer token and who it belongs to. */
export interface Session {
  token: string;
  expiresAt?: string;
  user: SessionUser | null;
  /** The profile's language is applied once per sign-in; afterwards the language menu wins. */
  profileLanguageApplied?: boolean;
}

export function loadSession(key: string, now = Date.now()): Session | null {
  const raw = local.get(key);
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Session;
    if (typeof s.token !== 'string' || !s.token) return null;
    if (s.expiresAt && Date.parse(s.expiresAt) <= now) return null;
    return s;
  } catch {
    return null;
  }
}

export function saveSession(key: string, session: Session | null): void {
  if (session) local.set(key, JSON.stringify(session));
  else local.remove(key);
}
