import type { RouteEntry } from '../../../engine/src/index';

/** The route a pathname shows: the longest route path equal to it or above it (`/imports/12` → `/imports`). */
export function currentRoute(routes: readonly RouteEntry[], pathname: string): RouteEntry | undefined {
  let best: RouteEntry | undefined;
  for (const r of routes) {
    if (r.newTab || r.path === '/*') continue;
    const hit = r.path === '/' ? pathname === '/' : pathname === r.path || pathname.startsWith(`${r.path}/`);
    if (hit && (!best || r.path.length > best.path.length)) best = r;
  }
  return best;
}
