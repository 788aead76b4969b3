import { createContext, useContext } from 'react';
import type { WarehouseGroup } from '../../../engine/src/index';

export interface WarehouseValue {
  /** null while the groups load. */
  groups: WarehouseGroup[] | null;
  selected: WarehouseGroup | null;
  /** The group access is narrowed by: the saved name until the groups load, then the restored one. */
  selectedName: string | null;
  /** Saves the choice and reloads the page (SPEC 4). */
  select(name: string): void;
  /** Forgets the choice and reloads (the frame's clearSelectedWarehouse). */
  clear(): void;
}

export const WarehouseContext = createContext<WarehouseValue | null>(null);

export function useWarehouse(): WarehouseValue {
  const w = useContext(WarehouseContext);
  if (!w) throw new Error('WarehouseContext is missing');
  return w;
}
