import { compileForm, formOf, type Registry } from '../../engine/src/index';
import type { Store } from '../../server/src/store/types';
import { hashPassword } from '../../server/src/auth/passwords';
import { newId } from '../../server/src/store/ids';
import { refreshAdrDates } from '../../server/src/ibc/dates';
import { generateDemo, type DemoData } from './generate';

export const DEMO_PASSWORD = 'Demo-user-2026';

export interface DemoUser {
  email: string;
  role: string;
}

/**
 * Every demo record goes through the same engine validation as the API, so the demo data
 * can never drift from the definitions unnoticed.
 */
function checkAll(reg: Registry, data: DemoData): void {
  for (const [entity, docs] of data) {
    const validate = compileForm(formOf(reg, entity)!);
    for (const doc of docs) {
      const r = validate(doc);
      const errors = r.messages.filter((m) => m.severity === 'error' || m.code === 'FORMAT_UNKNOWN_FIELD');
      if (errors.length) throw new Error(`demo ${entity} ${doc.id} does not match its definition: ${errors.map((m) => m.message).join('; ')}`);
    }
  }
}

async function insertAll(store: Store, data: DemoData): Promise<number> {
  const now = new Date().toISOString();
  let n = 0;
  for (const [entity, docs] of data) {
    for (let i = 0; i < docs.length; i += 1000) {
      const batch = docs.slice(i, i + 1000).map((d) => ({ ...d, createdAt: now, updatedAt: now, createdBy: 'seed', updatedBy: 'seed' }));
      await store.insertMany(entity, batch as never);
      n += batch.length;
    }
  }
  return n;
}

/** Demo organisation, warehouse groups and one user of each kind the product serves. */
export async function demoIdentity(reg: Registry, data: DemoData): Promise<{ data: DemoData; users: DemoUser[] }> {
  const divisions = (data.get('company_division') ?? []).filter((d) => d.division_type === 'deposit');
  const companies = data.get('company') ?? [];
  const templates = new Set(reg.access.templates.map((t) => t.id));
  const keys = new Set(reg.access.keys.map((k) => k.key));
  const only = (xs: string[], known: Set<string>) => xs.filter((x) => known.has(x));
  const org = { id: newId(), name: 'Agro Demo', providers: ['email', 'google', 'github'], allowed_domains: [], state: 1 };
  // The mobile app's features (schemas/mobile.json) each role uses on a handheld; the hubs hold the warehouse ones, so selecting a hub keeps them.
  const mobile = {
    warehouse: ['ibc.mobile.returns', 'ibc.mobile.ibcinventory', 'ibc.mobile.ibcbatchpreparation', 'ibc.mobile.delivery', 'ibc.mobile.reception', 'ibc.mobile.productinventory', 'ibc.mobile.containertransfer', 'ibc.mobile.maplocation', 'bulk.mobile.delivery', 'bulk.mobile.reception'],
    distributor: ['ibc.mobile.distributordelivery', 'ibc.mobile.reception', 'ibc.mobile.customerreturnrequest', 'ibc.mobile.productinventory'],
    carrier: ['ibc.mobile.transporterreception', 'ibc.mobile.maplocation'],
    quality: ['ibc.mobile.performqc', 'ibc.mobile.ibcinventory'],
  };
  const groups = [
    { id: newId(), name: 'Rosario Hub', description: 'Depósitos de la zona Rosario', access: only(['Imports', 'Deliveries', 'Reception', 'Reports', 'Active Receptions', 'Alerts', ...mobile.warehouse], keys), warehouses: divisions.slice(0, 3).map((d) => d.id), state: 1 },
    { id: newId(), name: 'Córdoba Hub', description: 'Depósitos de la zona Córdoba', access: only(['Deliveries', 'Reception', 'Reports', ...mobile.warehouse], keys), warehouses: divisions.slice(3, 6).map((d) => d.id), state: 1 },
  ];
  const hash = await hashPassword(DEMO_PASSWORD);
  const user = (email: string, display_name: string, extra: Record<string, unknown>) => ({
    id: newId(), email, display_name, state: 1, organisation: org.id, language: 'en', notification_channel: 'local', password_hash: hash,
    groups: [], templates: [], profiles: [], access: [], ...extra,
  });
  const companyOfType = (type: string) => companies.find((c) => (c.extensions as { companyInfo: { company_type: string } }).companyInfo.company_type === type)?.company_name;
  const users = [
    user('producer@demo.local', `Laura Gómez (${companyOfType('producer') ?? 'producer'})`, { templates: only(['traceabilityOperator', 'masterDataAdmin', 'reportsViewer'], templates), access: only(['Dashboards', 'Master Data', 'Data Import'], keys) }),
    user('distributor@demo.local', `Martín Sosa (${companyOfType('distributor') ?? 'distributor'})`, { templates: only(['reportsViewer'], templates), access: only(['Dashboards', 'Deliveries', 'Reception', 'Reports', ...mobile.distributor], keys) }),
    user('carrier@demo.local', `Carlos Díaz (${companyOfType('carrier') ?? 'carrier'})`, { access: only(['Deliveries', 'Active Receptions', ...mobile.carrier], keys) }),
    user('warehouse@demo.local', 'Ana Ruiz (Rosario Hub)', { groups: groups.map((g) => g.id), access: only(['Dashboards', 'Imports', 'Deliveries', 'Reception', 'Reports', ...mobile.warehouse], keys) }),
    // Trace and recall (issue 19): the traceability map, the events and a lot's history.
    user('quality@demo.local', 'Julia Paz (quality manager)', { templates: only(['inventoryPlanner', 'reportsViewer'], templates), access: only(['Dashboards', 'Traceability Map', 'Assets', ...mobile.quality], keys) }),
  ];
  const out: DemoData = new Map<string, DemoData extends Map<string, infer D> ? D : never>([['organisation', [org]], ['group', groups], ['user', users]]);
  return {
    data: out,
    users: [
      { email: 'producer@demo.local', role: "producer's staff" },
      { email: 'distributor@demo.local', role: 'distributor' },
      { email: 'carrier@demo.local', role: 'carrier' },
      { email: 'warehouse@demo.local', role: 'warehouse-scoped user (Rosario Hub, Córdoba Hub)' },
      { email: 'quality@demo.local', role: 'quality manager (trace and recall)' },
    ],
  };
}

/**
 * Fills an empty store with demo data (IBC ages counted back from `asOf`); does nothing when it
 * already holds companies. The IBCs get their ADR dates here, not from the server's next alert
 * pass, so the activity played right after finds them dated.
 */
export async function seedDemo(reg: Registry, store: Store, scale = 1, asOf?: Date): Promise<{ seeded: boolean; records: number; users: DemoUser[] }> {
  if ((await store.count('company', {})) > 0) return { seeded: false, records: 0, users: [] };
  const data = generateDemo(scale, asOf);
  checkAll(reg, data);
  const identity = await demoIdentity(reg, data);
  const records = await insertAll(store, data);
  const extra = await insertAll(store, identity.data);
  await refreshAdrDates(store, reg.deployment.settings.ibc);
  return { seeded: true, records: records + extra, users: identity.users };
}

