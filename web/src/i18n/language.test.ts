import { describe, expect, it } from 'vitest';
import { initialLanguage } from './language';

const offered = ['en', 'fr', 'es'];

describe('initialLanguage', () => {
  it('keeps the language the user chose', () => {
    expect(initialLanguage({ chosen: 'es', deploymentDefault: 'en', browser: ['fr-FR'], offered })).toBe('es');
  });

  it('otherwise takes the deployment default, then the first part of the browser language', () => {
    expect(initialLanguage({ deploymentDefault: 'fr', browser: ['es-AR'], offered })).toBe('fr');
    expect(initialLanguage({ deploymentDefault: null, browser: ['de-DE', 'es-AR', 'en'], offered })).toBe('es');
  });

  it('falls back to English for anything not offered', () => {
    expect(initialLanguage({ chosen: 'pt', browser: ['pt-BR'], offered })).toBe('en');
    expect(initialLanguage({ chosen: 'es', offered: ['en'] })).toBe('en');
  });
});
