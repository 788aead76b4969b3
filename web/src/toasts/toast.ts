import { createContext, useContext } from 'react';

export type ToastSeverity = 'info' | 'warn' | 'error' | 'success';

/** SPEC 3.4: a toast message; `action.hide` closes the toast after the callback ran. */
export interface ToastOptions {
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  life?: number;
  action?: { label: string; className?: string; callback: () => void; hide?: boolean };
}

export type ShowToast = (toast: ToastOptions) => void;

export const ToastContext = createContext<ShowToast>(() => {
  throw new Error('ToastContext is missing: wrap the screen in <ToastProvider>');
});

export function useToast(): ShowToast {
  return useContext(ToastContext);
}
