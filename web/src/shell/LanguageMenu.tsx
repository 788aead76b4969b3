import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { useServices } from '../app/services';
import { useFrame } from '../frame/frameContext';
import { isLang } from '../i18n/language';
import { useLanguage } from '../i18n/useLanguage';
import { useProfile } from './profileContext';

/** SPEC 2.1: en, fr or es; choosing one sets the locale, saves it to the profile and tells the frame. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const { config } = useServices();
  const frame = useFrame();
  const [lang] = useLanguage();
  const { chooseLanguage } = useProfile();
  const menu = useRef<Menu>(null);
  const items: MenuItem[] = config.deployment.settings.languages.menu.filter(isLang).map((l) => ({
    label: t(`language.${l}`),
    icon: l === lang ? 'pi pi-check' : 'pi pi-fw',
    className: l === lang ? 'is-current' : undefined,
    data: { lang: l },
    command: () => {
      chooseLanguage(l);
      frame.post({ type: 'languagePref', payload: { language: l } });
    },
  }));
  return (
    <>
      <button
        type="button" className="tm-header__button" aria-haspopup="menu" aria-controls="tm-language-menu"
        title={t('language.menu')} data-testid="language-button" onClick={(e) => menu.current?.toggle(e)}
      >
        <i className="pi pi-globe" aria-hidden="true" />
        <span className="tm-visually-hidden">{t('language.menu')}: {t(`language.${lang}`)}</span>
        <span className="tm-header__code" aria-hidden="true">{lang.toUpperCase()}</span>
      </button>
      <Menu model={items} popup ref={menu} id="tm-language-menu" popupAlignment="right" />
    </>
  );
}
