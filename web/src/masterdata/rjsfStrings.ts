import type { TFunction } from 'i18next';
import { englishStringTranslator, replaceStringParameters, TranslatableString } from '@rjsf/utils';

const NAMES = new Map(Object.entries(TranslatableString).map(([name, text]) => [text as string, name]));

/**
 * RJSF's own texts (an array's "Add Item" button, move and remove buttons…) in the interface
 * language, from the bundles' `form.rjsf.<TranslatableString name>` keys (`%1` marks a value);
 * a text no bundle has stays RJSF's English.
 */
export function rjsfTranslator(t: TFunction): (s: TranslatableString, params?: string[]) => string {
  return (s, params) => {
    const name = NAMES.get(s);
    const text = name ? t(`form.rjsf.${name}`, { defaultValue: '' }) : '';
    return text ? replaceStringParameters(text, params) : englishStringTranslator(s, params);
  };
}
