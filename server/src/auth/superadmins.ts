import type { Registry } from '../../../engine/src/index';
import type { Filter, Store, StoredDoc } from '../store/types';
import { ApiError } from '../apiError';
import type { AccessCatalogue } from './grants';
import { checkAccountUsable, checkOrganisationRules, findUserByEmail, normaliseEmail } from './policy';

/**
 * The platform always keeps an active superadmin (issue 13): without one, nobody can repair
 * access through the API. Active means enabled, superadmin, and able to sign in as far as their
 * organisation and the deployment decide, so disabling or expiring an organisation, or taking
 * away its members' way in, counts as losing them. Writes that would remove the last are
 * refused (grants.ts), and an operator who lost them anyway (a change made in the database)
 * gets one back with `npm run admin -- reset-superadmin <email>` (scripts/admin.ts).
 */

/** A write under check: a user or group that stops counting, or an organisation rewritten (null: deleted). */
export interface SuperadminChange {
  user?: string;
  group?: string;
  organisation?: { id: string; after: StoredDoc | null };
}

const passes = (check: () => void): boolean => {
  try {
    check();
    return true;
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
};

/**
 * Whether the organisation (and the deployment) let the user sign in, by the rules sign-in
 * itself applies. Someone with a password is taken to come in by e-mail only; someone without
 * one by any provider the deployment lists or an invitation link, whichever the organisation allows.
 */
export function ableToSignIn(reg: Registry, user: StoredDoc, org: StoredDoc | null, now: number): boolean {
  const ways = typeof user.password_hash === 'string' ? ['email'] : ['email', ...reg.deployment.settings.signIn.providers.map((p) => p.id)];
  return passes(() => checkAccountUsable(reg, user, org, now))
    && ways.some((provider) => passes(() => checkOrganisationRules(reg, org, provider, String(user.email ?? ''))));
}

/**
 * Enabled users, other than the one being changed, who are superadmin through their own keys,
 * a template, a profile, or an enabled group other than the one being changed.
 */
async function enabledSuperadmins(catalogue: AccessCatalogue, store: Store, change: SuperadminChange): Promise<StoredDoc[]> {
  const sa = catalogue.superadmin;
  const { templates, profiles } = catalogue.superadminGrants();
  const groups = (await store.find('group', { filter: { access: sa, state: { $ne: 3 } }, projection: { id: 1 } }))
    .map((g) => g.id)
    .filter((id) => id !== change.group);
  const ways: Filter[] = [{ access: sa }];
  if (templates.length) ways.push({ templates: { $in: templates } });
  if (profiles.length) ways.push({ profiles: { $in: profiles } });
  if (groups.length) ways.push({ groups: { $in: groups } });
  const filter: Filter = { state: { $ne: 3 }, $or: ways, ...(change.user ? { id: { $ne: change.user } } : {}) };
  return store.find('user', { filter, projection: { id: 1, email: 1, state: 1, organisation: 1, password_hash: 1 } });
}

/** Whether, once `change` is made, a superadmin who can sign in remains. */
export async function superadminRemains(reg: Registry, catalogue: AccessCatalogue, store: Store, change: SuperadminChange, now = Date.now()): Promise<boolean> {
  const users = await enabledSuperadmins(catalogue, store, change);
  const changed = change.organisation;
  const orgIds = [...new Set(users.map((u) => u.organisation).filter((o): o is string => typeof o === 'string' && o !== '' && o !== changed?.id))];
  const orgs = new Map((orgIds.length ? await store.find('organisation', { filter: { id: { $in: orgIds } } }) : []).map((o) => [o.id, o]));
  // As organisationOf reads it: no reference, or one to a deleted organisation, means no organisation rules.
  const orgOf = (u: StoredDoc): StoredDoc | null => (typeof u.organisation !== 'string' || u.organisation === '' ? null
    : u.organisation === changed?.id ? changed.after : orgs.get(u.organisation) ?? null);
  return users.some((u) => ableToSignIn(reg, u, orgOf(u), now));
}

/** A new superadmin's record, as the bootstrap (ADMIN_EMAIL) and the admin script create it. */
export function superadminRecord(reg: Registry, email: string, passwordHash: string | undefined, by: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    email: normaliseEmail(email),
    display_name: 'Platform Admin',
    state: 1,
    access: [reg.access.superadmin],
    groups: [],
    templates: [],
    profiles: [],
    language: 'en',
    notification_channel: 'local',
    ...(passwordHash ? { password_hash: passwordHash } : {}),
    createdAt: now,
    updatedAt: now,
    createdBy: by,
    updatedBy: by,
  };
}

/**
 * Makes the user with `email` an enabled superadmin, creating them if there is none, and sets
 * their password when a hash is given. Their other access is left as it was.
 */
export async function restoreSuperadmin(reg: Registry, store: Store, email: string, passwordHash: string | undefined, by: string): Promise<{ user: StoredDoc; created: boolean }> {
  const found = await findUserByEmail(store, email);
  if (!found) return { user: await store.insert('user', superadminRecord(reg, email, passwordHash, by) as never), created: true };
  const access = [...new Set([...(Array.isArray(found.access) ? found.access : []), reg.access.superadmin])];
  const user = await store.patch('user', found.id, {
    state: 1, access, ...(passwordHash ? { password_hash: passwordHash } : {}), updatedAt: new Date().toISOString(), updatedBy: by,
  } as never);
  return { user, created: false };
}
