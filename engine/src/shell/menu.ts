import type { Registry } from '../registry/registry';
import { localize, type Lang } from '../text';
import type { CustomMenuEntry } from '../types';
import { canAccess, type Principal } from './access';
import { suffixDuplicateNames, type RouteEntry } from './routes';

export interface MenuItem {
  id: string;
  label: string;
  path?: string;
  icon?: string;
  newTab?: boolean;
  children?: MenuItem[];
}

function item(r: RouteEntry): MenuItem {
  return { id: r.id, label: r.name, path: r.path, icon: r.icon, newTab: r.newTab || undefined };
}

/**
 * SPEC 2.1 and 6: the side menu from the route table. No-menu routes are hidden, entries are
 * filtered by access, and a group shows only when one of its children is permitted. A
 * custom menu from the deployment settings replaces the generated one.
 */
export function buildMenu(reg: Registry, routes: RouteEntry[], p: Principal, lang: Lang = 'en'): MenuItem[] {
  const allowed = (key: string | undefined, customerModule = false) =>
    canAccess(p, { key, customerModule }, reg.access.superadmin);
  const custom = reg.deployment.settings.customMenu;
  if (custom) return customMenu(custom, routes, allowed, lang);

  const visible = routes.filter((r) => !r.noMenu && r.path !== '/*' && allowed(r.access, r.customerModule));
  const top: { order: number; item: MenuItem }[] = [];
  const groups = [...reg.features.groups].sort((a, b) => a.order - b.order);
  const named = suffixDuplicateNames(groups.map((g) => ({ ...g, name: localize(g.label, lang) })));
  for (const g of named) {
    const children = visible.filter((r) => r.group === g.id).sort((a, b) => a.order - b.order).map(item);
    if (children.length > 0) top.push({ order: g.order, item: { id: g.id, label: g.name, icon: g.icon, children } });
  }
  for (const r of visible.filter((x) => x.group === undefined)) top.push({ order: -1, item: item(r) });
  return top.sort((a, b) => a.order - b.order).map((t) => t.item);
}

function customMenu(
  entries: readonly CustomMenuEntry[], routes: RouteEntry[], allowed: (key: string | undefined) => boolean, lang: Lang,
): MenuItem[] {
  const out: MenuItem[] = [];
  for (const e of entries) {
    if (!allowed(e.access)) continue;
    const route = routes.find((r) => r.path === e.path || r.id === e.id);
    const label = e.label ? localize(e.label, lang) : route?.name ?? e.id;
    if (e.children) {
      const children = customMenu(e.children, routes, allowed, lang);
      if (children.length > 0) out.push({ id: e.id, label, path: e.path, children });
    } else if (e.path) {
      out.push({ id: e.id, label, path: e.path, icon: route?.icon, newTab: /^https?:\/\//.test(e.path) || undefined });
    }
  }
  return out;
}

/** The group a path belongs to, so the menu opens it on load (SPEC 2.1). */
export function activeGroupOf(menu: MenuItem[], pathname: string): string | undefined {
  return menu.find((g) => g.children?.some((c) => c.path !== undefined && (pathname === c.path || pathname.startsWith(`${c.path}/`))))?.id;
}
