import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMobile } from '../services';

/** The mobile terms (SPEC 2.6, 9: version 2), asked once: accepting posts the version; declining signs out. */
export function Terms({ version, onAccepted }: { version: number; onAccepted: (version: number) => void }) {
  const m = useMobile();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await m.acceptTerms(version);
      onAccepted(version);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <section className="card stack" aria-labelledby="terms-heading">
      <h2 id="terms-heading">{t('terms.heading')}</h2>
      <p className="muted">{t('terms.version', { version })}</p>
      <p>{t('terms.intro')}</p>
      <ul>
        <li><a href="/terms-and-conditions" target="_blank" rel="noreferrer">{t('terms.doc.terms')}</a></li>
        <li><a href="/terms-and-conditions#general-conditions" target="_blank" rel="noreferrer">{t('terms.doc.general')}</a></li>
        <li><a href="/terms-and-conditions#privacy-policy" target="_blank" rel="noreferrer">{t('terms.doc.privacy')}</a></li>
      </ul>
      <p className="muted">{t('terms.english')}</p>
      {!m.online ? <p role="status">{t('terms.offline')}</p> : null}
      {error ? <p className="error" role="alert">{error}</p> : null}
      <button type="button" className="btn primary" disabled={busy || !m.online} onClick={() => void accept()}>{t('terms.accept')}</button>
      <button type="button" className="btn" onClick={() => void m.signOut()}>{t('terms.decline')}</button>
    </section>
  );
}
