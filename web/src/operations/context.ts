import { createContext, useContext } from 'react';
import type { WarehouseGroup } from '../../../engine/src/index';
import type { GoToPayload } from '../frame/messages';
import type { IbcApi, OperationsApi } from './api';
import type { OperationView } from './model';

/** What every operation screen of the frame shares: the feature's workflow, the API, the shell's warehouse. */
export interface OperationContextValue {
  view: OperationView;
  ops: OperationsApi;
  /** The IBC routes: measures, look-ups, an IBC's events. */
  ibc: IbcApi;
  warehouse: WarehouseGroup | null;
  /** The selected group's name: lists and records are fetched again when it changes. */
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

export const OperationContext = createContext<OperationContextValue | null>(null);

export function useOperation(): OperationContextValue {
  const v = useContext(OperationContext);
  if (!v) throw new Error('OperationContext is missing');
  return v;
}
