import { describe, expect, it } from 'vitest';
import { LANGS } from '../../../engine/src/index';
import { bootFailureTexts } from './bootFailure';

describe('the start-up failure screen', () => {
  it('speaks the browser language when it is offered, English otherwise', () => {
    expect(bootFailureTexts(['es-AR', 'en'])).toMatchObject({ lang: 'es', retry: 'Reintentar' });
    expect(bootFailureTexts(['fr-FR'])).toMatchObject({ lang: 'fr', title: "L'application n'a pas pu démarrer" });
    expect(bootFailureTexts(['de-DE'])).toMatchObject({ lang: 'en', title: 'The application could not start' });
  });

  it('has its words in every offered language, each its own', () => {
    const titles = LANGS.map((l) => bootFailureTexts([l]).title);
    expect(new Set(titles).size).toBe(LANGS.length);
  });
});
