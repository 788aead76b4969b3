import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deepFreeze } from '../../../../engine/src/registry/registry';
import { sanitiseWorkflow } from '../../../../engine/src/registry/sanitise';
import type { AccessKeyDef, Registry, WorkflowDef } from '../../../../engine/src/index';
import { copyDefinitions, loadDefinitions } from '../../../../definitions/read';
import type { Store } from '../../store/types';

const FIXTURE = join(process.cwd(), 'server/src/workflows/fixtures/crate');
const json = <T>(path: string): T => JSON.parse(readFileSync(join(FIXTURE, path), 'utf8')) as T;

/**
 * The repository's definitions plus the crate fixture (fixtures/crate): a master entity `crate`
 * whose life cycle is the `crate` workflow (with a log entity), and two operations over crates
 * (`crate_shipment` with a registered vehicle, `crate_return` with no deposit field).
 * The entities are loaded like any definition; the workflows and the keys listing operations
 * are added sanitised the way the loader does, since they use vocabulary (transitionRecords,
 * log, registered, operations, workflows over master entities) the checks of this branch's
 * meta-schema and cross-references do not know yet.
 */
export function crateRegistry(): Registry {
  const root = mkdtempSync(join(tmpdir(), 'tm-crate-defs-'));
  try {
    copyDefinitions(process.cwd(), root);
    for (const file of readdirSync(join(FIXTURE, 'entities'))) cpSync(join(FIXTURE, 'entities', file), join(root, 'schemas/entities', file));
    const keys = json<AccessKeyDef[]>('access-keys.json');
    const accessFile = join(root, 'schemas/access.json');
    const access = JSON.parse(readFileSync(accessFile, 'utf8'));
    access.keys.push(...keys.map(({ operations: _, ...k }) => k));
    writeFileSync(accessFile, JSON.stringify(access));
    const loaded = loadDefinitions(root);
    if (!loaded.registry) throw new Error(JSON.stringify(loaded.problems));
    const reg = loaded.registry;
    const workflows = Object.fromEntries(readdirSync(join(FIXTURE, 'workflows')).map((file) => {
      const wf = sanitiseWorkflow(json<WorkflowDef>(`workflows/${file}`));
      return [wf.name, { ...wf, registered: wf.registered ?? [] }];
    }));
    const byKey = new Map(keys.map((k) => [k.key, k]));
    return deepFreeze({
      ...reg,
      workflows: { ...reg.workflows, ...workflows },
      access: { ...reg.access, keys: reg.access.keys.map((k) => byKey.get(k.key) ?? k) },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export interface CrateWorld {
  company: string;
  customer: string;
  north: string;
  south: string;
  away: string;
  lorry: string;
}

/** Two of our deposits (North, South), a customer with its own deposit, a registered lorry, and warehouse groups North and South. */
export async function seedCrates(store: Store): Promise<CrateWorld> {
  const company = (await store.insert('company', { company_name: 'Agro SA', state: 1 })).id;
  const customer = (await store.insert('company', { company_name: 'Farm Coop', state: 1 })).id;
  const division = async (name: string, company_id: string) => (await store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id, country: 'AR', state: 1,
  })).id;
  const north = await division('North depot', company);
  const south = await division('South depot', company);
  const away = await division('Coop yard', customer);
  await store.insert('group', { name: 'North', access: [], warehouses: [north], state: 1 });
  await store.insert('group', { name: 'South', access: [], warehouses: [south], state: 1 });
  await store.insert('lorry', { plate: 'AB123CD', state: 1 });
  await store.insert('lorry', { plate: 'OLD-001', state: 3 });
  return { company, customer, north, south, away, lorry: 'AB123CD' };
}
