import { hashPassword } from '../../server/src/auth/passwords';
import { seedIbc } from './ibcSeed';
import { insertStoryUser, stamp, withSeedStore } from './seed';
import { IBC_GROUPS, MOBILE_GROUPS, MOBILE_USERS, PASSWORD } from './users';

/**
 * The IBC story's data (seedIbc: the filler's and the customer's deposits, a product, five empty
 * IBCs at the filler) and the mobile story's people, each in a group of their own over the
 * deposit they work at, holding their mobile keys.
 */
export async function seedMobile(appRoot: string, dataDir: string): Promise<void> {
  await seedIbc(appRoot, dataDir);
  await withSeedStore(appRoot, dataDir, async (store) => {
    const hash = await hashPassword(PASSWORD);
    const groups: Record<string, string> = {};
    for (const [key, g] of Object.entries(MOBILE_GROUPS)) {
      const [deposit] = await store.find('company_division', { filter: { division_name: IBC_GROUPS[g.warehouse].warehouse }, limit: 1 });
      const group = await store.insert('group', { name: g.name, description: g.name, access: [...g.access], warehouses: [deposit.id], state: 1, ...stamp() });
      groups[key] = group.id;
    }
    for (const u of Object.values(MOBILE_USERS)) await insertStoryUser(store, u, MOBILE_GROUPS[u.group].access, groups[u.group], hash);
  });
}
