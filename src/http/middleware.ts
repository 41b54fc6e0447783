import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { DependencyUnavailableError, envelope, HttpError, isUnavailable } from './errors.js';

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

/** Statuses raised by Koa and its body parser, with their Portuguese envelope. */
const frameworkErrors: Record<number, [string, string]> = {
  400: ['INVALID_JSON', 'O corpo do pedido não é um objeto JSON válido.'],
  413: ['PAYLOAD_TOO_LARGE', 'O corpo do pedido excede o limite de 1 MB.'],
  // only the decompression of the body raises it (inflation); a non-JSON body is mount-routes' 415
  415: [
    'UNSUPPORTED_CONTENT_ENCODING',
    'Content-Encoding não suportado: envie o corpo sem compressão ou em gzip, deflate ou br.',
  ],
};

/** The envelope of an error the framework raised with a status, or null for our own bugs. */
function frameworkError(caught: unknown): HttpError | null {
  const status = (caught as { status?: unknown }).status;
  const known = typeof status === 'number' ? frameworkErrors[status] : undefined;
  return known ? new HttpError(status as number, known[0], known[1]) : null;
}

/**
 * The body parser's onError: what it raises with a status keeps it (bad JSON, too large, unknown
 * Content-Encoding); anything else comes from reading the body itself, in practice a body that
 * does not decompress as its Content-Encoding says (zlib's Z_DATA_ERROR, brotli's
 * ERR__ERROR_FORMAT_...), and is the caller's 400.
 */
export function bodyReadError(caught: Error): never {
  throw (
    frameworkError(caught) ??
    new HttpError(
      400,
      'INVALID_CONTENT_ENCODING',
      'Não foi possível ler o corpo do pedido: não corresponde ao Content-Encoding indicado.',
    )
  );
}

/** The path as the caller sent it (before the /v2 prefix is taken off). */
const requestedPath = (ctx: Context) => ctx.originalUrl.split('?')[0];

/** Every error becomes the envelope; nothing internal (stack, SQL, engine text) reaches the client. */
export function errorEnvelope(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError(
          404,
          'ROUTE_NOT_FOUND',
          `Rota não encontrada: ${ctx.method} ${requestedPath(ctx)}`,
        );
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new HttpError(
          405,
          'METHOD_NOT_ALLOWED',
          `Método ${ctx.method} não permitido em ${requestedPath(ctx)}.`,
        );
      }
    } catch (caught) {
      let error: HttpError;
      if (caught instanceof HttpError) {
        error = caught;
      } else if (isUnavailable(caught)) {
        error = new DependencyUnavailableError('database', caught);
      } else {
        error =
          frameworkError(caught) ??
          new HttpError(
            500,
            'INTERNAL_ERROR',
            'Erro interno do servidor. Tente novamente; se persistir, indique o X-Request-Id ao suporte.',
          );
      }
      if (error.status >= 500) {
        const cause = error instanceof DependencyUnavailableError ? error.cause : caught;
        logger.error(
          { reqId: ctx.state.requestId, err: cause },
          error.status === 503 ? 'dependency unavailable' : 'unhandled error',
        );
      }
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = envelope(error);
    }
  };
}
