import { useSyncExternalStore } from 'react';

/** A new service worker is waiting: the banner offers to reload into it (never automatic, never mid-form). */
let reload: (() => void) | null = null;
const listeners = new Set<() => void>();

export function updateReady(apply: () => void): void {
  reload = apply;
  for (const l of listeners) l();
}

export function useUpdate(): (() => void) | null {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, () => reload);
}
