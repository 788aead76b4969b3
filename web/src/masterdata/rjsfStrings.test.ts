import { readFileSync } from 'node:fs';
import { TranslatableString } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { rjsfTranslator } from './rjsfStrings';

const bundle = (l: string) => JSON.parse(readFileSync(`schemas/i18n/${l}.json`, 'utf8')) as Record<string, string>;

describe("RJSF's own texts", () => {
  // Issue 14 item 9: Spanish showed "Add Item" under every list field.
  it('are said in the interface language, values included', async () => {
    const i18n = await createI18n({ en: bundle('en'), es: bundle('es'), fr: bundle('fr') }, 'es');
    const say = rjsfTranslator(i18n.t);
    expect(say(TranslatableString.AddItemButton)).toBe('Agregar elemento');
    expect(say(TranslatableString.OptionPrefix, ['2'])).toBe('Opción 2');
    await i18n.changeLanguage('fr');
    expect(say(TranslatableString.AddItemButton)).toBe('Ajouter un élément');
  });

  it('stay English where no bundle has them', async () => {
    const i18n = await createI18n({ en: {}, es: {} }, 'es');
    expect(rjsfTranslator(i18n.t)(TranslatableString.UnsupportedFieldWithId, ['x'])).toBe('Unsupported field schema for field `x`.');
  });
});
