import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireDefinitions } from '../../definitions/read';
import { hashPassword } from '../../server/src/auth/passwords';
import { seedActivity } from '../../scripts/seed/activity';
import { seedDemo } from '../../scripts/seed/seed';
import { stamp, withSeedStore } from './seed';
import { PASSWORD } from './users';

/** Days of demo activity, ending today: this month's dashboards have shipments, receptions and production. */
export const DASHBOARD_DAYS = Number(process.env.E2E_DASHBOARD_DAYS) || 40;

/** The dashboards story's people: a quality manager reading in English, one reading in Spanish (same access). */
export const DASHBOARD_USERS = {
  manager: { email: 'quinn.quality@e2e.local', password: PASSWORD, name: 'Quinn Quality', language: 'en' },
  spanish: { email: 'carla.calidad@e2e.local', password: PASSWORD, name: 'Carla Calidad', language: 'es' },
} as const;
/** A manager who works in warehouse groups (every demo group): the shell shows, and every screen narrows by, the first. */
export const HUB_MANAGER = { email: 'hugo.hub@e2e.local', password: PASSWORD, name: 'Hugo Hub', language: 'en' } as const;
/** What a quality manager holds: the dashboards and the reports behind them, the traceability map. */
export const MANAGER_ACCESS = ['Dashboards', 'Reports', 'Traceability Map', 'Analytics', 'inventoryTracking'];

/**
 * An empty data directory filled for the dashboards story: the demo master data (companies and
 * their deposits with places), DASHBOARD_DAYS of the demo activity ending today, and the
 * story's people.
 */
export async function seedDashboards(appRoot: string, dataDir: string): Promise<void> {
  const reg = requireDefinitions(appRoot);
  await withSeedStore(appRoot, dataDir, async (store) => {
    const now = new Date();
    await seedDemo(reg, store, 1, now);
    await seedActivity(reg, store, DASHBOARD_DAYS, now);
    const hash = await hashPassword(PASSWORD);
    const groups = (await store.find('group', { projection: { id: 1 } })).map((g) => g.id);
    for (const [u, of] of [...Object.values(DASHBOARD_USERS).map((x) => [x, []] as const), [HUB_MANAGER, groups] as const]) {
      await store.insert('user', {
        email: u.email, display_name: u.name, state: 1, access: MANAGER_ACCESS, groups: [...of], templates: [], profiles: [],
        language: u.language, notification_channel: 'local', password_hash: hash, ...stamp(),
      });
    }
  });
}

const t = (en: string, es: string, fr: string) => ({ en, es, fr });
/** What a configurator adds to the home dashboard by a JSON edit: the draft shipments waiting to go, and the same by customer. */
export const CONFIGURED_WIDGETS = [
  { id: 'draftShipments', type: 'kpi', title: t('Shipments still in draft', 'Envíos en borrador', 'Expéditions en brouillon'), source: { report: 'shipments_pending', filters: { status: ['Draft'] }, feed: { deposit: 'deposit' } } },
  { id: 'draftsByCustomer', type: 'chart', chart: 'pie', title: t('Drafts by customer', 'Borradores por cliente', 'Brouillons par client'), source: { report: 'shipments_pending', filters: { status: ['Draft'] } }, groupBy: 'customerName' },
];

/** The configurator's edit: the widgets appended to schemas/dashboards/home.json of a copy of the definitions. */
export function addConfiguredWidgets(appRoot: string): void {
  const file = join(appRoot, 'schemas', 'dashboards', 'home.json');
  const home = JSON.parse(readFileSync(file, 'utf8')) as { widgets: unknown[] };
  home.widgets.push(...CONFIGURED_WIDGETS);
  writeFileSync(file, JSON.stringify(home, null, 2));
}
