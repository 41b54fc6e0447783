/**
 * The errors the service's own code raises, neutral of any transport: each has a kind (what went
 * wrong, for the caller) and a stable code; its message is the Portuguese text the caller reads.
 * Only the HTTP layer knows which status a kind is (src/http/error-response.ts); anything that is
 * not a ServiceError reaches the caller as an internal error whose details stay in the log.
 */
import { ERROR_CODES, type CodeOf, type ErrorCode, type ErrorKind } from './error-codes.js';

export type { ErrorCode, ErrorKind } from './error-codes.js';

export class ServiceError extends Error {
  /** what went wrong, for the caller: the code's kind (src/error-codes.ts) */
  readonly kind: ErrorKind;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** fields the caller gets beside the message (the spec's `remaining`, `resetAt`, `campo`...) */
    readonly details: Record<string, unknown> = {},
    /** when asking again makes sense (rate limits, a busy or unavailable dependency) */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
    this.kind = ERROR_CODES[code].kind;
  }
}

export const invalid = (
  message: string,
  code: CodeOf<'invalid'> = 'INVALID_REQUEST',
  details?: Record<string, unknown>,
) => new ServiceError(code, message, details);
export const unauthenticated = (
  message = 'Credencial em falta ou inválida.',
  code: CodeOf<'unauthenticated'> = 'UNAUTHORIZED',
) => new ServiceError(code, message);
export const paymentRequired = (
  message: string,
  code: CodeOf<'payment_required'>,
  details?: Record<string, unknown>,
) => new ServiceError(code, message, details);
export const forbidden = (message: string, code: CodeOf<'forbidden'> = 'FORBIDDEN') =>
  new ServiceError(code, message);
export const notFound = (message = 'Recurso não encontrado.', code: CodeOf<'not_found'> = 'NOT_FOUND') =>
  new ServiceError(code, message);
export const conflict = (
  message: string,
  code: CodeOf<'conflict'> = 'CONFLICT',
  retryAfterSeconds?: number,
) => new ServiceError(code, message, {}, retryAfterSeconds);
export const unprocessable = (message: string, code: CodeOf<'unprocessable'>) =>
  new ServiceError(code, message);

/** The state of the rate-limit window a caller is closest to running out of. */
export interface LimitState {
  limit: number;
  remaining: number;
  resetAt: Date;
  /** every window the request was counted in: limit and length in seconds */
  windows: { limit: number; seconds: number }[];
}

/** A limit reached: the spec's body (remaining, resetAt) and, when known, the window that refused. */
export class RateLimitedError extends ServiceError {
  constructor(
    message: string,
    limit: { remaining: number; resetAt: Date; retryAfterSeconds: number },
    readonly state?: LimitState,
    code: CodeOf<'rate_limited'> = 'RATE_LIMITED',
  ) {
    super(
      code,
      message,
      { remaining: limit.remaining, resetAt: limit.resetAt.toISOString() },
      Math.max(1, limit.retryAfterSeconds),
    );
  }
}

/**
 * A dependency (database, Redis, search cluster) did not answer. The caller is told to come back
 * and is charged nothing; the cause is logged, never sent.
 */
/** What a caller reads when a dependency cannot answer (told to come back, charged nothing). */
export const UNAVAILABLE_MESSAGE =
  'Serviço temporariamente indisponível. Tente novamente dentro de momentos.';

export class DependencyUnavailableError extends ServiceError {
  constructor(
    readonly dependency: string,
    override readonly cause?: unknown,
    retryAfterSeconds = 5,
  ) {
    super('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE, {}, retryAfterSeconds);
  }
}

/**
 * A request turned away by one of the service's own guards before the dependency was asked (the
 * engine's circuit breaker open, its lane full): the expected answer while a dependency is down or
 * the service saturated, not a failure seen by this request. The guard's change of state is logged
 * once; each refusal is not logged as an error, so an outage does not also flood the log (and the
 * CPU that writes it) with one stack trace per refused request.
 */
export class LoadShedError extends ServiceError {
  constructor(
    code: 'SERVICE_UNAVAILABLE' | 'ENGINE_BUSY',
    message: string,
    /** the guard that refused: `breaker_open` or `lane_full` */
    readonly guard: 'breaker_open' | 'lane_full',
    retryAfterSeconds: number,
  ) {
    super(code, message, {}, retryAfterSeconds);
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

/**
 * What an operator reads of an error that stopped a command or the start: a ServiceError's message
 * with its stable code (what scripts and runbooks match on), anything else's message.
 */
export function operatorMessage(error: unknown): string {
  if (error instanceof ServiceError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Node's errors for a connection that could not be made or was lost. */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET']);

/**
 * What an operator's command says of the error that stopped it: operatorMessage's, with a
 * connection to PostgreSQL that could not be made or was lost said as such. The commands reach
 * nothing else with a bare network error (node-postgres passes Node's on, with its code; the
 * cluster's client wraps its own in a ConnectionError without one).
 */
export function commandFailureMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECTION_ERRORS.has(code)
    ? `a base de dados não respondeu (${operatorMessage(error)}): confirme DATABASE_URL e que o PostgreSQL está a correr.`
    : operatorMessage(error);
}
