import { createContext, useContext } from 'react';
import type { GoToPayload } from '../frame/messages';
import type { DashboardsApi } from './api';

/** What a dashboard's widgets share: the data route and the shell's goTo for their links. */
export interface DashboardContextValue {
  api: DashboardsApi;
  goTo: (payload: GoToPayload) => void;
}

export const DashboardContext = createContext<DashboardContextValue | null>(null);

export function useDashboard(): DashboardContextValue {
  const v = useContext(DashboardContext);
  if (!v) throw new Error('DashboardContext is missing');
  return v;
}
