import type { Registry } from '../../../engine/src/index';
import type { Filter, Store, StoredDoc } from '../store/types';
import type { AccessCatalogue } from './grants';
import { findUserByEmail, normaliseEmail } from './policy';

/**
 * The platform always keeps an active superadmin (issue 13): without one, nobody can repair
 * access through the API. Writes that would remove the last are refused (grants.ts), and an
 * operator who lost them anyway (a change made in the database) gets one back with
 * `npm run admin -- reset-superadmin <email>` (scripts/admin.ts).
 */

/**
 * Whether an enabled user other than the one being changed is superadmin, through their own
 * keys, a template, a profile, or an enabled group other than the one being changed.
 */
export async function anotherActiveSuperadmin(catalogue: AccessCatalogue, store: Store, changing: { user?: string; group?: string }): Promise<boolean> {
  const sa = catalogue.superadmin;
  const { templates, profiles } = catalogue.superadminGrants();
  const groups = (await store.find('group', { filter: { access: sa, state: { $ne: 3 } }, projection: { id: 1 } }))
    .map((g) => g.id)
    .filter((id) => id !== changing.group);
  const ways: Filter[] = [{ access: sa }];
  if (templates.length) ways.push({ templates: { $in: templates } });
  if (profiles.length) ways.push({ profiles: { $in: profiles } });
  if (groups.length) ways.push({ groups: { $in: groups } });
  const filter: Filter = { state: { $ne: 3 }, $or: ways, ...(changing.user ? { id: { $ne: changing.user } } : {}) };
  return (await store.find('user', { filter, projection: { id: 1 }, limit: 1 })).length > 0;
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
