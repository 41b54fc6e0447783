import { ERROR_CODES, type ErrorCode, type ErrorKind } from '../error-codes.js';
import { RateLimitedError, ServiceError } from '../errors.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/** The HTTP status of each kind of error: the one place where kinds become statuses. */
const STATUS_OF: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
};

export const statusOf = (error: ServiceError): number => STATUS_OF[error.kind];

/** The status a code is answered with (its kind's). */
export const statusOfCode = (code: ErrorCode): number => STATUS_OF[ERROR_CODES[code].kind];

/** The error body every refusal has: { success: false, mensagem, code, ...details }. */
export interface ErrorEnvelope {
  success: false;
  mensagem: string;
  code: string;
  [detail: string]: unknown;
}

export function envelope(error: ServiceError): ErrorEnvelope {
  return { success: false, mensagem: error.message, code: error.code, ...error.details };
}

export function errorHeaders(error: ServiceError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error instanceof RateLimitedError && error.state) Object.assign(headers, rateLimitHeaders(error.state));
  if (error.kind === 'unauthenticated') headers['WWW-Authenticate'] = 'Bearer, ApiKey';
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return headers;
}

/** The response an error becomes: status, headers and the envelope. */
export const errorResponse = (error: ServiceError) => ({
  status: statusOf(error),
  headers: errorHeaders(error),
  body: envelope(error),
});
