import { interpolate } from './text';

/**
 * The one error catalogue: every message the engine or the server produces has a code,
 * an English template (word for word from the specification where it fixes one), the
 * i18n key its translations live under, and the HTTP status the server answers with.
 */
export const ERRORS = {
  FORMAT_REFERENCE_STRING: { key: 'validation.referenceWarning', status: 200, template: 'The {entity} value is a string. It will be processed as a reference.' },
  FORMAT_MANDATORY: { key: 'validation.mandatory', status: 400, template: '{label} : A value is mandatory.' },
  FORMAT_INVALID_REFERENCE: { key: 'validation.invalidReference', status: 400, template: '{label} : Invalid {type} reference.' },
  FORMAT_WRONG_TYPE: { key: 'validation.wrongType', status: 400, template: '{label} : {value} must be a {type}, {provided} provided' },
  FORMAT_PATTERN: { key: 'validation.pattern', status: 400, template: '{label} : {value} does not match the required format' },
  FORMAT_OPTION: { key: 'validation.option', status: 400, template: '{label} : {value} is not one of the allowed values' },
  FORMAT_TOO_SMALL: { key: 'validation.min', status: 400, template: '{label} : {value} is less than {limit}' },
  FORMAT_TOO_LARGE: { key: 'validation.max', status: 400, template: '{label} : {value} is more than {limit}' },
  FORMAT_TOO_SHORT: { key: 'validation.minLength', status: 400, template: '{label} : must have at least {limit} characters' },
  FORMAT_TOO_LONG: { key: 'validation.maxLength', status: 400, template: '{label} : must have at most {limit} characters' },
  FORMAT_FRACTION_DIGITS: { key: 'validation.fractionDigits', status: 400, template: '{label} : {value} must have at most {digits} decimal places' },
  FORMAT_UNKNOWN_FIELD: { key: 'validation.unknownField', status: 400, template: '{field} : is not a field of {entity}' },
  FORMAT_NOT_OBJECT: { key: 'validation.notObject', status: 400, template: 'The {entity} value must be an object, {provided} provided' },
  INVALID_FORM: { key: 'validation.invalidForm', status: 500, template: 'Invalid form. Array expected, {type} provided' },
  EPC_NOT_STRING: { key: 'validation.epcNotString', status: 400, template: 'The epc reference must be a string' },
  LOT_NOT_STRING: { key: 'validation.lotNotString', status: 400, template: 'The lot identifier must be a string' },
  FORMAT_IMMUTABLE: { key: 'validation.immutable', status: 400, template: '{label} : cannot be changed after creation' },
  FORMAT_REFERENCE_NOT_FOUND: { key: 'validation.referenceNotFound', status: 400, template: '{label} : no {type} with id {value}' },
  VALIDATION_FAILED: { key: 'error.validationFailed', status: 400, template: 'The {entity} record is not valid: {count} problem(s)' },
  INVALID_REQUEST: { key: 'error.invalidRequest', status: 400, template: 'The request is not valid: {detail}' },
  INVALID_JSON: { key: 'error.invalidJson', status: 400, template: 'The request body is not valid JSON' },
  UNKNOWN_ENTITY: { key: 'error.unknownEntity', status: 404, template: 'There is no entity named {entity}' },
  RECORD_NOT_FOUND: { key: 'error.recordNotFound', status: 404, template: 'There is no {entity} with id {id}' },
  ROUTE_NOT_FOUND: { key: 'error.routeNotFound', status: 404, template: 'There is no route {method} {url}' },
  DUPLICATE_KEY: { key: 'error.duplicateKey', status: 409, template: 'Another {entity} already has this {fields}' },
  BODY_TOO_LARGE: { key: 'error.bodyTooLarge', status: 413, template: 'The request body is larger than {limit} bytes' },
  UNSUPPORTED_MEDIA_TYPE: { key: 'error.unsupportedMediaType', status: 415, template: 'Content type {type} is not supported here; send application/json' },
  UNAUTHENTICATED: { key: 'error.unauthenticated', status: 401, template: 'Sign in to continue' },
  FORBIDDEN: { key: 'error.forbidden', status: 403, template: 'You do not have the {key} access this needs' },
  HARD_DELETE_FORBIDDEN: { key: 'error.hardDeleteForbidden', status: 403, template: 'Only an administrator can delete a record for good' },
  RATE_LIMITED: { key: 'error.rateLimited', status: 429, template: 'Too many attempts; try again in {seconds} seconds' },
  SIGN_IN_INVALID_PASSWORD: { key: 'signIn.error.invalidPassword', status: 401, template: 'The password is invalid' },
  SIGN_IN_ACCOUNT_NOT_FOUND: { key: 'signIn.error.accountNotFound', status: 401, template: 'Account does not exist' },
  SIGN_IN_ACCOUNT_DISABLED: { key: 'signIn.error.accountDisabled', status: 403, template: 'Account disabled. Contact your admin.' },
  SIGN_IN_PROVIDER_NOT_CONFIGURED: { key: 'signIn.error.providerNotConfigured', status: 403, template: '{provider} not configured for this organization' },
  SIGN_IN_DOMAIN_NOT_AUTHORIZED: { key: 'signIn.error.domainNotAuthorized', status: 403, template: 'This domain is not authorized.' },
  SIGN_IN_POPUP_CLOSED: { key: 'signIn.error.popupClosed', status: 400, template: 'Authentication popup closed' },
  ACCOUNT_EXPIRED: { key: 'signIn.accountExpired', status: 403, template: 'Your account has expired. Please contact your admin for further support.' },
  INTERNAL: { key: 'error.internal', status: 500, template: 'Something went wrong on our side; the request changed nothing' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function formatError(code: ErrorCode, params: Record<string, unknown> = {}): string {
  return interpolate(ERRORS[code].template, params);
}

/** Thrown for programming or definition errors (never for bad user values). */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, unknown>;
  constructor(code: ErrorCode, params: Record<string, unknown> = {}) {
    super(formatError(code, params));
    this.code = code;
    this.params = params;
    this.name = 'EngineError';
  }
}
