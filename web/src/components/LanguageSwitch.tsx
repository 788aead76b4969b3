import { useTranslation } from 'react-i18next';
import type { Lang } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { useLanguage } from '../i18n/useLanguage';
import { isLang } from '../i18n/language';

/** A compact language choice for the screens before sign-in (hidden when the deployment says so). */
export function LanguageSwitch({ languages }: { languages: readonly string[] }) {
  const { t } = useTranslation();
  const [lang, setLang] = useLanguage();
  const { keys } = useServices();
  // The choice made here is the user's latest: the profile takes it after sign-in.
  const choose = (l: Lang) => {
    setLang(l);
    local.set(keys.languagePending, l);
  };
  const offered = languages.filter(isLang) as Lang[];
  return (
    <div className="tm-langswitch" role="group" aria-label={t('language.menu')}>
      {offered.map((l) => (
        <button
          key={l} type="button" lang={l} className={`tm-langswitch__item${l === lang ? ' is-active' : ''}`}
          aria-pressed={l === lang} title={t(`language.${l}`)} onClick={() => choose(l)}
        >
          {l.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
