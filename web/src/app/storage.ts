import { selectedWarehouseKey } from '../../../engine/src/index';

/** Browser storage keys, all prefixed with the deployment name (SPEC 3.4, 7). */
export function storageKeys(deploymentName: string) {
  return {
    session: `${deploymentName}.session`,
    lastEmail: `${deploymentName}.lastEmail`,
    language: `${deploymentName}.language`,
    /** A language chosen before sign-in, not yet saved to the profile. */
    languagePending: `${deploymentName}.languagePending`,
    selectedWarehouse: selectedWarehouseKey(deploymentName),
  } as const;
}

export type StorageKeys = ReturnType<typeof storageKeys>;

/** localStorage that never throws (private windows, disabled storage). */
export const local = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      // Not remembered; nothing else depends on it.
    }
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing to remove.
    }
  },
};
