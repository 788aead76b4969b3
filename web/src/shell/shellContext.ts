import { createContext, useContext } from 'react';
import type { Lang, MenuItem, Principal, Registry, RouteEntry } from '../../../engine/src/index';

/** The definitions and what the engine derives from them for this user and language. */
export interface ShellValue {
  registry: Registry;
  lang: Lang;
  /** Every route of the deployment (engine buildRouteTable). */
  routes: RouteEntry[];
  /** The routes this user may open (engine routesFor). */
  allowed: RouteEntry[];
  /** The side menu (engine buildMenu). */
  menu: MenuItem[];
  principal: Principal;
}

export const ShellContext = createContext<ShellValue | null>(null);

export function useShell(): ShellValue {
  const s = useContext(ShellContext);
  if (!s) throw new Error('ShellContext is missing');
  return s;
}
