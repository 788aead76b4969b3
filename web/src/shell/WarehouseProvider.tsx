import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { mapWarehouseGroups, restoreWarehouseSelection, type RawWarehouseGroup, type WarehouseGroup } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { WarehouseContext, type WarehouseValue } from './warehouseContext';

interface GroupsAnswer {
  data?: { wareHouses?: RawWarehouseGroup[] };
}

/** The user's warehouse groups, with the saved selection restored by group name (SPEC 3.4, 4). */
export function WarehouseProvider({ children, reload = () => window.location.reload() }: { children: ReactNode; reload?: () => void }) {
  const services = useServices();
  const { api, keys } = services;
  const [groups, setGroups] = useState<WarehouseGroup[] | null>(null);
  const [selected, setSelected] = useState<WarehouseGroup | null>(null);
  // Until the groups load, the saved choice narrows access, so a reload shows no other access first.
  const [selectedName, setSelectedName] = useState<string | null>(services.warehouse.current);

  useEffect(() => {
    let live = true;
    api.get<GroupsAnswer>('/api/customer/groups')
      .then((a) => {
        if (!live) return;
        const mapped = mapWarehouseGroups(a.data?.wareHouses);
        const saved = local.get(keys.selectedWarehouse);
        const restored = restoreWarehouseSelection(mapped, saved);
        // The feature frames read the selection where it is saved: the group shown here (the first
        // one when none was chosen) is then the one every screen narrows by, not only the shell's.
        if (restored && restored.name !== saved) local.set(keys.selectedWarehouse, restored.name);
        services.warehouse.current = restored?.name ?? null;
        setGroups(mapped);
        setSelected(restored);
        setSelectedName(restored?.name ?? null);
      })
      .catch((e: unknown) => {
        console.error('getGroups failed', e);
        if (live) setGroups([]);
      });
    return () => {
      live = false;
    };
  }, [api, keys.selectedWarehouse, services]);

  const select = useCallback((name: string) => {
    local.set(keys.selectedWarehouse, name);
    services.warehouse.current = name;
    reload();
  }, [keys.selectedWarehouse, services, reload]);

  const clear = useCallback(() => {
    local.remove(keys.selectedWarehouse);
    services.warehouse.current = null;
    reload();
  }, [keys.selectedWarehouse, services, reload]);

  const value = useMemo<WarehouseValue>(() => ({ groups, selected, selectedName, select, clear }), [groups, selected, selectedName, select, clear]);
  return <WarehouseContext.Provider value={value}>{children}</WarehouseContext.Provider>;
}
