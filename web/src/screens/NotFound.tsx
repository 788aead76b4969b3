import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { useAppNavigate } from '../frame/navigation';

/** Any path no route matches (SPEC 2.3). */
export default function NotFound() {
  const { t } = useTranslation();
  const navigate = useAppNavigate();
  return (
    <section className="tm-empty" data-testid="not-found">
      <div className="tm-empty__code" aria-hidden="true">404</div>
      <h1 className="tm-empty__title">{t('notFound.title')}</h1>
      <p className="tm-empty__text">{t('notFound.message')}</p>
      <Button label={t('notFound.home')} icon="pi pi-home" onClick={() => navigate('/')} />
    </section>
  );
}
