/** A warehouse group as the customer module answers it (SPEC 3.4). */
export interface RawWarehouseGroup {
  name: string;
  description?: string;
  warehouseList?: RawWarehouse[];
}

export interface RawWarehouse {
  depositId: string | number;
  id: string | number;
  divisionName: string;
  erpId?: string | number;
  depositPlantId?: string | number | null;
  companyId?: string | number;
}

export interface Warehouse {
  id: string | number;
  optchainId: string | number;
  name: string;
  label: string;
  plantId: string | number | null;
  companyId?: string | number;
  erpId?: string | number;
}

export interface WarehouseGroup {
  name: string;
  description?: string;
  warehouseList: Warehouse[];
}

export function mapWarehouse(w: RawWarehouse): Warehouse {
  return {
    id: w.depositId,
    optchainId: w.id,
    name: w.divisionName,
    label: w.erpId === undefined || w.erpId === '' ? w.divisionName : `${w.divisionName} (${w.erpId})`,
    plantId: w.depositPlantId ?? null,
    companyId: w.companyId,
    erpId: w.erpId,
  };
}

/** Maps the groups and drops those with no warehouse. */
export function mapWarehouseGroups(groups: RawWarehouseGroup[] | undefined | null): WarehouseGroup[] {
  return (groups ?? [])
    .filter((g) => (g.warehouseList?.length ?? 0) > 0)
    .map((g) => ({ name: g.name, description: g.description, warehouseList: g.warehouseList!.map(mapWarehouse) }));
}

/** SPEC 4: restore the saved group by name if still present, else the first, else none. */
export function restoreWarehouseSelection(groups: WarehouseGroup[], savedName: string | null | undefined): WarehouseGroup | null {
  return groups.find((g) => g.name === savedName) ?? groups[0] ?? null;
}

/** The browser storage key of the selected group: prefixed with the deployment name. */
export function selectedWarehouseKey(deploymentName: string): string {
  return `${deploymentName}.selectedWarehouse`;
}
