import type { Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { Store, StoredDoc } from '../store/types';

/** How SPEC 8 names each provider in "<provider> not configured for this organization". */
const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  email: 'Email', google: 'Google', github: 'GitHub', facebook: 'Facebook', twitter: 'Twitter', saml: 'SAML',
};

export function providerLabel(id: string): string {
  return PROVIDER_LABELS[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

const DAY_MS = 86_400_000;

/**
 * The instant an account expires. A bare date (the organisation field is a date) means the
 * account still works through that whole day, UTC; a full timestamp is taken as it is.
 */
export function expiryInstant(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) + DAY_MS : Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** Expired when the deployment-wide date or the user's organisation date has passed. */
export function accountExpired(reg: Registry, org: StoredDoc | null, now: number): boolean {
  return [reg.deployment.settings.signIn.accountExpiry, org?.account_expiry]
    .map(expiryInstant)
    .some((t) => t !== null && now >= t);
}

export async function organisationOf(store: Store, user: StoredDoc): Promise<StoredDoc | null> {
  return typeof user.organisation === 'string' && user.organisation ? store.get('organisation', user.organisation) : null;
}

/** The strings of a stored array field (anything else: none). */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * The organisation's own rules for a sign-in with `provider` (SPEC 8): the provider must be one
 * it allows (no list: any), and the e-mail's domain one it (and the deployment) allows.
 */
export function checkOrganisationRules(reg: Registry, org: StoredDoc | null, provider: string, email: string): void {
  if (org && Array.isArray(org.providers) && !strings(org.providers).includes(provider)) {
    throw new ApiError('SIGN_IN_PROVIDER_NOT_CONFIGURED', { provider: providerLabel(provider) });
  }
  const domain = email.split('@').pop()?.toLowerCase() ?? '';
  for (const list of [strings(org?.allowed_domains), reg.deployment.settings.signIn.allowedDomains ?? []]) {
    if (list.length > 0 && !list.some((d) => d.toLowerCase() === domain)) throw new ApiError('SIGN_IN_DOMAIN_NOT_AUTHORIZED');
  }
}

/** What follows a proven identity, whichever way it was proven: a disabled or expired account stops here. */
export function checkAccountUsable(reg: Registry, user: StoredDoc, org: StoredDoc | null, now: number): void {
  if (user.state === 3) throw new ApiError('SIGN_IN_ACCOUNT_DISABLED');
  if (org?.state === 3) throw new ApiError('SIGN_IN_ACCOUNT_DISABLED');
  if (accountExpired(reg, org, now)) throw new ApiError('ACCOUNT_EXPIRED');
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(store: Store, email: string): Promise<StoredDoc | null> {
  const [user] = await store.find('user', { filter: { email: normaliseEmail(email) }, limit: 1 });
  return user ?? null;
}
