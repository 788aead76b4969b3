import { createContext, useContext } from 'react';
import type { GoToPayload } from '../frame/messages';
import type { TraceApi } from './api';

/** What the trace screens share: the trace routes, the selected group (traces are fetched again when it changes) and the shell's goTo. */
export interface TraceContextValue {
  trace: TraceApi;
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

export const TraceContext = createContext<TraceContextValue | null>(null);

export function useTrace(): TraceContextValue {
  const v = useContext(TraceContext);
  if (!v) throw new Error('TraceContext is missing');
  return v;
}
