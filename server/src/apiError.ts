import { ERRORS, formatError, placeholders, templateFor, type ErrorCode, type ErrorDetail } from '../../engine/src/index';

export type { ErrorDetail };

/**
 * An error the API answers with its catalogue status and `{error: {code, message, details,
 * params}}`: `params` are the values the message was written with (only those its template
 * shows), so a client can say the same in its user's language.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly params: Record<string, unknown>;
  constructor(code: ErrorCode, params: Record<string, unknown> = {}, details: ErrorDetail[] = []) {
    super(formatError(code, params));
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
    const shown = new Set(placeholders(templateFor(ERRORS[code].template)));
    this.params = Object.fromEntries(Object.entries(params).filter(([k, v]) => shown.has(k) && v !== undefined));
  }

  toBody(): { error: { code: string; message: string; details: ErrorDetail[]; params?: Record<string, unknown> } } {
    const params = Object.keys(this.params).length > 0 ? { params: this.params } : {};
    return { error: { code: this.code, message: this.message, details: this.details, ...params } };
  }
}
