import { createContext, useContext } from 'react';
import type { GoToPayload } from '../frame/messages';
import type { ReportsApi } from './api';

/** What the report screens of the frame share: the report routes and the shell's goTo. */
export interface ReportsContextValue {
  reports: ReportsApi;
  /** The selected group's name: rows and counts are fetched again when it changes. */
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

export const ReportsContext = createContext<ReportsContextValue | null>(null);

export function useReports(): ReportsContextValue {
  const v = useContext(ReportsContext);
  if (!v) throw new Error('ReportsContext is missing');
  return v;
}
