import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { useLanguage } from '../i18n/useLanguage';
import { useAuth } from '../auth/auth';
import { Brand, BrandMark } from './Brand';
import { LanguageSwitch } from './LanguageSwitch';

/**
 * The frame of the screens a visitor sees before signing in: a brand panel and a card.
 * Signed in (a reset link opened in the shell), only the card is drawn.
 */
export function AuthLayout({ children, overlay }: { children: ReactNode; overlay?: ReactNode }) {
  const { t } = useTranslation();
  const { config } = useServices();
  const { status } = useAuth();
  const [lang] = useLanguage();
  // index.html's title is English; before sign-in the shell does not set one.
  useEffect(() => { if (status !== 'signedIn') document.title = t('app.name'); }, [status, t]);
  const settings = config.deployment.settings;
  const card = (
    <section className="tm-auth__card">
      {overlay}
      {children}
    </section>
  );
  if (status === 'signedIn') return <div className="tm-auth tm-auth--embedded">{card}</div>;
  return (
    <div className="tm-auth">
      <aside className="tm-auth__panel" aria-hidden="true">
        <div className="tm-auth__panel-inner">
          <BrandMark size={44} />
          <p className="tm-auth__panel-title">{t('app.name')}</p>
          <p className="tm-auth__panel-text">{t('signIn.tagline')}</p>
          <ul className="tm-auth__panel-list">
            <li><i className="pi pi-box" /> {t('signIn.highlight.traceability')}</li>
            <li><i className="pi pi-sync" /> {t('signIn.highlight.containers')}</li>
            <li><i className="pi pi-globe" /> {t('signIn.highlight.sustainability')}</li>
          </ul>
        </div>
      </aside>
      <main className="tm-auth__main">
        <header className="tm-auth__top">
          <Brand logo={settings.logo} />
          {!settings.languages.hideSelection && <LanguageSwitch languages={settings.languages.menu} />}
        </header>
        {card}
        <footer className="tm-auth__footer">
          {localize(config.deployment.label, lang)}
        </footer>
      </main>
    </div>
  );
}
