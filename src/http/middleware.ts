import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { DependencyUnavailableError, isUnavailable, LoadShedError, ServiceError } from '../errors.js';
import { errorResponse } from './error-response.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** X-Request-Id in and out, X-API-Version, the security headers, and one JSON log line per request. */
export function requestContext(logger: Logger, headers: Record<string, string>) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = {};
    ctx.set('X-Request-Id', requestId);
    ctx.set('X-API-Version', '2.0');
    ctx.set(headers);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        reqId: requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 100) / 100,
        ip: ctx.ip,
        ...(ctx.state.accountId ? { account: ctx.state.accountId } : {}),
        ...(ctx.state.log as Record<string, unknown>),
      };
      // A request shed by a guard (see LoadShedError) is an answer, not a failure: the guard's change
      // of state was the error worth a line at that level.
      if (ctx.status >= 500 && !('shed' in line)) logger.error(line, 'request');
      else logger.info(line, 'request');
    }
  };
}

/** What the caller reads of an error of the service's own (the details stay in the log). */
export const internalError = () =>
  new ServiceError(
    'INTERNAL_ERROR',
    'Erro interno do servidor. Tente novamente; se persistir, indique o X-Request-Id ao suporte.',
  );

/** The path as the caller sent it (before the /v2 prefix is taken off). */
const requestedPath = (ctx: Context) => ctx.originalUrl.split('?')[0];

/** Bodies this small are read to the end (and dropped) rather than the connection closed. */
const SMALL_BODY_BYTES = 32 * 1024;

const smallBody = (ctx: Context) => {
  const declared = ctx.get('content-length');
  return declared !== '' && ctx.get('transfer-encoding') === '' && Number(declared) <= SMALL_BODY_BYTES;
};

/**
 * The rest of a small body left unread, read after the answer to keep the connection, must still
 * come within a body's deadline: a body trickled a byte at a time would otherwise hold the
 * connection until Node's own deadline, an upload's hour. Late, the connection is dropped.
 */
function dropConnectionIfLate(req: IncomingMessage, bodyTimeoutSeconds: number) {
  const timer = setTimeout(() => req.socket.destroy(), bodyTimeoutSeconds * 1000).unref();
  const stop = () => clearTimeout(timer);
  req.socket.once('close', stop);
  // the socket outlives the request (keep-alive): its listener goes with the request's end
  req.once('end', () => {
    stop();
    req.socket.off('close', stop);
  });
}

/** Every error becomes the envelope; nothing internal (stack, SQL, engine text) reaches the client. */
export function errorEnvelope(logger: Logger, bodyTimeoutSeconds: number) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ServiceError('ROUTE_NOT_FOUND', `Rota não encontrada: ${ctx.method} ${requestedPath(ctx)}`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new ServiceError(
          'METHOD_NOT_ALLOWED',
          `Método ${ctx.method} não permitido em ${requestedPath(ctx)}.`,
        );
      }
    } catch (caught) {
      let error: ServiceError;
      if (caught instanceof ServiceError) {
        error = caught;
      } else if (isUnavailable(caught)) {
        error = new DependencyUnavailableError('database', caught);
      } else {
        error = internalError();
      }
      const response = errorResponse(error);
      if (error instanceof LoadShedError) {
        (ctx.state.log as Record<string, unknown>).shed = error.guard;
      } else if (response.status >= 500) {
        const cause = error instanceof DependencyUnavailableError ? error.cause : caught;
        logger.error(
          { reqId: ctx.state.requestId, err: cause },
          response.status === 503 ? 'dependency unavailable' : 'unhandled error',
        );
      }
      ctx.status = response.status;
      ctx.set(response.headers);
      ctx.body = response.body;
    } finally {
      // A request refused before its body was read (unknown path, credentials, rate limit, size,
      // the engine away): kept alive, Node reads the rest of the body to reach the next request.
      // A body of unknown or large size is not worth reading: the connection is closed after the
      // answer instead. A small one is, rather than making the caller connect again (a refusal
      // then costs a new connection: while the engine's breaker is open, most of a refusal's cost).
      if (!ctx.req.complete && !ctx.headerSent) {
        if (smallBody(ctx)) dropConnectionIfLate(ctx.req, bodyTimeoutSeconds);
        else ctx.set('Connection', 'close');
      }
    }
  };
}
