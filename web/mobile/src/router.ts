import { useSyncExternalStore } from 'react';

/** The app's views and their addresses under /m/. */
export type View = { name: 'home' } | { name: 'feature'; id: string } | { name: 'sync' } | { name: 'menu' };

export const BASE = '/m/';

export function parseView(pathname: string): View {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '';
  const [head, id] = rest.split('/');
  if (head === 'f' && id) return { name: 'feature', id: decodeURIComponent(id) };
  if (head === 'sync') return { name: 'sync' };
  if (head === 'menu') return { name: 'menu' };
  return { name: 'home' };
}

export function pathOf(view: View): string {
  if (view.name === 'feature') return `${BASE}f/${encodeURIComponent(view.id)}`;
  return view.name === 'home' ? BASE : `${BASE}${view.name}`;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

export function navigate(view: View): void {
  if (location.pathname !== pathOf(view)) history.pushState(null, '', pathOf(view));
  window.scrollTo(0, 0);
  notify();
}

export function useView(): View {
  const path = useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, () => location.pathname);
  return parseView(path);
}
