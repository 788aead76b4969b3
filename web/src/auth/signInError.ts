import type { TFunction } from 'i18next';
import { ERRORS } from '../../../engine/src/index';
import { ApiRequestError } from '../api/errors';
import { errorText } from '../api/errorText';
import { AccountExpiredError } from './auth';

const PROVIDER_SUFFIX = / not configured for this organization$/;

/**
 * SPEC 8: the text of a sign-in failure in the interface language. Known sign-in codes use
 * their catalogue key; anything else shows the raw error text.
 */
export function signInErrorText(e: unknown, t: TFunction): string {
  if (e instanceof AccountExpiredError) return t(ERRORS.ACCOUNT_EXPIRED.key);
  if (e instanceof ApiRequestError && e.code === 'SIGN_IN_PROVIDER_NOT_CONFIGURED' && PROVIDER_SUFFIX.test(e.message)) {
    return t(ERRORS.SIGN_IN_PROVIDER_NOT_CONFIGURED.key, { provider: e.message.replace(PROVIDER_SUFFIX, ''), defaultValue: e.message });
  }
  return errorText(e, t);
}
