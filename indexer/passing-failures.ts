import { errors } from '@opensearch-project/opensearch';

/** SQLSTATE classes that mean our statement is wrong, not that the server is away. */
const STATEMENT_ERROR_CLASSES = new Set(['0A', '21', '22', '23', '42', 'P0']);

/**
 * Whether an error is a passing cause (wait and try again, however long it lasts) rather than an
 * error of our own. Passing: the cluster or PostgreSQL unreachable, timing out, restarting,
 * overloaded (429), failing (5xx), refusing for lack of rights or space; a Redis command that
 * failed. Not passing: a programming error (TypeError…), a statement PostgreSQL refuses as
 * written, a bulk request the cluster refuses as malformed (400). Nothing is lost either way:
 * the worker waits on a passing cause, and a failed job's changes are handed out again.
 */
export function isPassingFailure(error: unknown): boolean {
  if (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof SyntaxError ||
    error instanceof RangeError
  ) {
    return false;
  }
  if (error instanceof errors.ResponseError) return error.meta.statusCode !== 400;
  if (error instanceof errors.SerializationError || error instanceof errors.DeserializationError)
    return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    return !STATEMENT_ERROR_CLASSES.has(code.slice(0, 2));
  }
  return true;
}
