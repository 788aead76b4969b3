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
  FORMAT_TOO_MANY: { key: 'validation.maxItems', status: 400, template: '{label} : must have at most {limit} entries' },
  FORMAT_EMPTY_RECORD: { key: 'validation.emptyRecord', status: 400, template: 'The {entity} record is empty: fill in at least one of its fields' },
  FORMAT_FRACTION_DIGITS: { key: 'validation.fractionDigits', status: 400, template: '{label} : {value} must have at most {digits} decimal places' },
  FORMAT_UNKNOWN_FIELD: { key: 'validation.unknownField', status: 400, template: '{field} : is not a field of {entity}' },
  FORMAT_NOT_OBJECT: { key: 'validation.notObject', status: 400, template: 'The {entity} value must be an object, {provided} provided' },
  INVALID_FORM: { key: 'validation.invalidForm', status: 500, template: 'Invalid form. Array expected, {type} provided' },
  EPC_NOT_STRING: { key: 'validation.epcNotString', status: 400, template: 'The epc reference must be a string' },
  LOT_NOT_STRING: { key: 'validation.lotNotString', status: 400, template: 'The lot identifier must be a string' },
  FORMAT_IMMUTABLE: { key: 'validation.immutable', status: 400, template: '{label} : cannot be changed after creation' },
  FORMAT_REFERENCE_NOT_FOUND: { key: 'validation.referenceNotFound', status: 400, template: '{label} : no {type} with id {value}' },
  VALIDATION_FAILED: { key: 'error.validationFailed', status: 400, template: { one: 'The {entity} record is not valid: {count} problem', other: 'The {entity} record is not valid: {count} problems' } },
  INVALID_REQUEST: { key: 'error.invalidRequest', status: 400, template: 'The request is not valid: {detail}' },
  INVALID_JSON: { key: 'error.invalidJson', status: 400, template: 'The request body is not valid JSON' },
  JSON_TOO_DEEP: { key: 'error.jsonTooDeep', status: 400, template: 'The request body is nested more than {limit} levels deep' },
  NUL_CHARACTER: { key: 'error.nulCharacter', status: 400, template: 'The request is not valid: {where} contains a NUL character' },
  HEADERS_TOO_LARGE: { key: 'error.headersTooLarge', status: 431, template: 'The request headers are larger than the server accepts' },
  REQUEST_TIMEOUT: { key: 'error.requestTimeout', status: 408, template: 'The request took too long to arrive' },
  BAD_MULTIPART: { key: 'error.badMultipart', status: 400, template: 'The multipart body could not be read: {reason}' },
  METHOD_NOT_ALLOWED: { key: 'error.methodNotAllowed', status: 405, template: 'Method {method} is not allowed on {url}; allowed: {allowed}' },
  UNKNOWN_ENTITY: { key: 'error.unknownEntity', status: 404, template: 'There is no entity named {entity}' },
  RECORD_NOT_FOUND: { key: 'error.recordNotFound', status: 404, template: 'There is no {entity} with id {id}' },
  ROUTE_NOT_FOUND: { key: 'error.routeNotFound', status: 404, template: 'There is no route {method} {url}' },
  DUPLICATE_KEY: { key: 'error.duplicateKey', status: 409, template: 'Another {entity} already has this {fields}' },
  BODY_TOO_LARGE: { key: 'error.bodyTooLarge', status: 413, template: 'The request body is larger than {limit} bytes' },
  UNSUPPORTED_MEDIA_TYPE: { key: 'error.unsupportedMediaType', status: 415, template: 'Content type {type} is not supported here; send application/json' },
  UNAUTHENTICATED: { key: 'error.unauthenticated', status: 401, template: 'Sign in to continue' },
  FORBIDDEN: { key: 'error.forbidden', status: 403, template: 'You do not have the {key} access this needs' },
  FORBIDDEN_ANY: { key: 'error.forbiddenAny', status: 403, template: 'You need one of these accesses: {keys}' },
  HARD_DELETE_FORBIDDEN: { key: 'error.hardDeleteForbidden', status: 403, template: 'Only an administrator can delete a record for good' },
  // Who may grant access (issue 13): no escalation through the user and group records.
  ACCESS_UNKNOWN: { key: 'error.accessUnknown', status: 400, template: 'These are not access keys, templates or profiles of this platform: {values}' },
  GRANT_NOT_HELD: { key: 'error.grantNotHeld', status: 403, template: 'You cannot give or take away {key} access: you do not hold it yourself' },
  OWN_ACCESS: { key: 'error.ownAccess', status: 403, template: 'You cannot change your own access; ask another administrator' },
  SUPERADMIN_ONLY: { key: 'error.superadminOnly', status: 403, template: 'Only a superadmin can change a superadmin or send them a link' },
  LAST_SUPERADMIN: { key: 'error.lastSuperadmin', status: 409, template: 'This would leave no active superadmin; make another user superadmin first' },
  // Operations as workflows and the stock ledger (issue 15).
  UNKNOWN_WORKFLOW: { key: 'error.unknownWorkflow', status: 404, template: 'There is no operation named {workflow}' },
  // Declarations to the authority (issue 18).
  SYNC_NOT_DECLARABLE: { key: 'error.syncNotDeclarable', status: 404, template: '{workflow} operations are not declared to the authority' },
  SYNC_NOT_FAILED: { key: 'error.syncNotFailed', status: 409, template: 'This {entity} did not fail to sync (it is {state}); only a failed one is sent again' },
  TRANSITION_NOT_ALLOWED: { key: 'error.transitionNotAllowed', status: 409, template: '{transition} cannot be taken from the state {state}' },
  TRANSITION_CONFLICT: { key: 'error.transitionConflict', status: 409, template: 'This {entity} changed meanwhile (now {state}); reload it and try again' },
  TRANSITION_GUARD_FAILED: { key: 'error.transitionGuardFailed', status: 409, template: '{transition} is not possible for this record: {reason}' },
  TRANSITION_FIELD_REQUIRED: { key: 'error.transitionFieldRequired', status: 400, template: '{label} : A value is mandatory to {transition}' },
  OPERATION_NOT_DRAFT: { key: 'error.operationNotDraft', status: 409, template: 'This {entity} is {state}: only a record in {initial} can be edited' },
  STOCK_INSUFFICIENT: { key: 'error.stockInsufficient', status: 400, template: 'Not enough stock of {material}, batch {batch}, at {deposit}: {available} available, {requested} requested' },
  QUANTITY_NOT_POSITIVE: { key: 'error.quantityNotPositive', status: 400, template: '{label} : {value} must be more than 0' },
  UNIT_MISMATCH: { key: 'error.unitMismatch', status: 400, template: '{label} : {unit} is not the unit of {material} ({expected})' },
  UNKNOWN_BATCH: { key: 'error.unknownBatch', status: 400, template: '{label} : there is no batch {batch} of {material}' },
  RECORD_NOT_AVAILABLE: { key: 'error.recordNotAvailable', status: 409, template: '{entity} {record} is {state} at {place}: {transition} cannot use it' },
  TRANSITION_REFUSED: { key: 'error.transitionRefused', status: 409, template: '{transition} is refused: {reason}' },
  VALUE_NOT_FOUND: { key: 'error.valueNotFound', status: 404, template: 'No {entity} has the {label} {value}' },
  VALUE_TAKEN: { key: 'error.valueTaken', status: 409, template: '{label} {value} is already used by {entity} {record}' },
  NOT_REGISTERED: { key: 'error.notRegistered', status: 400, template: '{label} : {value} is not registered' },
  WORKFLOW_NO_DRAFTS: { key: 'error.workflowNoDrafts', status: 405, template: '{entity} records are not created or edited as operations; use master data' },
  // Reports (issue 17).
  UNKNOWN_REPORT: { key: 'error.unknownReport', status: 404, template: 'There is no report named {report}' },
  REPORT_FILTER_UNKNOWN: { key: 'error.reportFilterUnknown', status: 400, template: '{filter} is not a filter of the report {report}; its filters: {filters}' },
  REPORT_FILTER_INVALID: { key: 'error.reportFilterInvalid', status: 400, template: '{filter} : {value} is not a valid {type}' },
  REPORT_RANGE_INVERTED: { key: 'error.reportRangeInverted', status: 400, template: '{filter} : the range ends ({to}) before it starts ({from})' },
  REPORT_SORT_UNKNOWN: { key: 'error.reportSortUnknown', status: 400, template: '{column} is not a sortable column of the report {report}' },
  // 422, not 413: the request is small and well formed; what it asks for is too big to compute, and narrower filters fix it.
  REPORT_TOO_LARGE: { key: 'error.reportTooLarge', status: 422, template: 'The report {report} reads more data than the server can hold in memory; narrow it with its filters' },
  REPORT_TOO_SLOW: { key: 'error.reportTooSlow', status: 422, template: 'The report {report} takes longer than {seconds} seconds to compute; narrow it with its filters' },
  EXPORT_NOT_FOUND: { key: 'error.exportNotFound', status: 404, template: 'There is no report export {id}' },
  EXPORT_NOT_READY: { key: 'error.exportNotReady', status: 409, template: 'The export {id} is {status}; its file is not ready' },
  // Dashboards (issue 19).
  UNKNOWN_DASHBOARD: { key: 'error.unknownDashboard', status: 404, template: 'There is no dashboard named {dashboard}' },
  UNKNOWN_WIDGET: { key: 'error.unknownWidget', status: 404, template: 'The dashboard {dashboard} has no widget named {widget}' },
  DASHBOARD_FILTER_UNKNOWN: { key: 'error.dashboardFilterUnknown', status: 400, template: '{filter} is not a filter of the dashboard {dashboard}; its filters: {filters}' },
  DASHBOARD_FILTER_INVALID: { key: 'error.dashboardFilterInvalid', status: 400, template: '{filter} : {value} is not a valid {type}' },
  SAVED_FILTER_NAME_TAKEN: { key: 'error.savedFilterNameTaken', status: 409, template: 'You already have a saved filter named {name} for this report' },
  // Trace and recall (issue 19).
  TRACE_START_REQUIRED: { key: 'error.traceStartRequired', status: 400, template: 'Name one thing to trace: a lot (with its material if you like), an IBC or a shipment' },
  TRACE_LOT_NOT_FOUND: { key: 'error.traceLotNotFound', status: 404, template: 'There is no lot {identifier} to trace' },
  TRACE_IBC_NOT_FOUND: { key: 'error.traceIbcNotFound', status: 404, template: 'There is no IBC {identifier} to trace' },
  TRACE_SHIPMENT_NOT_FOUND: { key: 'error.traceShipmentNotFound', status: 404, template: 'There is no shipment {identifier} to trace' },
  TRACE_LOT_AMBIGUOUS: { key: 'error.traceLotAmbiguous', status: 400, template: 'Lot {lot} exists for several materials ({materials}); choose the material' },
  DEPOSIT_OUTSIDE_WAREHOUSE: { key: 'error.depositOutsideWarehouse', status: 400, template: '{label} : {deposit} is not a deposit of the selected warehouse {warehouse}' },
  WAREHOUSE_NOT_YOURS: { key: 'error.warehouseNotYours', status: 403, template: 'You are not a member of the warehouse group {warehouse}' },
  // The mobile app (issue 20).
  MOBILE_TERMS_VERSION: { key: 'error.mobileTermsVersion', status: 409, template: 'Mobile terms version {version} is not the current one: read and accept version {current}' },
  RATE_LIMITED: { key: 'error.rateLimited', status: 429, template: 'Too many attempts; try again in {seconds} seconds' },
  SIGN_IN_INVALID_PASSWORD: { key: 'signIn.error.invalidPassword', status: 401, template: 'The password is invalid' },
  SIGN_IN_ACCOUNT_NOT_FOUND: { key: 'signIn.error.accountNotFound', status: 401, template: 'Account does not exist' },
  SIGN_IN_ACCOUNT_DISABLED: { key: 'signIn.error.accountDisabled', status: 403, template: 'Account disabled. Contact your admin.' },
  SIGN_IN_PROVIDER_NOT_CONFIGURED: { key: 'signIn.error.providerNotConfigured', status: 403, template: '{provider} not configured for this organization' },
  SIGN_IN_DOMAIN_NOT_AUTHORIZED: { key: 'signIn.error.domainNotAuthorized', status: 403, template: 'This domain is not authorized.' },
  SIGN_IN_POPUP_CLOSED: { key: 'signIn.error.popupClosed', status: 400, template: 'Authentication popup closed' },
  ACCOUNT_EXPIRED: { key: 'signIn.accountExpired', status: 403, template: 'Your account has expired. Please contact your admin for further support.' },
  SIGN_IN_PROVIDER_UNAVAILABLE: { key: 'signIn.error.providerUnavailable', status: 404, template: 'Sign-in with {provider} is not set up on this server' },
  SIGN_IN_PROVIDER_FAILED: { key: 'signIn.error.providerFailed', status: 400, template: 'Sign-in with {provider} did not complete: {reason}' },
  SIGN_IN_PROVIDER_NO_EMAIL: { key: 'signIn.error.providerNoEmail', status: 400, template: 'The {provider} account has no verified e-mail address' },
  PASSWORD_TOO_WEAK: { key: 'resetPassword.error.weak', status: 400, template: 'The password is too weak: use at least {length} characters with two of lowercase letters, uppercase letters and digits' },
  RESET_TOKEN_INVALID: { key: 'resetPassword.invalidLink', status: 400, template: 'This reset link is invalid or has expired.' },
  // CSV imports (issue 7): file, column and row problems, and the outcome of an import job.
  IMPORT_NOT_CSV: { key: 'import.error.notCsv', status: 400, template: 'The file is not a CSV file (it looks like {what}); save it as CSV UTF-8 and upload it again' },
  IMPORT_EMPTY_FILE: { key: 'import.error.emptyFile', status: 400, template: 'The file is empty' },
  IMPORT_NO_ROWS: { key: 'import.error.noRows', status: 400, template: 'The file has a header row but no data rows' },
  IMPORT_FILE_TOO_LARGE: { key: 'import.error.fileTooLarge', status: 413, template: 'The file is larger than the {limit} MB an import accepts' },
  IMPORT_NO_FILE: { key: 'import.error.noFile', status: 400, template: 'Send the CSV file in a multipart field named file' },
  IMPORT_MISSING_COLUMNS: { key: 'import.error.missingColumns', status: 400, template: 'Required columns are missing: {columns}' },
  IMPORT_DUPLICATE_COLUMN: { key: 'import.error.duplicateColumn', status: 400, template: 'Column {column} names the same field as column {other}' },
  IMPORT_AMBIGUOUS_COLUMN: { key: 'import.error.ambiguousColumn', status: 400, template: 'Column {column} could name more than one field; use the field id or Extension > Field' },
  IMPORT_NOT_FOUND: { key: 'import.error.notFound', status: 404, template: 'There is no import with id {id}' },
  IMPORT_NOT_READY: { key: 'import.error.notReady', status: 409, template: 'The import is still {status}; its error file is ready once validation has finished' },
  IMPORT_NOT_MULTIPART: { key: 'import.error.notMultipart', status: 415, template: 'Content type {type} is not supported here; send the file as multipart/form-data' },
  IMPORT_UNKNOWN_COLUMNS: { key: 'import.warning.unknownColumns', status: 200, template: 'These columns are not fields of {entity} and were not imported: {columns}' },
  IMPORT_IGNORED_COLUMNS: { key: 'import.warning.ignoredColumns', status: 200, template: 'These columns were ignored: {columns}; records are matched by {keys}' },
  IMPORT_ENCODING: { key: 'import.warning.encoding', status: 200, template: 'The file is not UTF-8; it was read as {encoding}' },
  IMPORT_RAGGED_ROW: { key: 'import.row.ragged', status: 400, template: 'The row has {cells} cells; the header has {columns}' },
  IMPORT_MALFORMED_ROW: { key: 'import.row.malformed', status: 400, template: 'The row could not be read: {reason}' },
  IMPORT_BAD_ROWS_CELL: { key: 'import.row.badRowsCell', status: 400, template: '{label} : the cell is not a JSON list of rows' },
  IMPORT_KEY_MISSING: { key: 'import.row.keyMissing', status: 400, template: '{label} : A value is mandatory to match the record on import' },
  IMPORT_DUPLICATE_IN_FILE: { key: 'import.row.duplicateInFile', status: 400, template: '{label} : {value} is already used in row {row} of this file' },
  IMPORT_DUPLICATE_EVENT: { key: 'import.row.duplicateEvent', status: 400, template: 'The same event is already in row {row} of this file' },
  IMPORT_UNIQUE_TAKEN: { key: 'import.row.uniqueTaken', status: 400, template: '{label} : {value} already belongs to another {entity}' },
  IMPORT_KEY_AMBIGUOUS: { key: 'import.row.keyAmbiguous', status: 400, template: '{label} : {value} matches {count} records' },
  IMPORT_ROW_FAILED: { key: 'import.row.failed', status: 400, template: 'The row could not be written: {reason}' },
  IMPORT_REJECTED: { key: 'import.job.rejected', status: 400, template: { one: 'Nothing was imported: {count} row was rejected and the mode is all or nothing', other: 'Nothing was imported: {count} rows were rejected and the mode is all or nothing' } },
  IMPORT_ROLLED_BACK: { key: 'import.job.rolledBack', status: 500, template: 'The import was rolled back and changed nothing: {reason}' },
  IMPORT_FAILED: { key: 'import.job.failed', status: 500, template: 'The import failed and changed nothing: {reason}' },
  IMPORT_INTERRUPTED: { key: 'import.job.interrupted', status: 500, template: 'the server stopped {count} times during the import' },
  IMPORT_CONTENT_TOO_LARGE: { key: 'import.job.contentTooLarge', status: 413, template: 'Nothing was imported: the file holds more than {limit} MB of data once decompressed; split it into smaller files' },
  IMPORT_TOO_MANY_ROWS: { key: 'import.job.tooManyRows', status: 413, template: 'Nothing was imported: the file has more than {limit} rows; split it into smaller files' },
  // EPCIS capture and query (issue 19).
  EPCIS_INVALID_DOCUMENT: { key: 'error.epcisInvalidDocument', status: 400, template: 'The EPCIS document is not valid: each problem is named by its JSON pointer ({count} in all)' },
  EPCIS_UNKNOWN_VOCABULARY: { key: 'error.epcisUnknownVocabulary', status: 400, template: '{value} is not a term of the Core Business Vocabulary' },
  EPCIS_DECLARATION_WITHOUT_ID: { key: 'error.epcisDeclarationWithoutId', status: 400, template: 'An error declaration names the event it corrects by its eventID' },
  EPCIS_CAPTURE_LIMIT: { key: 'error.epcisCaptureLimit', status: 413, template: 'The document holds {count} events; a capture takes at most {limit}' },
  EPCIS_CAPTURE_TOO_LARGE: { key: 'error.epcisCaptureTooLarge', status: 413, template: 'The document is larger than {limit} bytes, the most a capture takes' },
  EPCIS_EVENT_ID_TAKEN: { key: 'error.epcisEventIdTaken', status: 409, template: 'The eventID {eventID} already names another event' },
  EPCIS_ALREADY_DECLARED: { key: 'error.epcisAlreadyDeclared', status: 409, template: 'The event {eventID} already has another error declaration' },
  EPCIS_DECLARATION_NOT_YOURS: { key: 'error.epcisDeclarationNotYours', status: 403, template: 'The event {eventID} is not one you captured: only who captured it, or an administrator, may declare it in error (an operation\'s own event is corrected through its operation)' },
  EPCIS_CAPTURE_NOT_FOUND: { key: 'error.epcisCaptureNotFound', status: 404, template: 'There is no capture {id} of yours' },
  EPCIS_QUERY_UNKNOWN_PARAMETER: { key: 'error.epcisQueryUnknownParameter', status: 400, template: '{parameter} is not a query parameter this repository answers; it answers {parameters}' },
  EPCIS_QUERY_INVALID_VALUE: { key: 'error.epcisQueryInvalidValue', status: 400, template: '{parameter} : {value} is not {expected}' },
  EPCIS_PAGE_TOO_LARGE: { key: 'error.epcisPageTooLarge', status: 400, template: 'perPage : {value} is more than {limit}, the most events a page holds' },
  EPCIS_PAGE_TOKEN_INVALID: { key: 'error.epcisPageTokenInvalid', status: 400, template: 'The nextPageToken does not belong to this query; ask again from the first page' },
  INTERNAL: { key: 'error.internal', status: 500, template: 'Something went wrong on our side; the request changed nothing' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** A message template; one that counts (`{count}`) has a wording per English plural category. */
export type Template = string | { readonly one: string; readonly other: string };

const englishPlural = new Intl.PluralRules('en');

/** The wording for these values: a counting template picks its form by `count`, as i18next does. */
export function templateFor(template: Template, params: Record<string, unknown> = {}): string {
  if (typeof template === 'string') return template;
  return englishPlural.select(Number(params.count)) === 'one' ? template.one : template.other;
}

/**
 * The bundle keys a catalogue entry's English lives under, each with its text in bundle
 * form (`{{name}}`): `key`, or i18next's `key_one` / `key_other` for a counting template.
 */
export function bundleTexts(entry: { key: string; template: Template }): [string, string][] {
  const bundle = (s: string) => s.replace(/\{(\w+)\}/g, '{{$1}}');
  const t = entry.template;
  return typeof t === 'string' ? [[entry.key, bundle(t)]] : [[`${entry.key}_one`, bundle(t.one)], [`${entry.key}_other`, bundle(t.other)]];
}

export function formatError(code: ErrorCode, params: Record<string, unknown> = {}): string {
  return interpolate(templateFor(ERRORS[code].template, params), params);
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
