import { describe, expect, it } from 'vitest';
import { placeholders } from '../../../../engine/src/index';
import { STRINGS } from './strings';

describe('mobile strings', () => {
  it('hold every key in English, Spanish and French, with the same placeholders and no blank', () => {
    const keys = Object.keys(STRINGS.en).sort();
    for (const lang of ['es', 'fr'] as const) {
      expect(Object.keys(STRINGS[lang]).sort()).toEqual(keys);
      for (const k of keys) {
        const text = STRINGS[lang][k as keyof typeof STRINGS.en];
        expect(text.trim(), `${lang} ${k}`).not.toBe('');
        expect(placeholders(text).sort(), `${lang} ${k}`).toEqual(placeholders(STRINGS.en[k as keyof typeof STRINGS.en]).sort());
      }
    }
  });
});
