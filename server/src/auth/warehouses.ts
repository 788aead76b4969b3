import type { RawWarehouse, RawWarehouseGroup } from '../../../engine/src/index';
import type { Store, StoredDoc } from '../store/types';
import { strings } from './policy';

/**
 * A company division as the customer module's warehouse item (SPEC 3.4): depositId is the
 * authority's deposit id when the division has one (what the traceability features send to
 * SENASA), else our id; id is always our id.
 */
export function toWarehouse(d: StoredDoc): RawWarehouse {
  const item: RawWarehouse = {
    depositId: typeof d.senasa_division_id === 'string' && d.senasa_division_id ? d.senasa_division_id : d.id,
    id: d.id,
    divisionName: String(d.division_name ?? ''),
    erpId: typeof d.erp_id === 'string' ? d.erp_id : undefined,
    companyId: typeof d.company_id === 'string' ? d.company_id : undefined,
  };
  if (typeof d.deposit_plant_id === 'string' && d.deposit_plant_id) item.depositPlantId = d.deposit_plant_id;
  return item;
}

/**
 * The warehouse groups a user may pick from: the user's groups (every group for a superadmin),
 * each with the company divisions it holds, disabled groups and divisions left out. Groups
 * holding nothing are kept: the engine's mapWarehouseGroups drops them on the web (SPEC 3.4).
 */
export async function warehouseGroupsFor(store: Store, user: StoredDoc, superadmin: boolean): Promise<RawWarehouseGroup[]> {
  const groups = superadmin
    ? await store.find('group', { filter: { state: { $ne: 3 } }, sort: { name: 1 } })
    : (await store.find('group', { filter: { id: { $in: strings(user.groups) } }, sort: { name: 1 } })).filter((g) => g.state !== 3);
  const divisionIds = [...new Set(groups.flatMap((g) => strings(g.warehouses)))];
  const divisions = divisionIds.length
    ? new Map((await store.find('company_division', { filter: { id: { $in: divisionIds } } })).filter((d) => d.state !== 3).map((d) => [d.id, d]))
    : new Map<string, StoredDoc>();
  return groups.map((g) => ({
    name: String(g.name),
    description: typeof g.description === 'string' ? g.description : '',
    warehouseList: strings(g.warehouses).flatMap((id) => { const d = divisions.get(id); return d ? [toWarehouse(d)] : []; }),
  }));
}
