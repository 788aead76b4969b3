import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { homeRoute } from '../../../engine/src/index';
import { useAppNavigate } from '../frame/navigation';
import { useShell } from '../shell/shellContext';

/** `/`: straight to the accessible feature with the highest home priority (SPEC 2.3). */
export default function IncomingNavigation() {
  const { t } = useTranslation();
  const { allowed } = useShell();
  const navigate = useAppNavigate();
  const home = homeRoute(allowed);
  useEffect(() => {
    if (home) navigate(home.path, { replace: true });
  }, [home, navigate]);
  return (
    <section className="tm-empty" data-testid={home ? 'redirecting' : 'no-feature'}>
      <div className="tm-empty__icon" aria-hidden="true"><i className={home ? 'pi pi-spin pi-spinner' : 'pi pi-lock'} /></div>
      <p className="tm-empty__text">{t(home ? 'incomingNavigation.redirecting' : 'incomingNavigation.noFeature')}</p>
    </section>
  );
}
