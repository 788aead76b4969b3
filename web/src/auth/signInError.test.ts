import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { catalogueBundle } from '../../../engine/src/testing/fixtures';
import { ApiRequestError } from '../api/errors';
import { AccountExpiredError } from './auth';
import { signInErrorText } from './signInError';

async function t(lang: 'en' | 'es') {
  const i = i18next.createInstance();
  await i.init({
    lng: lang, fallbackLng: 'en', keySeparator: false, nsSeparator: false, interpolation: { escapeValue: false },
    resources: {
      en: { translation: catalogueBundle() },
      es: { translation: { 'signIn.error.invalidPassword': 'La contraseña no es válida', 'signIn.error.providerNotConfigured': '{{provider}} no está configurado para esta organización' } },
    },
  });
  return i.t.bind(i);
}

describe('signInErrorText', () => {
  it('shows the catalogue message of each sign-in error', async () => {
    const en = await t('en');
    expect(signInErrorText(new ApiRequestError(401, 'SIGN_IN_INVALID_PASSWORD', 'The password is invalid'), en)).toBe('The password is invalid');
    expect(signInErrorText(new ApiRequestError(401, 'SIGN_IN_ACCOUNT_NOT_FOUND', 'Account does not exist'), en)).toBe('Account does not exist');
    expect(signInErrorText(new ApiRequestError(403, 'SIGN_IN_PROVIDER_NOT_CONFIGURED', 'Google not configured for this organization'), en)).toBe('Google not configured for this organization');
    expect(signInErrorText(new AccountExpiredError(), en)).toBe('Your account has expired. Please contact your admin for further support.');
  });

  it('translates them, keeping the provider name', async () => {
    const es = await t('es');
    expect(signInErrorText(new ApiRequestError(401, 'SIGN_IN_INVALID_PASSWORD', 'The password is invalid'), es)).toBe('La contraseña no es válida');
    expect(signInErrorText(new ApiRequestError(403, 'SIGN_IN_PROVIDER_NOT_CONFIGURED', 'SAML not configured for this organization'), es)).toBe('SAML no está configurado para esta organización');
  });

  it('shows any other error as its raw text', async () => {
    const en = await t('en');
    expect(signInErrorText(new ApiRequestError(429, 'RATE_LIMITED', 'Too many attempts; try again in 30 seconds'), en)).toBe('Too many attempts; try again in 30 seconds');
    expect(signInErrorText(new Error('boom'), en)).toBe('boom');
  });
});

describe('signInErrorText with values', () => {
  it('keeps the server text of catalogue messages whose values are not in the answer', async () => {
    const en = await t('en');
    expect(signInErrorText(new ApiRequestError(404, 'SIGN_IN_PROVIDER_UNAVAILABLE', 'Sign-in with GitHub is not set up on this server'), en))
      .toBe('Sign-in with GitHub is not set up on this server');
  });
});
