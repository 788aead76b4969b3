import { createContext, useContext } from 'react';
import { ApiClient } from '../api/client';
import { cacheTtl } from '../api/cache';
import type { PublicConfig } from '../config/types';
import { loadSession, type Session } from '../auth/session';
import { local, storageKeys, type StorageKeys } from './storage';

/** What every screen may use: the public configuration, the API client and the storage keys. */
export interface Services {
  config: PublicConfig;
  api: ApiClient;
  keys: StorageKeys;
  /** The current session, read by the API client on every request. */
  session: { current: Session | null };
  /** The selected warehouse group name, sent with every request. */
  warehouse: { current: string | null };
}

export function createServices(config: PublicConfig): Services {
  const keys = storageKeys(config.deployment.name);
  const session = { current: loadSession(keys.session) };
  const warehouse = { current: local.get(keys.selectedWarehouse) };
  const api = new ApiClient({
    deploymentName: config.deployment.name,
    cacheTtlMs: cacheTtl(config.deployment.settings.apiCache),
    timeoutMs: config.deployment.settings.apiCache.requestTimeoutMs,
    token: () => session.current?.token ?? null,
    warehouseGroup: () => warehouse.current,
  });
  return { config, api, keys, session, warehouse };
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('ServicesContext is missing');
  return s;
}

export function useSettings() {
  return useServices().config.deployment.settings;
}
