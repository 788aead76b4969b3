import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { I18nBundle, Lang } from '../../../engine/src/index';

/**
 * One i18next instance from the deployment's flat bundles (`{{value}}` placeholders); a key
 * missing in French or Spanish falls back to English.
 */
export async function createI18n(bundles: Partial<Record<Lang, I18nBundle>>, lng: Lang): Promise<I18n> {
  const instance = i18next.createInstance();
  const langs: Lang[] = ['en', 'es', 'fr'];
  const resources = Object.fromEntries(
    langs.map((l) => [l, { translation: bundles[l] ?? {} }]),
  );
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    supportedLngs: langs,
    resources,
    keySeparator: false,
    nsSeparator: false,
    returnNull: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}
