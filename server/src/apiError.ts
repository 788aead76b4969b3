import { ERRORS, formatError, type ErrorCode } from '../../engine/src/index';

export interface ErrorDetail {
  field?: string;
  message: string;
  code?: string;
}

/** An error the API answers with its catalogue status and `{error: {code, message, details}}`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[];
  constructor(code: ErrorCode, params: Record<string, unknown> = {}, details: ErrorDetail[] = []) {
    super(formatError(code, params));
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
  }

  toBody(): { error: { code: string; message: string; details: ErrorDetail[] } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}
