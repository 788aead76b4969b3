import { LANGS, type Lang } from '../../../engine/src/index';
import { initialLanguage } from '../i18n/language';

/**
 * What the page says when the configuration (and with it every text bundle) could not be
 * loaded: the bundles are not there to ask, so these few words travel with the code, in
 * every offered language, in the language the browser prefers.
 */
const TEXTS: Record<Lang, { title: string; retry: string }> = {
  en: { title: 'The application could not start', retry: 'Try again' },
  es: { title: 'La aplicación no pudo iniciarse', retry: 'Reintentar' },
  fr: { title: "L'application n'a pas pu démarrer", retry: 'Réessayer' },
};

export function bootFailureTexts(browser: readonly string[]): { lang: Lang; title: string; retry: string } {
  const lang = initialLanguage({ browser, offered: LANGS });
  return { lang, ...TEXTS[lang] };
}
