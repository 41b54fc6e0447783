import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { DependencyUnavailableError, isUnavailable, ServiceError } from '../errors.js';
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
      if (ctx.status >= 500) logger.error(line, 'request');
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

/** Every error becomes the envelope; nothing internal (stack, SQL, engine text) reaches the client. */
export function errorEnvelope(logger: Logger) {
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
      if (response.status >= 500) {
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
      // A request refused before its body was read (unknown path, credentials, rate limit, size):
      // the connection is closed after the answer, so the rest of the body is never read either
      // (kept alive, Node would read it to the end to reach the next request).
      if (!ctx.req.complete && !ctx.headerSent) ctx.set('Connection', 'close');
    }
  };
}
