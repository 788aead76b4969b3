import { useTranslation } from 'react-i18next';
import { LANGS } from '../../../../engine/src/index';
import { LANGUAGE_NAMES } from '../i18n/strings';
import { useMobile } from '../services';
import type { Lang } from '../types';

export function LanguageSelect() {
  const m = useMobile();
  const { t } = useTranslation();
  return (
    <label>{t('menu.language')}
      <select name="language" value={m.lang} onChange={(e) => m.setLang(e.target.value as Lang)}>
        {LANGS.map((l) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
      </select>
    </label>
  );
}
