import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';

/** Busy and error state of a sign-in-side form: one submission at a time, its error shown as text. */
export function useAuthSubmit(initialError: string | null = null) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

/** The live region screen readers announce errors from. */
export function ErrorArea({ error }: { error: string | null }) {
  return (
    <div className="tm-error-area" role="alert" aria-live="assertive">
      {error && <div className="tm-inline-error"><i className="pi pi-exclamation-circle" aria-hidden="true" /><span>{error}</span></div>}
    </div>
  );
}

export function InlineSuccess({ icon, testId, children }: { icon: string; testId: string; children: ReactNode }) {
  return (
    <div className="tm-inline-success" role="status" data-testid={testId}>
      <i className={`pi ${icon}`} aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}
