import { useMemo, type ReactNode } from 'react';
import { buildMenu, buildRouteTable, routesFor, type Principal, type Registry } from '../../../engine/src/index';
import { useAuth } from '../auth/auth';
import { useLanguage } from '../i18n/useLanguage';
import { ShellContext, type ShellValue } from './shellContext';
import { useWarehouse } from './warehouseContext';

/** Feeds the registry, the user's access and the selected warehouse to the engine's shell functions. */
export function ShellProvider({ registry, children }: { registry: Registry; children: ReactNode }) {
  const { access } = useAuth();
  const { selectedName } = useWarehouse();
  const [lang] = useLanguage();
  const principal = useMemo<Principal>(
    () => ({ access: access.access, groups: access.groups, selectedWarehouse: selectedName }),
    [access.access, access.groups, selectedName],
  );
  const value = useMemo<ShellValue>(() => {
    const routes = buildRouteTable(registry, lang);
    return {
      registry, lang, routes, principal,
      allowed: routesFor(routes, principal, registry.access.superadmin),
      menu: buildMenu(registry, routes, principal, lang),
    };
  }, [registry, lang, principal]);
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}
