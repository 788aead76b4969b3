import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { registerSW } from 'virtual:pwa-register';
import { createI18n } from '../../src/i18n/i18n';
import { initialLanguage } from '../../src/i18n/language';
import { LANGS } from '../../../engine/src/index';
import { App } from './App';
import { openMobileDb } from './db';
import { STRINGS } from './i18n/strings';
import { Mobile, MobileContext } from './services';
import { updateReady } from './update';
import './styles.css';

/** Boots the mobile app: language (chosen, else the device's), the device store, the service worker. */
async function boot(): Promise<void> {
  const lang = initialLanguage({ chosen: Mobile.chosenLang(), browser: navigator.languages ?? [navigator.language], offered: LANGS });
  document.documentElement.lang = lang;
  const [i18n, db] = await Promise.all([createI18n(STRINGS, lang), openMobileDb()]);
  const mobile = new Mobile(db, lang);
  mobile.subscribe(() => {
    if (i18n.language !== mobile.lang) {
      void i18n.changeLanguage(mobile.lang);
      document.documentElement.lang = mobile.lang;
    }
  });
  mobile.start();
  if ('serviceWorker' in navigator) {
    const update = registerSW({ onNeedRefresh: () => updateReady(() => void update(true)) });
  }
  createRoot(document.getElementById('root')!).render(
    <I18nextProvider i18n={i18n}>
      <MobileContext.Provider value={mobile}>
        <App />
      </MobileContext.Provider>
    </I18nextProvider>,
  );
}

void boot();
