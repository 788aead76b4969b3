import type { Registry } from '../registry/registry';
import { localize, type Lang } from '../text';
import type { NavigationDef } from '../types';
import { canAccess, type Principal } from './access';

export interface RouteEntry {
  id: string;
  path: string;
  name: string;
  kind: 'fixed' | 'feature';
  render: 'fixed' | 'external' | 'generated';
  screen?: string;
  entity?: string;
  group?: string;
  access?: string;
  customerModule: boolean;
  frameData: boolean;
  noMenu: boolean;
  noAuth: boolean;
  hideNavbar: boolean;
  /** An http path: the menu opens it in a new tab. */
  newTab: boolean;
  icon?: string;
  pathSuffix?: string;
  src?: string;
  homePriority: number;
  order: number;
  navigation: NavigationDef[];
}

/**
 * SPEC 2.3: the fixed routes plus the routes of deployed features (or forced ones) whose
 * required extensions are enabled; equal display names get (2), (3)… in order.
 */
export function buildRouteTable(reg: Registry, lang: Lang = 'en'): RouteEntry[] {
  const enabled = new Set(Object.values(reg.deployment.extensions).flat());
  const fixed: RouteEntry[] = reg.features.routes.map((r, i) => ({
    id: r.id, path: r.path, name: localize(r.name, lang), kind: 'fixed', render: 'fixed', screen: r.screen,
    group: r.group, access: r.access, customerModule: false, frameData: false,
    noMenu: r.noMenu === true || (r.screen === 'globalSearch' && !(reg.deployment.settings.globalSearch?.length)),
    noAuth: r.noAuth === true, hideNavbar: r.hideNavbar === true, newTab: false, icon: r.icon,
    homePriority: 0, order: r.order ?? i, navigation: [],
  }));
  const features: RouteEntry[] = reg.features.features
    .filter((f) => (reg.deployment.features[f.id] === true || f.force === true)
      && (f.requiresExtensions ?? []).every((e) => enabled.has(e)))
    .map((f, i) => ({
      id: f.id, path: f.path, name: localize(f.name, lang), kind: 'feature', render: f.render, screen: f.screen,
      entity: f.entity, group: f.group, access: f.access, customerModule: f.customerModule === true,
      frameData: f.frameData === true, noMenu: f.noMenu === true, noAuth: f.noAuth === true,
      hideNavbar: f.hideNavbar === true, newTab: /^https?:\/\//.test(f.path), icon: f.icon, pathSuffix: f.pathSuffix,
      src: f.src, homePriority: f.homePriority ?? 0, order: f.order ?? i, navigation: f.navigation ?? [],
    }));
  // The catch-all route must stay last for routers that match in order.
  const all = [...fixed.filter((r) => r.path !== '/*'), ...features, ...fixed.filter((r) => r.path === '/*')];
  return suffixDuplicateNames(all);
}

export function suffixDuplicateNames<T extends { name: string }>(entries: T[]): T[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const n = (seen.get(e.name) ?? 0) + 1;
    seen.set(e.name, n);
    return n === 1 ? e : { ...e, name: `${e.name} (${n})` };
  });
}

/** Routes a user may open: no-auth routes, and the rest when their access allows. */
export function routesFor(routes: RouteEntry[], p: Principal | null, superadmin?: string): RouteEntry[] {
  return routes.filter((r) => r.noAuth || (p !== null && canAccess(p, { key: r.access, customerModule: r.customerModule }, superadmin)));
}

export type GoToResult = { path: string; route?: RouteEntry } | null;

/**
 * SPEC 7 goTo: home goes to /; otherwise the lowest-ordered route declaring navigation for
 * the type, else a route whose id equals the type, else nothing (the caller warns).
 */
export function resolveGoTo(routes: RouteEntry[], type: string): GoToResult {
  if (type === 'home') return { path: '/' };
  let best: { route: RouteEntry; order: number } | undefined;
  for (const r of routes) {
    for (const n of r.navigation) {
      if (n.type === type && (!best || n.order < best.order)) best = { route: r, order: n.order };
    }
  }
  const route = best?.route ?? routes.find((r) => r.id === type);
  return route ? { path: route.path, route } : null;
}

/** The incoming-navigation target: the accessible feature with the highest home priority. */
export function homeRoute(routes: RouteEntry[]): RouteEntry | undefined {
  return routes
    .filter((r) => r.kind === 'feature' && !r.newTab && r.homePriority > 0)
    .sort((a, b) => b.homePriority - a.homePriority)[0]
    ?? routes.find((r) => r.kind === 'feature' && !r.noMenu && !r.newTab);
}
