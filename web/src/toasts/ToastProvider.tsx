import { useCallback, useRef, type ReactNode } from 'react';
import { Toast, type ToastMessage } from 'primereact/toast';
import { Button } from 'primereact/button';
import { ToastContext, type ToastOptions } from './toast';

const ICONS: Record<ToastOptions['severity'], string> = {
  info: 'pi pi-info-circle', warn: 'pi pi-exclamation-triangle', error: 'pi pi-times-circle', success: 'pi pi-check-circle',
};

/** Toasts of SPEC 8: top right, the deployment's life (8000 ms) and base z-index (10000). */
export function ToastProvider({ life, baseZIndex, children }: { life: number; baseZIndex: number; children: ReactNode }) {
  const ref = useRef<Toast>(null);
  const show = useCallback((o: ToastOptions) => {
    const message: ToastMessage = { severity: o.severity, summary: o.summary, detail: o.detail, life: o.life ?? life };
    if (o.action) {
      const action = o.action;
      message.content = () => (
        <div className="tm-toast">
          <i className={`${ICONS[o.severity]} tm-toast__icon`} aria-hidden="true" />
          <div className="tm-toast__text">
            <span className="p-toast-summary">{o.summary}</span>
            {o.detail && <div className="p-toast-detail">{o.detail}</div>}
            <Button
              size="small" text label={action.label} className={`tm-toast__action ${action.className ?? ''}`}
              onClick={() => {
                action.callback();
                if (action.hide) ref.current?.remove(message);
              }}
            />
          </div>
        </div>
      );
    }
    ref.current?.show(message);
  }, [life]);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <Toast ref={ref} position="top-right" baseZIndex={baseZIndex} />
    </ToastContext.Provider>
  );
}
