/**
 * Errors that reach a client. Every one becomes the envelope
 * { success: false, mensagem, code, ...extra } with its status; anything else is a 500 whose
 * details stay in the log.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, code = 'INVALID_REQUEST', extra?: Record<string, unknown>) =>
  new HttpError(400, code, message, extra);
export const unauthorized = (message = 'Credencial em falta ou inválida.', code = 'UNAUTHORIZED') =>
  new HttpError(401, code, message, {}, { 'WWW-Authenticate': 'Bearer, ApiKey' });
export const paymentRequired = (message: string, code: string, extra?: Record<string, unknown>) =>
  new HttpError(402, code, message, extra);
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, code, message);
export const notFound = (message = 'Recurso não encontrado.', code = 'NOT_FOUND') =>
  new HttpError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, code, message);

/** 429 with the body the spec asks for (remaining, resetAt) and Retry-After in seconds. */
export function tooManyRequests(
  message: string,
  limit: { remaining: number; resetAt: Date; retryAfterSeconds: number },
  headers: Record<string, string> = {},
  code = 'RATE_LIMITED',
): HttpError {
  return new HttpError(
    429,
    code,
    message,
    { remaining: limit.remaining, resetAt: limit.resetAt.toISOString() },
    { ...headers, 'Retry-After': String(Math.max(1, limit.retryAfterSeconds)) },
  );
}

/**
 * A dependency (database, Redis, search cluster) did not answer. The caller gets 503 and is
 * charged nothing; the cause is logged, never sent.
 */
export class DependencyUnavailableError extends HttpError {
  constructor(
    readonly dependency: string,
    override readonly cause?: unknown,
  ) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      'Serviço temporariamente indisponível. Tente novamente dentro de momentos.',
      {},
      {
        'Retry-After': '5',
      },
    );
  }
}

/** pg / PGlite / network error codes that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True when an error says a dependency is down or unreachable rather than that the request is wrong. */
export function isUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown[] };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (
    typeof e.message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|is not queryable/i.test(
      e.message,
    )
  )
    return true;
  // AggregateError from dual-stack connection attempts
  return Array.isArray(e.errors) && e.errors.some(isUnavailable);
}

export interface ErrorEnvelope {
  success: false;
  mensagem: string;
  code: string;
  [extra: string]: unknown;
}

export function envelope(error: HttpError): ErrorEnvelope {
  return { success: false, mensagem: error.message, code: error.code, ...error.extra };
}
