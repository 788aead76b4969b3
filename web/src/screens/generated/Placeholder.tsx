import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page';
import type { ScreenProps } from '../types';

/** A generated feature whose screen is not built yet, and the explicit fallback of the screen registry. */
export default function Placeholder({ route }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      <div className="tm-empty tm-empty--inline" data-testid="placeholder-screen" data-screen={route?.screen ?? ''}>
        <div className="tm-empty__icon" aria-hidden="true"><i className="pi pi-objects-column" /></div>
        <h2 className="tm-empty__title">{t('screen.placeholder.title')}</h2>
        <p className="tm-empty__text">{t('screen.placeholder.message')}</p>
      </div>
    </Page>
  );
}
