import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { isLang } from './language';

/** The interface language and a setter that remembers the choice for the next visit. */
export function useLanguage(): [Lang, (lang: Lang) => void] {
  const { i18n } = useTranslation();
  const { keys } = useServices();
  const lang: Lang = isLang(i18n.resolvedLanguage) ? i18n.resolvedLanguage : isLang(i18n.language) ? i18n.language : 'en';
  const set = useCallback((l: Lang) => {
    local.set(keys.language, l);
    document.documentElement.lang = l;
    void i18n.changeLanguage(l);
  }, [i18n, keys.language]);
  return [lang, set];
}
