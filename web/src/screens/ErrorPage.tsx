import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { ScreenProps } from './types';

/** The error page (SPEC 2.3), also shown when a screen fails to render. */
export default function ErrorPage({ onRetry }: ScreenProps & { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="tm-empty" data-testid="error-page">
      <div className="tm-empty__icon" aria-hidden="true"><i className="pi pi-exclamation-triangle" /></div>
      <h1 className="tm-empty__title">{t('errorPage.title')}</h1>
      <p className="tm-empty__text">{t('errorPage.message')}</p>
      <div className="tm-empty__actions">
        <Button label={t('errorPage.retry')} icon="pi pi-refresh" onClick={onRetry ?? (() => window.location.reload())} />
        <Button label={t('notFound.home')} icon="pi pi-home" outlined onClick={() => window.location.assign('/')} />
      </div>
    </section>
  );
}
