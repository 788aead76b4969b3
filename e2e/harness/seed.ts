import { openStore } from '../../server/src/store/index';
import { ensureAdmin, prepareStore } from '../../server/src/boot';
import { hashPassword } from '../../server/src/auth/passwords';
import { requireDefinitions } from '../../definitions/read';
import { GROUPS, USERS } from './users';

import type { Store } from '../../server/src/store/types';

export const stamp = () => {
  const now = new Date().toISOString();
  return { createdAt: now, updatedAt: now, createdBy: 'e2e', updatedBy: 'e2e' };
};

/** Opens an empty data directory's store prepared from the definitions, with the admin, lets `fill` write, and closes it. */
export async function withSeedStore(appRoot: string, dataDir: string, fill: (store: Store) => Promise<void>): Promise<void> {
  const registry = requireDefinitions(appRoot);
  const store = await openStore({ dataDir });
  try {
    await prepareStore(registry, store);
    await ensureAdmin(registry, store, USERS.admin.email, USERS.admin.password);
    await fill(store);
  } finally {
    await store.close();
  }
}

/**
 * Fills an empty data directory with the suite's people before the server starts: the
 * admin, a limited user, users that trigger each sign-in error, and a user with two
 * warehouse groups.
 */
export async function seedE2e(appRoot: string, dataDir: string): Promise<void> {
  await withSeedStore(appRoot, dataDir, async (store) => {
    const hash = await hashPassword(USERS.limited.password);
    const ssoOrg = await store.insert('organisation', { name: 'SSO Only Co', providers: ['google'], allowed_domains: [], state: 1, ...stamp() });
    const closedOrg = await store.insert('organisation', { name: 'Closed Domain Co', providers: ['email'], allowed_domains: ['e2e.local'], state: 1, ...stamp() });
    const expiredOrg = await store.insert('organisation', { name: 'Lapsed Co', providers: ['email'], allowed_domains: [], account_expiry: '2020-01-01', state: 1, ...stamp() });
    const country = await store.insert('country', { country_name: 'Argentina', senasa_country_id: '32', sap_country_id: 'AR', sap_country_description: 'Argentina', state: 1, ...stamp() });
    const company = await store.insert('company', { company_name: 'Agro E2E S.A.', state: 1, ...stamp() });
    const groupIds: string[] = [];
    let erp = 100;
    for (const g of GROUPS) {
      const divisions: string[] = [];
      for (const name of g.warehouses) {
        const d = await store.insert('company_division', {
          division_name: name, division_type: 'deposit', senasa_id_type: 'depositID', erp_id: `D-${erp++}`,
          company_id: company.id, country: country.id, state: 1, ...stamp(),
        });
        divisions.push(d.id);
      }
      const group = await store.insert('group', { name: g.name, description: g.description, access: [...g.access], warehouses: divisions, state: 1, ...stamp() });
      groupIds.push(group.id);
    }
    const user = (u: { email: string; name: string }, extra: Record<string, unknown> = {}) => store.insert('user', {
      email: u.email, display_name: u.name, state: 1, access: [], groups: [], templates: [], profiles: [],
      language: 'en', notification_channel: 'local', password_hash: hash, ...stamp(), ...extra,
    });
    await user(USERS.limited, { access: [...USERS.limited.access] });
    await user(USERS.disabled, { state: 3, access: ['Dashboards'] });
    await user(USERS.ssoOnly, { organisation: ssoOrg.id, access: ['Dashboards'] });
    await user(USERS.outsider, { organisation: closedOrg.id, access: ['Dashboards'] });
    await user(USERS.noName, { access: ['Dashboards'] });
    await user(USERS.expired, { organisation: expiredOrg.id, access: ['Dashboards'] });
    await user(USERS.reset, { access: ['Dashboards'] });
    await user(USERS.spanish, { language: USERS.spanish.language, access: [...USERS.spanish.access] });
    await user(USERS.warehouse, { access: [...USERS.warehouse.access], groups: groupIds });
  });
}

/** A story's person: signs in with `hash`'s password, in `group`, holding that group's `access`. */
export async function insertStoryUser(store: Store, u: { email: string; name: string; language: string }, access: readonly string[], group: string, hash: string): Promise<void> {
  await store.insert('user', {
    email: u.email, display_name: u.name, state: 1, access: [...access], groups: [group], templates: [], profiles: [],
    language: u.language, notification_channel: 'local', password_hash: hash, ...stamp(),
  });
}
